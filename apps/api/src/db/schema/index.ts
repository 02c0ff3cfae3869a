/**
 * The Drizzle schema: one file per area (`schema/<area>.ts`), re-exported here.
 * The platform owns no tables; the accounts issue adds `accounts` and the first tenant tables.
 * Tenant tables call `enable_tenant_rls('<table>')` in their migration (see migrations/0000).
 */
export {};
