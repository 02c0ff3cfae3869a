/** The access levels of spec §2 (docs/permissions.md). */
export const userLevels = ['administrator', 'supervisor', 'user', 'customer'] as const;
export type UserLevel = (typeof userLevels)[number];
/**
 * The levels the users page gives. A customer is a patient in the portal (issue 37): only the
 * patient's portal access makes one, tied to that patient (`users.patient_id`).
 */
export const staffLevels = ['administrator', 'supervisor', 'user'] as const;
export type StaffLevel = (typeof staffLevels)[number];
