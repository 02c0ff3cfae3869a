import type { PartySnapshot } from '@odontia/shared/schemas/clinic-fiscal';
import { eq, sql } from 'drizzle-orm';
import type { ClinicPrintHeader } from '../lib/pdf.ts';
import { accounts, clinicLogos } from './schema/index.ts';
import type { TenantTx } from './tenancy.ts';

/** The clinic's names and fiscal data as a select reads them: for its printed header and its party snapshot. */
export const clinicFiscalColumns = {
  clinicName: accounts.clinicName,
  legalName: accounts.legalName,
  tradeName: accounts.tradeName,
  taxIdKind: accounts.taxIdKind,
  taxId: accounts.taxId,
  fiscalCondition: accounts.fiscalCondition,
  address: accounts.address,
  city: accounts.city,
  phone: accounts.phone,
  email: accounts.email,
};

/** The clinic as a party of its papers: its trade name (else its name) and fiscal data. */
export function clinicParty(
  row: Omit<PartySnapshot, 'name'> & { clinicName: string; tradeName: string | null },
): PartySnapshot {
  return {
    name: row.tradeName ?? row.clinicName,
    legalName: row.legalName,
    taxIdKind: row.taxIdKind,
    taxId: row.taxId,
    fiscalCondition: row.fiscalCondition,
    address: row.address,
    city: row.city,
    phone: row.phone,
    email: row.email,
  };
}

/**
 * The clinic's header of every printed document (issue 17): read in the request's transaction,
 * rendered after it by `clinicHeader` (lib/pdf.ts) in the document's language. The logo travels
 * as a data URL, the only image source pdfmake is allowed (it may fetch nothing).
 */
export async function loadPrintHeader(ctx: { tx: TenantTx; accountId: string }): Promise<ClinicPrintHeader> {
  const [row] = await ctx.tx
    .select({
      ...clinicFiscalColumns,
      contact: accounts.contact,
      logoType: clinicLogos.contentType,
      logo: clinicLogos.bytes,
    })
    .from(accounts)
    .leftJoin(clinicLogos, eq(clinicLogos.accountId, accounts.id))
    .where(eq(accounts.id, ctx.accountId));
  if (!row) throw new Error(`clinic ${ctx.accountId} not found`);
  return {
    ...clinicParty(row),
    contact: row.contact,
    logo: row.logo ? `data:${row.logoType ?? 'image/png'};base64,${Buffer.from(row.logo).toString('base64')}` : null,
  };
}

/** The clinic's name and contact for a printed header, and the reader's language. */
export async function readerOf(ctx: { tx: TenantTx; accountId: string; userId: string }) {
  const { rows } = await ctx.tx.execute<{ clinic_name: string; contact: string | null; language: string | null }>(sql`
    select a.clinic_name, a.contact,
      (select u.system_language from users u where u.account_id = ${ctx.accountId}::uuid and u.id = ${ctx.userId}::uuid) as language
    from accounts a where a.id = ${ctx.accountId}::uuid`);
  const row = rows[0];
  return {
    clinicName: row?.clinic_name ?? '',
    clinicContact: row?.contact ?? '',
    readerLanguage: row?.language ?? null,
  };
}
