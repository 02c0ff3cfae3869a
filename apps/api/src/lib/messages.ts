import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ErrorCode } from '@odontia/shared/errors';

/**
 * The English text of each message code, from the shared catalog the web app translates.
 * The API answers it as `message` for API clients and logs; the UI shows its own translation.
 */
const require = createRequire(import.meta.url);
const englishCatalog = (name: string) =>
  JSON.parse(readFileSync(require.resolve(`@odontia/shared/locales/en/${name}.json`), 'utf8')) as Record<
    string,
    string
  >;
/** The catalog is in two files (what a signed-out visitor may meet, and the rest): one table here. */
const englishMessages = { ...englishCatalog('messages'), ...englishCatalog('appMessages') };

export function messageOf(code: ErrorCode): string {
  return englishMessages[code] ?? code;
}
