import { languages } from '@odontia/shared';
import { describe, expect, it } from 'vitest';
import { isMenuGroup, menuSections } from '../app/layouts/menu';

/*
 * The words of the catalogs, beyond their keys (catalogs.test.ts): each language says a thing
 * one way, and the staff are addressed as tú (patients' documents and mails as usted).
 */

type Catalog = Record<string, unknown>;

const appCatalogs = import.meta.glob<Catalog>('./*/*.json', { eager: true, import: 'default' });
const sharedCatalogs = import.meta.glob<Catalog>('../../../../packages/shared/src/locales/*/*.json', {
  eager: true,
  import: 'default',
});

/** Every text of a language's catalogs (app and shared) as [`namespace:dotted.key`, text]. */
function texts(language: string): [string, string][] {
  const result: [string, string][] = [];
  const walk = (value: unknown, key: string) => {
    if (typeof value === 'string') result.push([key, value]);
    else if (value && typeof value === 'object')
      for (const [part, child] of Object.entries(value))
        walk(child, key.endsWith(':') ? `${key}${part}` : `${key}.${part}`);
  };
  for (const [path, catalog] of Object.entries({ ...appCatalogs, ...sharedCatalogs })) {
    const match = /\/([a-z]{2})\/([\w-]+)\.json$/.exec(path);
    if (match?.[1] === language) walk(catalog, `${match[2]}:`);
  }
  return result;
}

describe('Portuguese catalogs', () => {
  it('say "estoque", never "stock" (the word of the rest of the app)', () => {
    const found = texts('pt').filter(([, text]) => /\bstock\b/i.test(text.replace(/\{\{[^}]*\}\}/g, '')));
    expect(found).toEqual([]);
  });
});

/**
 * Usted forms said to the user: imperatives and "usted" anywhere, and "Puede…", "Su…" opening a
 * sentence (a third person in the middle of one, "el paciente puede", is not addressed to anyone).
 */
const ustedWords =
  /\b(usted|ustedes|ud\.|uds\.|ingrese|ingréselo|seleccione|selecciónelo|verifique|intente|inténtelo|vuelva|escriba|elija|elíjalo|introduzca|pulse|presione|contáctese|comuníquese|asegúrese|compruebe|revise|revíselo|déjelo|deje|corrija|corríjalo|espere|guarde|agregue|cargue|indique|recuerde|consulte|desactívelo|anúlelo)\b/i;
const ustedOpenings = /(^|[.:;!?¿¡]\s+)(Puede|Puedo|Su|Sus|Complete|Desea|Quiere|Le)\b/;
/**
 * What patients read (usted): the pages of the links in their reminder, signing and waiting-list
 * e-mails (the offer's page is in appointmentLinks, issue 38), the patient portal (issue 37) and
 * the booking codes only a patient meets. `portal_access_revoked` speaks of the patient in the
 * third person ("sus sesiones": the patient's), to the staff.
 */
const patientCodes = new Set([
  'messages:slot_unavailable',
  'messages:slot_taken',
  'messages:online_booking_pending_exists',
  'messages:online_booking_held',
  'messages:appointment_booked_online',
  'messages:portal_access_none',
  'messages:password_already_set',
  'messages:waiting_list_offer_accepted',
  'appMessages:portal_access_revoked',
]);
const patientTexts = (key: string) =>
  key.startsWith('appointmentLinks:') ||
  key.startsWith('portal:') ||
  key.startsWith('messages:appointment_link') ||
  key.startsWith('signing:link.') ||
  key.startsWith('messages:signing_link') ||
  key.startsWith('messages:signing_document') ||
  patientCodes.has(key);

/**
 * Voseo (Rioplatense "vos"): the clinic may be in Buenos Aires, the app still says tú ("registra",
 * "puedes", "ármala"), one form for every Spanish-speaking clinic.
 */
const voseoWords =
  /(?<!\p{L})(registrá|armá|armala|descargala|marcala|elegí|tenés|podés|querés|sabés|indicá|escribí|contá|cargá|usá|revisá|completá|seleccioná|agregá|cerrá|abrí|hacé|poné|pedí|decí|confirmá|ingresá|buscá|probá|mirá|fijate|guardá|volvé)(?!\p{L})/iu;

describe('Spanish staff texts', () => {
  it('say tú, never vos', () => {
    expect(texts('es').filter(([, text]) => voseoWords.test(text))).toEqual([]);
    expect(voseoWords.test('Armala y registrá los débitos.')).toBe(true);
    expect(voseoWords.test('Ármala, contáctalo y registra los débitos.')).toBe(false);
  });

  it('address the user as tú, never as usted', () => {
    const found = texts('es').filter(
      ([key, text]) => !patientTexts(key) && (ustedWords.test(text) || ustedOpenings.test(text)),
    );
    expect(found).toEqual([]);
  });

  it('the check finds usted forms', () => {
    for (const text of [
      'Déjelo vacío si no corresponde.',
      'Puede corregir el texto.',
      'Su nivel de usuario permite ver.',
    ])
      expect(ustedWords.test(text) || ustedOpenings.test(text), text).toBe(true);
    for (const text of ['Déjalo vacío.', 'Puedes corregir el texto.', 'Cada usuario puede cambiar lo suyo.'])
      expect(ustedWords.test(text) || ustedOpenings.test(text), text).toBe(false);
  });
});

/** Every path of the sidebar as its labels read in `language`: section › link, section › group › link, group › link. */
function menuPaths(language: string): string[] {
  const layout = texts(language).filter(([key]) => key.startsWith('layout:menu.'));
  const label = (key: string) => layout.find(([name]) => name === `layout:menu.${key}`)?.[1] ?? `?${key}`;
  const paths: string[] = [];
  for (const section of menuSections) {
    const sectionLabel = label(`sections.${section.titleKey}`);
    for (const item of section.items) {
      if (!isMenuGroup(item)) paths.push(`${sectionLabel} › ${label(item.labelKey)}`);
      else
        for (const child of item.children) {
          paths.push(`${sectionLabel} › ${label(item.labelKey)} › ${label(child.labelKey)}`);
          paths.push(`${label(item.labelKey)} › ${label(child.labelKey)}`);
        }
    }
  }
  return paths.sort((a, b) => b.length - a.length);
}

describe('help texts that name a menu path', () => {
  it.each([...languages])('name one the sidebar has (%s)', (language) => {
    const paths = menuPaths(language);
    const wrong = texts(language).filter(([, text]) => {
      if (!text.includes('›')) return false;
      return paths.reduce((rest, path) => rest.replaceAll(path, ''), text).includes('›');
    });
    expect(wrong).toEqual([]);
  });
});
