import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ErrorCode } from '@odontia/shared/errors';
import { type Language, languages } from '@odontia/shared/languages';

/**
 * The English text of each message code, from the shared catalog the web app translates.
 * The API answers it as `message` for API clients and logs; the UI shows its own translation.
 */
const require = createRequire(import.meta.url);
const catalog = (language: Language, name: string) =>
  JSON.parse(readFileSync(require.resolve(`@odontia/shared/locales/${language}/${name}.json`), 'utf8')) as Record<
    string,
    string
  >;
/** The catalog is in two files (what a signed-out visitor may meet, and the rest): one table here. */
const englishMessages = { ...catalog('en', 'messages'), ...catalog('en', 'appMessages') };

export function messageOf(code: ErrorCode): string {
  return englishMessages[code] ?? code;
}

const validationCatalogs = new Map<Language, Record<string, string>>();

/**
 * A field code's text in a clinic's language (the web's `validation` catalog), for what the server
 * writes for people to read (an import's refused rows); an unknown code reads as "invalid value".
 */
export function fieldCodeText(code: string, language: Language): string {
  let texts = validationCatalogs.get(language);
  if (!texts) {
    texts = catalog(languages.includes(language) ? language : 'es', 'validation');
    validationCatalogs.set(language, texts);
  }
  return texts[code] ?? texts.invalid_value ?? code;
}
