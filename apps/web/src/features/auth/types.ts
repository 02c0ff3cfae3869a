import type { Currency, Language, UserLevel } from '@odontia/shared';

/**
 * The signed-in user as `GET /api/auth/system/me` answers it (filled by the sign-in issue) and as
 * it is stored, JSON, under the obfuscated `user` key.
 */
export interface SessionUser {
  id: string;
  completeName: string;
  email: string;
  level: UserLevel;
  account: { clinicName: string; plan: string };
  settings: { systemLanguage: Language; dateFormat: string; systemCurrency: Currency };
}
