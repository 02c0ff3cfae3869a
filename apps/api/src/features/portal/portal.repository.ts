import type { Currency, Language } from '@odontia/shared/enums';
import type { PortalClinic } from '@odontia/shared/schemas/portal';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { accounts, clinicLogos, patients } from '../../db/schema/index.ts';
import type { SystemTx, TenantTx } from '../../db/tenancy.ts';

/**
 * Data access of the patient portal (issue 37). The clinic by its public address crosses clinics
 * (system context); everything else runs in the patient's transaction, where row-level security
 * already shows one clinic and one patient (migration 0033).
 */

/** The portal's default cancellation window while the clinic has no setting of its own (online booking). */
export const defaultCancellationWindowHours = 24;

const clinicColumns = {
  id: accounts.id,
  name: accounts.clinicName,
  slug: accounts.publicSlug,
  address: accounts.address,
  phone: accounts.phone,
  timeZone: accounts.timeZone,
  language: accounts.defaultLanguage,
  currency: accounts.systemCurrency,
  paymentInstructions: accounts.portalPaymentInstructions,
  hasLogo: sql<boolean>`exists (select 1 from ${clinicLogos} where ${clinicLogos.accountId} = ${accounts.id})`,
};

export interface ClinicBySlug {
  id: string;
  clinic: PortalClinic;
  paymentInstructions: string | null;
}

function toClinic(row: {
  id: string;
  name: string;
  slug: string;
  address: string | null;
  phone: string | null;
  timeZone: string;
  language: string;
  currency: string;
  paymentInstructions: string | null;
  hasLogo: boolean;
}): ClinicBySlug {
  return {
    id: row.id,
    clinic: {
      name: row.name,
      slug: row.slug,
      address: row.address,
      phone: row.phone,
      timeZone: row.timeZone,
      language: row.language as Language,
      currency: row.currency as Currency,
      // No brand colour is kept yet: the portal uses its own; the logo is the one every PDF prints.
      brand: { color: null, logoPath: row.hasLogo ? `/public/clinics/${row.slug}/logo` : null },
    },
    paymentInstructions: row.paymentInstructions,
  };
}

/**
 * The clinic of a public address, shared by every portal flow (system context: no clinic is
 * known yet). Only an activated clinic has a portal; undefined otherwise.
 */
export async function findClinicBySlug(tx: SystemTx, slug: string): Promise<ClinicBySlug | undefined> {
  const [row] = await tx
    .select(clinicColumns)
    .from(accounts)
    .where(and(eq(accounts.publicSlug, slug.toLowerCase()), sql`${accounts.activatedAt} is not null`))
    .limit(1);
  return row ? toClinic(row) : undefined;
}

/** The signed-in patient's clinic (their transaction sees that clinic's row only). */
export async function findOwnClinic(tx: TenantTx, accountId: string): Promise<ClinicBySlug | undefined> {
  const [row] = await tx.select(clinicColumns).from(accounts).where(eq(accounts.id, accountId)).limit(1);
  return row ? toClinic(row) : undefined;
}

/** The signed-in patient (RLS: the only patient row this transaction sees), unless deleted. */
export async function findOwnPatient(tx: TenantTx, patientId: string) {
  const [row] = await tx
    .select({
      id: patients.id,
      firstName: patients.firstName,
      lastName: patients.lastName,
      language: patients.language,
    })
    .from(patients)
    .where(and(eq(patients.id, patientId), isNull(patients.deletedAt)))
    .limit(1);
  return row;
}
