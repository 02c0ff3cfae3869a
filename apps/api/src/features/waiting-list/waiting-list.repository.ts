import type { WaitingListQuery } from '@odontia/shared/schemas/waiting-list';
import { and, asc, desc, eq, gt, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TxContext } from '../../context.ts';
import { clinicBrandColumns } from '../../db/clinic-brand.ts';
import { countRows } from '../../db/list-query.ts';
import { recordRepository, sameClinicRow } from '../../db/records.ts';
import { accounts, patients, treatments, users, waitingListEntries, waitingListOffers } from '../../db/schema/index.ts';
import type { SystemTx } from '../../db/tenancy.ts';
import { patientContactColumns } from '../patients/patient-contact.ts';

/** SQL of the waiting list (issue 38). Tenant context unless said. */

export const entriesRepository = recordRepository({
  table: waitingListEntries,
  scope: [],
  order: [desc(waitingListEntries.priority), asc(waitingListEntries.createdAt), asc(waitingListEntries.id)],
});

const professional = alias(users, 'waiting_professional');
const creator = alias(users, 'waiting_creator');
const updater = alias(users, 'waiting_updater');

const lastOfferStatus = sql<string | null>`(
  select o.status from ${waitingListOffers} o
  where o.account_id = ${waitingListEntries.accountId} and o.entry_id = ${waitingListEntries.id}
  order by o.created_at desc limit 1)`;

/** Entries with their patient, treatment and people, as the list and the record answer them. */
function selectNamed(ctx: TxContext) {
  return ctx.tx
    .select({
      row: waitingListEntries,
      ...patientContactColumns,
      treatmentName: treatments.name,
      durationMinutes: treatments.durationMinutes,
      professionalName: professional.completeName,
      createdByName: creator.completeName,
      updatedByName: updater.completeName,
      lastOfferStatus,
    })
    .from(waitingListEntries)
    .innerJoin(patients, sameClinicRow(patients, waitingListEntries, waitingListEntries.patientId))
    .innerJoin(treatments, sameClinicRow(treatments, waitingListEntries, waitingListEntries.treatmentId))
    .leftJoin(professional, sameClinicRow(professional, waitingListEntries, waitingListEntries.professionalId))
    .leftJoin(creator, sameClinicRow(creator, waitingListEntries, waitingListEntries.createdBy))
    .leftJoin(updater, sameClinicRow(updater, waitingListEntries, waitingListEntries.updatedBy));
}
export type NamedEntry = Awaited<ReturnType<ReturnType<typeof selectNamed>['execute']>>[number];

const live = (accountId: string) =>
  and(eq(waitingListEntries.accountId, accountId), isNull(waitingListEntries.deletedAt));

export async function findNamed(ctx: TxContext, id: string): Promise<NamedEntry | undefined> {
  const [row] = await selectNamed(ctx).where(and(live(ctx.accountId), eq(waitingListEntries.id, id)));
  return row;
}

/** A page in the list's order (the index's: status, priority, arrival), filtered. */
export async function page(ctx: TxContext, query: WaitingListQuery) {
  const where = and(
    live(ctx.accountId),
    eq(waitingListEntries.status, query.status),
    query.professionalId ? eq(waitingListEntries.professionalId, query.professionalId) : undefined,
    query.treatmentId ? eq(waitingListEntries.treatmentId, query.treatmentId) : undefined,
    query.patientId ? eq(waitingListEntries.patientId, query.patientId) : undefined,
  ) as SQL;
  const order =
    query.sort === 'priority'
      ? [desc(waitingListEntries.priority), asc(waitingListEntries.createdAt), asc(waitingListEntries.id)]
      : [asc(waitingListEntries.createdAt), asc(waitingListEntries.id)];
  const rows = await selectNamed(ctx)
    .where(where)
    .orderBy(...order)
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return { rows, total: await countRows(ctx.tx, waitingListEntries, where) };
}

/**
 * The waiting entries a freed slot of `professionalId` may suit, in order (priority, arrival):
 * a treatment no longer than the slot, that professional or any, not past their day, and no
 * offer still open nor of this time already, an e-mail to write to. Locked (SKIP LOCKED: an entry another transaction is offering waits its turn).
 */
