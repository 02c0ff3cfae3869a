import type { Currency, Language } from '@odontia/shared/enums';
import type { PortalClinic } from '@odontia/shared/schemas/portal';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { clinicBrand, clinicBrandColumns } from '../../db/clinic-brand.ts';
import { preparedQuery } from '../../db/prepared.ts';
import { accounts, patients } from '../../db/schema/index.ts';
import type { SystemTx, TenantTx } from '../../db/tenancy.ts';

/**
 * Data access of the patient portal (issue 37). The clinic by its public address crosses clinics
 * (system context); everything else runs in the patient's transaction, where row-level security
 * already shows one clinic and one patient (migration 0033).
 */

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
  ...clinicBrandColumns,
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
  brandColor: string | null;
  brandSlug: string;
  hasPublicLogo: boolean;
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
      // The clinic's colour (settings `brandColor`) with its readable shades, and the logo every PDF prints.
      brand: clinicBrand(row),
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

/** Clinics by id, by name (system context: a person's portal clinics, for the choice of clinic). */
export async function findClinicsByIds(tx: SystemTx, ids: string[]): Promise<ClinicBySlug[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select(clinicColumns)
    .from(accounts)
    .where(inArray(accounts.id, ids))
    .orderBy(asc(accounts.clinicName), asc(accounts.id));
  return rows.map(toClinic);
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

interface AppointmentRow extends Record<string, unknown> {
  id: string;
  starts_at: string | Date;
  ends_at: string | Date;
  status: 'scheduled' | 'completed' | 'cancelled' | 'rescheduled';
  professional_id: string;
  professional_name: string;
  treatment_id: string | null;
  treatment_name: string | null;
  reason: string | null;
  confirmed_at: string | Date | null;
}

/** The patient's appointments (not deleted), newest first: `appointments_patient_idx`. */
export async function listOwnAppointments(tx: TenantTx, patientId: string): Promise<AppointmentRow[]> {
  const { rows } = await tx.execute<AppointmentRow>(sql`
    select a.id, a.starts_at, a.ends_at, a.status, a.professional_id, u.complete_name as professional_name,
           a.treatment_id, t.name as treatment_name, a.reason, a.confirmed_at
      from appointments a
      join users u on u.account_id = a.account_id and u.id = a.professional_id
      left join treatments t on t.account_id = a.account_id and t.id = a.treatment_id
     where a.account_id = current_account_id() and a.patient_id = ${patientId}::uuid and a.deleted_at is null
     order by a.starts_at desc, a.id desc`);
  return rows;
}

export interface DocumentRow extends Record<string, unknown> {
  kind: 'prescription' | 'certificate' | 'consent' | 'sale' | 'receipt';
  id: string;
  date: string;
  title: string | null;
  number: string | null;
  amount: string | null;
}

/**
 * What the portal lists as the patient's documents, newest first. The sales and collections are
 * those of the patient's own customer rows (row-level security shows no others); only what is
 * final: issued sales, collections not reversed, certificates not voided, consents with a
 * standing signature. `only` narrows to one document (the download's check).
 */
export async function listOwnDocuments(
  tx: TenantTx,
  patientId: string,
  only?: { kind: DocumentRow['kind']; id: string },
): Promise<DocumentRow[]> {
  const { rows } = await tx.execute<DocumentRow>(sql`
    select * from (
      select 'prescription' as kind, p.id, p.date::text as date, null::text as title, null::text as number, null::text as amount
        from prescriptions p
       where p.account_id = current_account_id() and p.patient_id = ${patientId}::uuid and p.deleted_at is null
      union all
      select 'certificate', c.id, c.date::text, c.kind, null, null
        from health_certificates c
       where c.account_id = current_account_id() and c.patient_id = ${patientId}::uuid and c.deleted_at is null
         and c.voided_at is null
      union all
      select 'consent', a.id, a.date::text, a.title, null, null
        from treatment_authorizations a
       where a.account_id = current_account_id() and a.patient_id = ${patientId}::uuid and a.deleted_at is null
         and exists (select 1 from authorization_signatures s
                      where s.account_id = a.account_id and s.authorization_id = a.id and s.revoked_at is null)
      union all
      select 'sale', d.id, d.date::text, d.document_type, d.document_number, d.total::text
        from commercial_documents d
        join customers k on k.account_id = d.account_id and k.id = d.customer_id
       where d.account_id = current_account_id() and k.patient_id = ${patientId}::uuid and d.side = 'sale'
         and d.status = 'issued' and d.deleted_at is null
      union all
      select 'receipt', m.id, m.date::text, null, m.number, m.amount::text
        from payments m
        join customers k on k.account_id = m.account_id and k.id = m.customer_id
       where m.account_id = current_account_id() and k.patient_id = ${patientId}::uuid and m.side = 'customer'
         and m.reversed_at is null and m.deleted_at is null
    ) d
    ${only ? sql`where d.kind = ${only.kind} and d.id = ${only.id}::uuid` : sql``}
    order by d.date desc, d.kind, d.id`);
  return rows;
}

/** The patient's own customer rows (usually one): their balance is the patient's. */
export async function listOwnCustomerIds(tx: TenantTx, patientId: string): Promise<string[]> {
  const { rows } = await tx.execute<{ id: string }>(sql`
    select id from customers
     where account_id = current_account_id() and patient_id = ${patientId}::uuid and deleted_at is null
     order by created_at, id`);
  return rows.map((row) => row.id);
}

/**
 * The clinic's online booking rules (issue 37) and what the public page and the mails show of it:
 * read by the portal's pages and by the booking itself (features/online-booking).
 */
/** The online booking's rules, read on every booking and every free-slot search: built once (db/prepared.ts). */
const rulesQuery = preparedQuery('online_booking_rules', (db) =>
  (db as TenantTx)
    .select({
      enabled: accounts.onlineBookingEnabled,
      professionalIds: accounts.onlineBookingProfessionalIds,
      leadHours: accounts.onlineBookingLeadHours,
      horizonDays: accounts.onlineBookingHorizonDays,
      maxPending: accounts.onlineBookingMaxPending,
      newPatients: accounts.onlineBookingNewPatients,
      changeHours: accounts.onlineBookingChangeHours,
      // A booking plans its reminder: the same row, the same read.
      remindersEnabled: accounts.remindersEnabled,
      reminderLeadMinutes: accounts.reminderLeadMinutes,
      reminderChannels: accounts.reminderChannels,
      timeZone: accounts.timeZone,
      defaultLanguage: accounts.defaultLanguage,
      clinicName: accounts.clinicName,
      tradeName: accounts.tradeName,
      address: accounts.address,
      phone: accounts.phone,
      website: accounts.website,
      version: accounts.version,
    })
    .from(accounts)
    .where(eq(accounts.id, sql.placeholder('accountId'))),
);

export async function findRules({ tx, accountId }: { readonly tx: TenantTx; readonly accountId: string }) {
  const [row] = await rulesQuery(tx, { accountId });
  if (!row) throw new Error(`clinic ${accountId} not found`);
  return row;
}
export type Rules = Awaited<ReturnType<typeof findRules>>;
