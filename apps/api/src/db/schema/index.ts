/**
 * The Drizzle schema: one file per area (`schema/<area>.ts`), re-exported here.
 * Tenant tables call `enable_tenant_rls('<table>')` in their migration (see migrations/0000).
 */

export * from './access-exports.ts';
export * from './accounts.ts';
export * from './agenda.ts';
export * from './cash-registers.ts';
export * from './clinical.ts';
export * from './commercial.ts';
export * from './documents.ts';
export * from './einvoicing.ts';
export * from './imports.ts';
export * from './integrations.ts';
export * from './inventory.ts';
export * from './lab-cases.ts';
export * from './messages.ts';
export * from './patients.ts';
export * from './payers.ts';
export * from './payment-plans.ts';
export * from './recalls.ts';
export * from './reports.ts';
export * from './settlements.ts';
export * from './signing.ts';
export * from './throttle.ts';
export * from './treatment-plans.ts';
export * from './waiting-list.ts';
export * from './webhooks.ts';
