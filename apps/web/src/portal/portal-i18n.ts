import type { I18nStart } from '../lib/i18n';

/**
 * The portal's catalogs: its own texts (`locales/<language>/portal.json`, usted to the patient),
 * the server's codes a visitor meets (`messages`) and the field codes (`validation`); none of the
 * staff app's.
 */
export const portalStart: I18nStart = {
  ns: ['portal', 'messages', 'validation'],
  defaultNS: 'portal',
  fallbackNS: false,
};
