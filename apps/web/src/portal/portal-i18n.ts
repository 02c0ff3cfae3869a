import type { I18nStart } from '../lib/i18n';

/**
 * The portal's catalogs: its own texts (`locales/<language>/portal.json`, usted to the patient) and
 * the server's codes a visitor meets (`messages`); none of the staff app's.
 */
export const portalStart: I18nStart = { ns: ['portal', 'messages'], defaultNS: 'portal', fallbackNS: false };
