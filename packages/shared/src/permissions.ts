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
] as const;

/** What only an administrator does: the clinic's users, account and settings. */
const administration = [...supervisedWork, 'users.manage', 'account.manage', 'settings.manage'] as const;

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