export function candidates(
  ctx: TxContext,
  slot: {
    professionalId: string;
    maxMinutes: number;
    day: string;
    now: Date;
    limit: number;
    range: { start: Date; end: Date };
  },
) {
  return ctx.tx
    .select({ entry: waitingListEntries, durationMinutes: treatments.durationMinutes })
    .from(waitingListEntries)
    .innerJoin(treatments, sameClinicRow(treatments, waitingListEntries, waitingListEntries.treatmentId))
    .innerJoin(patients, sameClinicRow(patients, waitingListEntries, waitingListEntries.patientId))
    .where(
      and(
        live(ctx.accountId),
        eq(waitingListEntries.status, 'waiting'),
        or(isNull(waitingListEntries.professionalId), eq(waitingListEntries.professionalId, slot.professionalId)),
        or(isNull(waitingListEntries.until), sql`${waitingListEntries.until} >= ${slot.day}::date`),
        sql`${treatments.durationMinutes} <= ${slot.maxMinutes}`,
        sql`not exists (select 1 from ${waitingListOffers} o where o.account_id = ${waitingListEntries.accountId}
          and o.entry_id = ${waitingListEntries.id} and o.status in ('offered', 'sent') and o.expires_at > ${slot.now})`,
        // Offered this time already (expired, gone): the next entries get their turn.
        sql`not exists (select 1 from ${waitingListOffers} o where o.account_id = ${waitingListEntries.accountId}
          and o.entry_id = ${waitingListEntries.id} and o.professional_id = ${slot.professionalId}::uuid
          and o.starts_at < ${slot.range.end} and o.ends_at > ${slot.range.start})`,
        // An offer goes by e-mail, or by SMS or WhatsApp to a patient who said yes to one (issue 38);
        // a patient reached by none is called by the front desk. No offer to a deceased or inactive patient.
        sql`(coalesce(${patients.email}, '') <> '' or ${mobileConsented})`,
        eq(patients.active, true),
        isNull(patients.deceasedOn),
        isNull(patients.deletedAt),
      ),
    )
    .orderBy(desc(waitingListEntries.priority), asc(waitingListEntries.createdAt), asc(waitingListEntries.id))
    .limit(slot.limit)
    .for('no key update', { of: waitingListEntries, skipLocked: true });
}

/** The patient's newest answer for SMS or WhatsApp is a yes, and the record has a number. */
const mobileConsented = sql`(coalesce(${patients.phone}, '') <> '' and exists (
  select 1 from (
    select distinct on (c.channel) c.granted from patient_channel_consents c
    where c.account_id = ${patients.accountId} and c.patient_id = ${patients.id} and c.channel in ('sms', 'whatsapp')
    order by c.channel, c.recorded_at desc
  ) newest where newest.granted))`;

/** The clinic's waiting-list settings. */
export async function settingsOf({ tx, accountId }: TxContext) {
  const [row] = await tx
    .select({
      holdMinutes: accounts.waitingListHoldMinutes,
      offersPerSlot: accounts.waitingListOffersPerSlot,
      timeZone: accounts.timeZone,
    })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  if (!row) throw new Error(`clinic ${accountId} not found`);
  return row;
}

// ———————————————————————————————————————————— offers

export async function insertOffer(
  { tx, accountId }: TxContext,
  row: Omit<typeof waitingListOffers.$inferInsert, 'accountId'>,
): Promise<void> {
  await tx.insert(waitingListOffers).values({ ...row, accountId });
}

const offerCreator = alias(users, 'offer_creator');
const offerProfessional = alias(users, 'offer_professional');

/** An entry's offers, newest first (bounded: an entry is offered a slot at a time). */
export function offersOf(ctx: TxContext, entryId: string) {
  return ctx.tx
    .select({
      offer: waitingListOffers,
      professionalName: offerProfessional.completeName,
      createdByName: offerCreator.completeName,
    })
    .from(waitingListOffers)
    .innerJoin(offerProfessional, sameClinicRow(offerProfessional, waitingListOffers, waitingListOffers.professionalId))
    .leftJoin(offerCreator, sameClinicRow(offerCreator, waitingListOffers, waitingListOffers.createdBy))
    .where(and(eq(waitingListOffers.accountId, ctx.accountId), eq(waitingListOffers.entryId, entryId)))
    .orderBy(desc(waitingListOffers.createdAt), desc(waitingListOffers.id))
    .limit(100);
}

