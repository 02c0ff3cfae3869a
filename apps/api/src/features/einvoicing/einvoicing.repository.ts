import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { TxContext as Scope } from '../../context.ts';
import type { CertificateInfo } from '../../db/schema/einvoicing.ts';
import { accounts, einvoiceSeries, einvoiceSettings, einvoiceTickets, pointsOfSale } from '../../db/schema/index.ts';

/** The SQL of the e-invoicing settings (issue 39). */

export async function findSettings({ tx, accountId }: Scope, { lock = false } = {}) {
  const query = tx.select().from(einvoiceSettings).where(eq(einvoiceSettings.accountId, accountId));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

/** The row, made with the defaults (local, homologation) the first time; locked for an edit. */
export async function lockSettings(scope: Scope) {
  await scope.tx.insert(einvoiceSettings).values({ accountId: scope.accountId }).onConflictDoNothing();
  return (await findSettings(scope, { lock: true })) as NonNullable<Awaited<ReturnType<typeof findSettings>>>;
}

export async function writeSettings(
  { tx, accountId, userId }: Scope & { userId: string | null },
  values: Partial<{
    regime: 'local' | 'arca' | 'verifactu';
    environment: 'homologation' | 'production';
    certificateSealed: string | null;
    privateKeySealed: string | null;
    certificateInfo: CertificateInfo | null;
  }>,
) {
  await tx
    .update(einvoiceSettings)
    .set({ ...values, updatedAt: new Date(), updatedBy: userId, version: sql`${einvoiceSettings.version} + 1` })
    .where(eq(einvoiceSettings.accountId, accountId));
}

/** Tickets belong to a certificate: a new one (or none) drops them. */
export async function dropTickets({ tx, accountId }: Scope) {
  await tx.delete(einvoiceTickets).where(eq(einvoiceTickets.accountId, accountId));
}

export async function clinicFiscal({ tx, accountId }: Scope) {
  const [row] = await tx
    .select({
      country: accounts.country,
      taxIdKind: accounts.taxIdKind,
      taxId: accounts.taxId,
      fiscalCondition: accounts.fiscalCondition,
      legalName: accounts.legalName,
      clinicName: accounts.clinicName,
    })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  return row;
}

export async function livePointsOfSale({ tx, accountId }: Scope) {
  return tx
    .select({
      code: pointsOfSale.code,
      name: pointsOfSale.name,
      active: pointsOfSale.active,
      authorityNumber: pointsOfSale.authorityNumber,
    })
    .from(pointsOfSale)
    .where(and(eq(pointsOfSale.accountId, accountId), isNull(pointsOfSale.deletedAt)))
    .orderBy(asc(pointsOfSale.code));
}

export async function setAuthorityNumber({ tx, accountId }: Scope, code: string, authorityNumber: number | null) {
  const updated = await tx
    .update(pointsOfSale)
    .set({ authorityNumber })
    .where(and(eq(pointsOfSale.accountId, accountId), eq(pointsOfSale.code, code), isNull(pointsOfSale.deletedAt)))
    .returning({ code: pointsOfSale.code });
  return updated.length > 0;
}

export async function seriesOf({ tx, accountId }: Scope) {
  return tx
    .select()
    .from(einvoiceSeries)
    .where(eq(einvoiceSeries.accountId, accountId))
    .orderBy(asc(einvoiceSeries.series));
}

export async function queueCounts({ tx, accountId }: Scope) {
  const { rows } = await tx.execute<{ status: string; count: number }>(sql`
    select status, count(*)::int as count from einvoice_submissions
    where account_id = ${accountId}::uuid and status in ('pending', 'sending', 'rejected', 'contingency')
    group by status`);
  const counts = { pending: 0, sending: 0, rejected: 0, contingency: 0 };
  for (const row of rows) counts[row.status as keyof typeof counts] = Number(row.count);
  return counts;
}
