import { languages } from '@odontia/shared';
import { describe, expect, it } from 'vitest';
import { arcaMessageKeys } from '../../../../api/src/features/sales/einvoicing/arca/arca-codes.ts';
import { verifactuMessageKeys } from '../../../../api/src/features/sales/einvoicing/verifactu/messages.ts';
import en from '../../locales/en/sales.json';
import es from '../../locales/es/sales.json';
import fr from '../../locales/fr/sales.json';
import pt from '../../locales/pt/sales.json';

/*
 * The sale's e-invoice card shows the authority's observations by the key the server gives them
 * (`sales:einvoiceMessages.<key>`, a dotted key read as nested, as i18next does): every key of the
 * server's maps needs its text in every language, and the catalogs keep no text no key uses.
 */

type Catalog = Record<string, unknown>;

const catalogs: Record<string, Catalog> = { es, en, fr, pt };

/** Keys the server sets outside the code maps: the sender's `lastError` when the authority did not answer, and the fallback. */
const otherKeys = ['authority_unreachable', 'unknown'];

const serverKeys = [
  ...new Set([...Object.values(arcaMessageKeys), ...Object.values(verifactuMessageKeys)].map(({ key }) => key)),
].sort();

const messagesOf = (language: string) => (catalogs[language]?.einvoiceMessages ?? {}) as Catalog;

/** The text at a dotted key, as i18next reads it (`verifactu.nifNotIdentified` → `verifactu: { nifNotIdentified }`). */
const read = (catalog: Catalog, key: string): unknown =>
  key.split('.').reduce<unknown>((node, part) => (node as Catalog | undefined)?.[part], catalog);

/** Every leaf key of a catalog, dotted. */
const leafKeys = (value: unknown, prefix = ''): string[] =>
  value && typeof value === 'object'
    ? Object.entries(value).flatMap(([key, child]) => leafKeys(child, prefix ? `${prefix}.${key}` : key))
    : [prefix];

describe('e-invoice message texts', () => {
  it('the server maps have keys', () => {
    expect(serverKeys.length).toBeGreaterThan(40);
    expect(serverKeys).toContain('number_or_date_not_next');
    expect(serverKeys).toContain('verifactu.nifNotIdentified');
  });

  it.each([...languages])('cover every key of the ARCA and Verifactu maps (%s)', (language) => {
    const messages = messagesOf(language);
    const missing = [...serverKeys, ...otherKeys].filter((key) => {
      const text = read(messages, key);
      return typeof text !== 'string' || text.trim() === '';
    });
    expect(missing).toEqual([]);
  });

  it.each([...languages])('have no key the server does not use (%s)', (language) => {
    const used = new Set([...serverKeys, ...otherKeys]);
    expect(leafKeys(messagesOf(language)).filter((key) => !used.has(key))).toEqual([]);
  });

  it.each([...languages])('are short: at most 180 characters (%s)', (language) => {
    const messages = messagesOf(language);
    const long = leafKeys(messages).filter((key) => String(read(messages, key)).length > 180);
    expect(long).toEqual([]);
  });
});