/** The open (offered or sent, unexpired) offers over [from, to): busy time of the other searches. */
export function openOffersBetween(ctx: TxContext, range: { from: Date; to: Date; now: Date }) {
  return ctx.tx
    .select({
      professionalId: waitingListOffers.professionalId,
      startsAt: waitingListOffers.startsAt,
      endsAt: waitingListOffers.endsAt,
    })
    .from(waitingListOffers)
    .where(
      and(
        eq(waitingListOffers.accountId, ctx.accountId),
        inArray(waitingListOffers.status, ['offered', 'sent']),
        gt(waitingListOffers.expiresAt, range.now),
        // A slot lasts 12 h at most, like an appointment.
        gt(waitingListOffers.startsAt, new Date(range.from.getTime() - 12 * 3_600_000)),
        lt(waitingListOffers.startsAt, range.to),
        gt(waitingListOffers.endsAt, range.from),
      ),
    );
}

/** The offer, locked (two clicks at once answer once). */
export async function lockOffer({ tx, accountId }: TxContext, where: { id: string } | { tokenHash: string }) {
  const [row] = await tx
    .select()
    .from(waitingListOffers)
    .where(
      and(
        eq(waitingListOffers.accountId, accountId),
        'id' in where ? eq(waitingListOffers.id, where.id) : eq(waitingListOffers.tokenHash, where.tokenHash),
      ),
    )
    .for('update');
  return row;
}

export async function setOffer(
  { tx, accountId }: TxContext,
  id: string,
  change: Partial<
    Pick<typeof waitingListOffers.$inferInsert, 'status' | 'sentAt' | 'answeredAt' | 'appointmentId' | 'tokenHash'>
  >,
): Promise<void> {
  await tx
    .update(waitingListOffers)
    .set(change)
    .where(and(eq(waitingListOffers.accountId, accountId), eq(waitingListOffers.id, id)));
}

/**
 * The other open offers of an accepted slot become `gone`. Rows another transaction holds (a
 * patient accepting at this very moment) are skipped: that acceptance meets the booked slot and
 * marks its own offer gone, and waiting for its lock here could deadlock with its insert.
 */
export async function markOthersGone(
  { tx, accountId }: TxContext,
  accepted: { id: string; professionalId: string; startsAt: Date; endsAt: Date },
  now: Date,
): Promise<void> {
  await tx.execute(sql`
    update waiting_list_offers set status = 'gone', answered_at = ${now}
    where account_id = ${accountId}::uuid and id in (
      select id from waiting_list_offers
      where account_id = ${accountId}::uuid and id <> ${accepted.id}::uuid
        and professional_id = ${accepted.professionalId}::uuid and status in ('offered', 'sent')
        and starts_at < ${accepted.endsAt} and ends_at > ${accepted.startsAt}
      for update skip locked)`);
}

/** The clinic of an offer's token: the one look-up across clinics (system context). */
export async function findOfferClinic(tx: SystemTx, tokenHash: string): Promise<string | undefined> {
  const [row] = await tx
    .select({ accountId: waitingListOffers.accountId })
    .from(waitingListOffers)
    .where(eq(waitingListOffers.tokenHash, tokenHash));
  return row?.accountId;
}

/** What the offer's e-mail and link page show: the patient, the clinic, the treatment, the professional. */
export async function offerDetails({ tx, accountId }: TxContext, offerId: string) {
  const [row] = await tx
    .select({
      offer: waitingListOffers,
      entry: waitingListEntries,
      email: patients.email,
      phoneArea: patients.phoneArea,
      phone: patients.phone,
      active: patients.active,
      deceasedOn: patients.deceasedOn,
      firstName: patients.firstName,
      sex: patients.sex,
      language: patients.language,
      treatmentName: treatments.name,
      durationMinutes: treatments.durationMinutes,
      professionalName: offerProfessional.completeName,
      clinicName: accounts.clinicName,
      clinicAddress: accounts.address,
      clinicPhone: accounts.phone,
      ...clinicBrandColumns,
      timeZone: accounts.timeZone,
    })
    .from(waitingListOffers)
    .innerJoin(waitingListEntries, sameClinicRow(waitingListEntries, waitingListOffers, waitingListOffers.entryId))
    .innerJoin(patients, sameClinicRow(patients, waitingListEntries, waitingListEntries.patientId))
    .innerJoin(treatments, sameClinicRow(treatments, waitingListEntries, waitingListEntries.treatmentId))
    .innerJoin(offerProfessional, sameClinicRow(offerProfessional, waitingListOffers, waitingListOffers.professionalId))
    .innerJoin(accounts, eq(accounts.id, waitingListOffers.accountId))
    .where(and(eq(waitingListOffers.accountId, accountId), eq(waitingListOffers.id, offerId)));
  return row;
}
export type OfferDetails = NonNullable<Awaited<ReturnType<typeof offerDetails>>>;
