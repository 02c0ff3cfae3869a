/** The access levels of spec §2 (docs/permissions.md). */
export const userLevels = ['administrator', 'supervisor', 'user', 'customer'] as const;
export type UserLevel = (typeof userLevels)[number];
