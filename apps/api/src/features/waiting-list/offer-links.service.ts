import type { WaitingListOfferLink } from '@odontia/shared/schemas/waiting-list';
import type { Database } from '../../db/client.ts';
import { clinicBrand } from '../../db/clinic-brand.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { AppError } from '../../lib/app-error.ts';
import { languageOf } from '../../lib/patient-mail.ts';
import { hashToken } from '../../lib/tokens.ts';
import { appointmentsService } from '../appointments/appointments.service.ts';
import type { FreeingContext } from '../freed-slots.ts';
import { enqueueJob } from '../jobs/jobs.repository.ts';
import { onlineBookingJobKind } from '../online-booking/online-booking.service.ts';
import * as repository from './waiting-list.repository.ts';
import { auditEntry } from './waiting-list.service.ts';

/**
 * The offer's link (issue 38): no session, the token is the only key. Its hash finds the clinic in
 * the system context (the one look-up across clinics); then the clinic's transaction locks the
 * offer. Accepting books the slot through the agenda's insert, whose exclusion constraint decides
 * between patients accepting at once: one booking, the others' offers `gone` (their entries keep
 * waiting). An answer is always the offer's state, committed, never an error the patient must read.
 */

type State = WaitingListOfferLink['state'];

function stateOf(offer: repository.OfferDetails['offer'], now: Date): State {
  if (offer.status === 'accepted') return 'accepted';
  if (offer.status === 'gone') return 'gone';
  if (offer.status === 'expired' || offer.expiresAt <= now) return 'expired';
  return 'open';
}

function view(details: repository.OfferDetails, state: State): WaitingListOfferLink {
  return {
    clinicName: details.clinicName,
    clinicBrand: clinicBrand(details),
    clinicAddress: details.clinicAddress,
    clinicPhone: details.clinicPhone,
    patientFirstName: details.firstName,
    treatmentName: details.treatmentName,
    professionalName: details.professionalName,
    startsAt: details.offer.startsAt.toISOString(),
    endsAt: details.offer.endsAt.toISOString(),
    timeZone: details.timeZone,
    language: languageOf(details.language),
    expiresAt: details.offer.expiresAt.toISOString(),
    state,
  };
}

/** The agenda's answers that mean someone or something else has the time now. */
const slotLost = (error: unknown) =>
  error instanceof AppError &&
  ['appointment_overlaps', 'appointment_outside_schedule', 'validation_error'].includes(error.code);

async function open(db: Database, token: string) {
  const tokenHash = hashToken(token);
  const accountId = await db.withSystem((tx) => repository.findOfferClinic(tx, tokenHash));
  if (!accountId) throw new AppError('invalid_token');
  return { accountId, tokenHash };
}

async function locked(tx: TenantTx, accountId: string, tokenHash: string) {
  const offer = await repository.lockOffer({ tx, accountId }, { tokenHash });
  const details = offer && (await repository.offerDetails({ tx, accountId }, offer.id));
  if (!details) throw new AppError('invalid_token');
  return details;
}

export function createOfferLinksService(db: Database) {
  return {
    async show(token: string, now = new Date()): Promise<{ data: WaitingListOfferLink }> {
      const { accountId, tokenHash } = await open(db, token);
      return db.withTenant(accountId, async (tx) => {
        const details = await locked(tx, accountId, tokenHash);
        let state = stateOf(details.offer, now);
        // The entry was booked through another of its offers: this one is gone.
        if (state === 'open' && details.entry.status !== 'waiting') state = 'gone';
        return { data: view(details, state) };
      });
    },

    async accept(token: string, ip: string, now = new Date()) {
      const { accountId, tokenHash } = await open(db, token);
      return db.withTenant(accountId, async (tx) => {
        const details = await locked(tx, accountId, tokenHash);
        const ctx: FreeingContext = { tx, accountId, userId: null, ip };
        const { offer, entry } = details;
        const state = stateOf(offer, now);
        if (state !== 'open') {
          if (state === 'expired' && offer.status !== 'expired') {
            await repository.setOffer(ctx, offer.id, { status: 'expired' });
          }
          return { data: view(details, state) };
        }
        const gone = async () => {
          await repository.setOffer(ctx, offer.id, { status: 'gone', answeredAt: now });
          await auditEntry(ctx, entry, 'waiting_list_offer_gone', { offerId: offer.id });
          return { data: view(details, 'gone' as const) };
        };
        if (entry.status !== 'waiting' || entry.deletedAt !== null) return gone();
        let appointmentId: string;
        try {
          // No audit before the insert: the audit's per-clinic lock must not be held while the
          // exclusion constraint makes this insert wait for another acceptance to commit.
          const booked = await appointmentsService.create({
            ctx: { ...ctx, userId: null as unknown as string, timeZone: details.timeZone },
            input: {
              patientId: entry.patientId,
              professionalId: offer.professionalId,
              chairId: null,
              treatmentId: entry.treatmentId,
              startsAt: offer.startsAt.toISOString(),
              endsAt: offer.endsAt.toISOString(),
              reason: details.treatmentName,
              notes: null,
              allowOutsideSchedule: false,
            },
            origin: 'online',
          });
          appointmentId = booked.id;
        } catch (error) {
          if (slotLost(error)) return gone();
          throw error;
        }
        await repository.setOffer(ctx, offer.id, { status: 'accepted', answeredAt: now, appointmentId });
        await repository.entriesRepository.update({ ...ctx, userId: null as unknown as string }, entry.id, {
          status: 'booked',
          appointmentId,
        });
        await auditEntry(ctx, entry, 'waiting_list_entry_booked', {
          offerId: offer.id,
          appointmentId,
          status: 'booked',
        });
        await repository.markOthersGone(ctx, { ...offer }, now);
        await enqueueJob(ctx, {
          kind: onlineBookingJobKind,
          key: appointmentId,
          runAt: now,
          payload: { appointmentId },
        });
        return {
          data: view({ ...details, offer: { ...offer, status: 'accepted' } }, 'accepted'),
          code: 'waiting_list_offer_accepted' as const,
        };
      });
    },
  };
}

export type OfferLinksService = ReturnType<typeof createOfferLinksService>;
