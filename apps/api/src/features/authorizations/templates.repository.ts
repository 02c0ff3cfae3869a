import type { TemplateKind } from '@odontia/shared/schemas/authorizations';
import { and, asc, eq, ilike, type SQL } from 'drizzle-orm';
import { recordRepository } from '../../db/records.ts';
import { authorizationTemplates } from '../../db/schema/index.ts';
import { spanishKey } from '../../db/spanish-order.ts';
import type { SystemTx, TenantTx } from '../../db/tenancy.ts';

/** The clinic's templates, consent and certificate ones (tenant context), by title. Deleted ones never come out. */
export const templatesRepository = recordRepository({
  table: authorizationTemplates,
  scope: [],
  order: [asc(spanishKey(authorizationTemplates.title)), asc(authorizationTemplates.id)],
});

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (match) => `\\${match}`);

/** The list's filters: the kind, a piece of the title, active or not. */
export function templatesFilter(query: {
  kind?: TemplateKind | undefined;
  q?: string | undefined;
  active?: boolean | undefined;
}): SQL | undefined {
  return and(
    query.kind ? eq(authorizationTemplates.kind, query.kind) : undefined,
    query.q ? ilike(authorizationTemplates.title, `%${escapeLike(query.q)}%`) : undefined,
    query.active === undefined ? undefined : eq(authorizationTemplates.active, query.active),
  );
}

/** Inserts templates; the system context writes a new clinic's default ones at sign-up. */
export async function insertTemplates(
  tx: TenantTx | SystemTx,
  rows: (typeof authorizationTemplates.$inferInsert)[],
): Promise<void> {
  if (rows.length > 0) await tx.insert(authorizationTemplates).values(rows);
}
