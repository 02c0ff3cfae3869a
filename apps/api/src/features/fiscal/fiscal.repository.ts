import type { TaxIdKind } from '@odontia/shared/tax-ids';
import { asc, eq, sql } from 'drizzle-orm';
import { recordRepository } from '../../db/records.ts';
import { accounts, clinicLogos, pointsOfSale } from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';

/** The clinic's fiscal data (columns of `accounts`), its logo and its points of sale (issue 17; tenant context). */

interface Scope {
  readonly tx: TenantTx;
  readonly accountId: string;
}

/** The editable fiscal columns, as the form sends them (address and phone are the reminders' too). */
export interface FiscalColumns {
  legalName: string | null;
  tradeName: string | null;
  country: string | null;
  taxIdKind: TaxIdKind | null;
  taxId: string | null;
  fiscalCondition: string | null;
  address: string | null;
  city: string | null;
  province: string | null;
  postalCode: string | null;
  phone: string | null;
  phoneMobile: string | null;
  email: string | null;
  website: string | null;
}

export const fiscalColumnNames = [
  'legalName',
  'tradeName',
  'country',
  'taxIdKind',
  'taxId',
  'fiscalCondition',
  'address',
  'city',
  'province',
  'postalCode',
  'phone',
  'phoneMobile',
  'email',
  'website',
] as const satisfies readonly (keyof FiscalColumns)[];

/** The clinic's row with its logo's hash; locked for an edit when `lock`. */
export async function findFiscalData({ tx, accountId }: Scope, { lock = false } = {}) {
  const query = tx
    .select({
      clinicName: accounts.clinicName,
      legalName: accounts.legalName,
      tradeName: accounts.tradeName,
      country: accounts.country,
      taxIdKind: accounts.taxIdKind,
      taxId: accounts.taxId,
      fiscalCondition: accounts.fiscalCondition,
      address: accounts.address,
      city: accounts.city,
      province: accounts.province,
      postalCode: accounts.postalCode,
      phone: accounts.phone,
      phoneMobile: accounts.phoneMobile,
      email: accounts.email,
      website: accounts.website,
      currency: accounts.systemCurrency,
      logoSha256: sql<
        string | null
      >`(select ${clinicLogos.sha256} from ${clinicLogos} where ${clinicLogos.accountId} = ${accounts.id})`,
      updatedAt: accounts.updatedAt,
      version: accounts.version,
    })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  const [row] = lock ? await query.for('update', { of: accounts }) : await query;
  if (!row) throw new Error(`clinic ${accountId} not found`);
  return row;
}
export type FiscalRow = Awaited<ReturnType<typeof findFiscalData>>;

/** Writes the fiscal columns: a new version of the clinic's data. */
export async function updateFiscalData({ tx, accountId }: Scope, values: FiscalColumns): Promise<void> {
  await tx
    .update(accounts)
    .set({ ...values, updatedAt: new Date(), version: sql`${accounts.version} + 1` })
    .where(eq(accounts.id, accountId));
}

/** The logo (bytes and hash), or undefined. */
export async function findLogo({ tx, accountId }: Scope) {
  const [row] = await tx.select().from(clinicLogos).where(eq(clinicLogos.accountId, accountId));
  return row;
}

/** Puts the clinic's logo (one per clinic: the previous one is replaced). */
export async function saveLogo(
  { tx, accountId, userId }: Scope & { userId: string },
  logo: { bytes: Buffer; sha256: string; width: number; height: number },
): Promise<void> {
  const values = { contentType: 'image/png', ...logo, updatedAt: new Date(), updatedBy: userId };
  await tx
    .insert(clinicLogos)
    .values({ accountId, ...values })
    .onConflictDoUpdate({ target: clinicLogos.accountId, set: values });
}

export async function deleteLogo({ tx, accountId }: Scope): Promise<void> {
  await tx.delete(clinicLogos).where(eq(clinicLogos.accountId, accountId));
}

export const pointsOfSaleRepository = recordRepository({
  table: pointsOfSale,
  scope: [],
  order: [asc(pointsOfSale.code), asc(pointsOfSale.id)],
});

/**
 * The clinic's live point of sale with this code: the 409's details of a taken code, the issue's
 * and the numbering settings' check that it is active.
 */
export async function findPointOfSaleByCode({ tx, accountId }: Scope, code: string) {
  const [row] = await tx
    .select({ id: pointsOfSale.id, code: pointsOfSale.code, name: pointsOfSale.name, active: pointsOfSale.active })
    .from(pointsOfSale)
    .where(
      sql`${pointsOfSale.accountId} = ${accountId} and ${pointsOfSale.code} = ${code} and ${pointsOfSale.deletedAt} is null`,
    );
  return row;
}
