import type { UserLevel } from './enums.ts';

/**
 * What each user level may do, written once (issue 3). The server checks it on every route;
 * the web app hides what a level may not do. docs/permissions.md shows the same table.
 */
/** What every level does: its profile, the patients, their clinical records and the agenda. */
const clinicalWork = [
  'profile.manage',
  'patients.read',
  'patients.write',
  'clinical.write',
  'appointments.write',
  'inventory.read',
] as const;

/** What a supervisor does: every level's work, the stock, the whole commercial area and the reports. */
const supervisedWork = [
  ...clinicalWork,
  'inventory.write',
  'commercial.read',
  'commercial.write',
  'commercial.delete',
  'reports.read',
  // The patient's record as a FHIR bundle and the right of access ZIP (issue 42).
  'patients.export',
] as const;

/**
 * What only an administrator does: the clinic's users, account and settings; `clinic.export`
 * (issue 42): the clinic's full export, every table and file it owns, to take it elsewhere.
 */
const administration = [
  ...supervisedWork,
  'users.manage',
  'account.manage',
  'settings.manage',
  'clinic.export',
  // A patient moving in from another clinic, as a FHIR bundle (issue 42).
  'patients.import',
  // Issue 42: importing another system's data (patients…) into the clinic.
  'data.import',
  // Issue 42: the team's personal API tokens, listed and revoked by the clinic's administrator.
  'tokens.manage',
] as const;

// 'portal.use': the patient portal (issue 37), a customer's own data under /api/portal; no staff level has it.
export const permissionActions = [...administration, 'portal.use'] as const;
export type PermissionAction = (typeof permissionActions)[number];

export const permissionMatrix: Record<UserLevel, ReadonlySet<PermissionAction>> = {
  administrator: new Set(administration),
  supervisor: new Set(supervisedWork),
  user: new Set([...clinicalWork, 'commercial.read', 'commercial.write']),
  customer: new Set(['profile.manage', 'portal.use']),
};

export function can(level: UserLevel, action: PermissionAction): boolean {
  return permissionMatrix[level].has(action);
}

/**
 * What an API token (issue 42) may be given: its creator's actions but the person's own ones
 * (`profile.manage`: password, e-mail, sessions, tokens), the patient portal's (`portal.use`) and
 * the team's tokens (`tokens.manage`: a token never manages tokens).
 * A request with a token needs the route's action in BOTH its level and its scopes.
 */
export const tokenScopeActions = permissionActions.filter(
  (action) => action !== 'profile.manage' && action !== 'portal.use' && action !== 'tokens.manage',
) as readonly PermissionAction[];

/** The scopes a level may give a token: its own actions a token may hold. */
export function grantableScopes(level: UserLevel): PermissionAction[] {
  return tokenScopeActions.filter((action) => can(level, action));
}
