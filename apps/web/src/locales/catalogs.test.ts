import { errorCodes, fieldCodes, languages, successCodes } from '@odontia/shared';
import { tokenScopeActions } from '@odontia/shared/permissions';
import { describe, expect, it } from 'vitest';

type Catalog = Record<string, unknown>;

const appCatalogs = import.meta.glob<Catalog>('./*/*.json', { eager: true, import: 'default' });
const sharedCatalogs = import.meta.glob<Catalog>('../../../../packages/shared/src/locales/*/*.json', {
  eager: true,
  import: 'default',
});

/** `{ language: { namespace: catalog } }` of one locale folder. */
function byLanguage(files: Record<string, Catalog>): Record<string, Record<string, Catalog>> {
  const result: Record<string, Record<string, Catalog>> = {};
  for (const [path, catalog] of Object.entries(files)) {
    const match = /\/([a-z]{2})\/([\w-]+)\.json$/.exec(path);
    if (!match?.[1] || !match[2]) throw new Error(`Unexpected catalog path ${path}`);
    result[match[1]] ??= {};
    (result[match[1]] as Record<string, Catalog>)[match[2]] = catalog;
  }
  return result;
}

/** Every leaf key, dotted; a leaf must be a non-empty string. */
function leafKeys(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') {
    if (value.trim() === '') throw new Error(`Empty translation at ${prefix}`);
    return [prefix];
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error(`Bad value at ${prefix}`);
  return Object.entries(value).flatMap(([key, child]) => leafKeys(child, prefix ? `${prefix}.${key}` : key));
}

const folders = {
  'apps/web/src/locales': byLanguage(appCatalogs),
  'packages/shared/src/locales': byLanguage(sharedCatalogs),
};

describe.each(Object.entries(folders))('catalogs in %s', (_folder, catalogs) => {
  it('exist for exactly the four languages', () => {
    expect(Object.keys(catalogs).sort()).toEqual([...languages].sort());
  });

  const reference = catalogs.es ?? {};
  it('have the same namespaces in every language', () => {
    for (const language of languages) {
      expect(Object.keys(catalogs[language] ?? {}).sort(), language).toEqual(Object.keys(reference).sort());
    }
  });

  it.each(Object.keys(reference))('namespace %s has the same keys in every language', (namespace) => {
    const expected = leafKeys(reference[namespace]).sort();
    for (const language of languages) {
      expect(leafKeys(catalogs[language]?.[namespace]).sort(), `${language}/${namespace}`).toEqual(expected);
    }
  });

  it('keep interpolation placeholders in every language', () => {
    for (const [namespace, catalog] of Object.entries(reference)) {
      for (const key of leafKeys(catalog)) {
        const read = (language: string) =>
          key.split('.').reduce<unknown>((node, part) => (node as Catalog)?.[part], catalogs[language]?.[namespace]);
        const placeholders = (text: unknown) =>
          String(text)
            .match(/\{\{\s*\w+\s*\}\}/g)
            ?.sort() ?? [];
        for (const language of languages) {
          expect(placeholders(read(language)), `${language}/${namespace}:${key}`).toEqual(placeholders(read('es')));
        }
      }
    }
  });
});

describe('shared catalogs', () => {
  const shared = folders['packages/shared/src/locales'];

  it('messages.json and appMessages.json are flat, apart, and cover every error and success code plus the generic messages', () => {
    const required = [...errorCodes, ...successCodes, 'systemError', 'networkError', 'tryAgain', 'contactSupport'];
    for (const language of languages) {
      const publicMessages = shared[language]?.messages ?? {};
      const appMessages = shared[language]?.appMessages ?? {};
      const both = Object.keys(publicMessages).filter((code) => code in appMessages);
      expect(both, `${language}: codes in both messages.json and appMessages.json`).toEqual([]);
      const messages = { ...publicMessages, ...appMessages };
      for (const value of Object.values(messages)) expect(typeof value).toBe('string');
      const missing = required.filter((code) => typeof messages[code] !== 'string');
      expect(missing, `${language}/messages.json + appMessages.json`).toEqual([]);
    }
  });

  it('keeps in messages.json what a signed-out visitor can meet (the sign-in page loads only it)', () => {
    const messages = shared.es?.messages ?? {};
    for (const code of ['invalid_credentials', 'too_many_requests', 'account_not_activated', 'appointment_link_stale'])
      expect(typeof messages[code], code).toBe('string');
    expect(Object.keys(messages).length).toBeLessThan(80);
  });

  it('validation.json covers every field code', () => {
    for (const language of languages) {
      const validation = shared[language]?.validation ?? {};
      const missing = fieldCodes.filter((code) => typeof validation[code] !== 'string');
      expect(missing, `${language}/validation.json`).toEqual([]);
    }
  });

  it('has the spec texts', () => {
    expect(shared.es?.validation?.required).toBe('Este campo es obligatorio');
    expect(shared.en?.validation?.required).toBe('This field is required');
    expect(shared.en?.validation?.passwords_must_match).toBe('Passwords must match');
    expect(shared.en?.validation?.fill_required_fields).toBe('Please fill in all required fields');
    expect(shared.en?.validation?.promotional_code_required).toBe('Please enter the promotional code');
  });
});

describe('API token scopes', () => {
  // The token form lists every scope a level may grant by its label: a new action needs its words.
  it.each(languages)('each has its label in %s', (language) => {
    const scopes = (byLanguage(appCatalogs)[language]?.apiTokens?.scopes ?? {}) as Record<string, string>;
    expect(tokenScopeActions.filter((scope) => !scopes[scope.replace('.', '_')])).toEqual([]);
  });
});
