import type { Language } from '@odontia/shared/enums';
import type {
  OnlineAppointment,
  OnlineFreeSlotsQuery,
  PublicBookingRequest,
} from '@odontia/shared/schemas/online-booking';
import type { Database } from '../../db/client.ts';
import { isExclusionViolation, isUniqueViolation, violatedConstraint } from '../../db/errors.ts';
import { countAttempt, throttleKeyHash } from '../../db/throttle-counters.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { Mailer } from '../../lib/mail.ts';
import { languageOf } from '../../lib/patient-mail.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { activeProfessionals } from '../appointments/appointments.repository.ts';
import { addressKey } from '../auth/auth.throttle.ts';
import { findByIdNumberAndEmail } from '../patients/patients.repository.ts';
import { patientsService } from '../patients/patients.service.ts';
import { findClinicBySlug, findRules } from '../portal/portal.repository.ts';
import { heldMail } from './online-booking.mail.ts';
import * as repository from './online-booking.repository.ts';
import { type OnlineContext, onlineBookingRules, onlineBookingService } from './online-booking.service.ts';

/**
 * The public booking page of a clinic (issue 37): people who have no portal session, new patients
 * among them. A booking is first a HOLD (online_booking_holds) that keeps the slot from the free
 * slots and from other holds (an exclusion constraint) until its e-mail link confirms it — once,
 * before it expires; then the patient is matched (ID number and e-mail) or created, and the
 * appointment is booked through the agenda like any online booking. One pending hold per e-mail;
 * attempts are throttled per client address and per e-mail (the auth throttle's counters); no captcha.
 */

/** How long an unconfirmed hold keeps its slot. */
export const holdMinutes = 60;
const minute = 60_000;

export const bookingThrottleLimits = {
  address: { limit: 10, windowMs: 60 * minute },
  email: { limit: 3, windowMs: 60 * minute },
} as const;

export function createPublicBookingService(deps: { db: Database; mailer: Mailer; publicUrl: string }) {
  const { db } = deps;

  /** The clinic of a public address that takes online bookings (404 online_booking_unavailable otherwise). */
  async function clinicOf(slug: string) {
    const clinic = await db.withSystem((tx) => findClinicBySlug(tx, slug));
    if (!clinic) throw new AppError('online_booking_unavailable');
    return clinic;
  }

  /** Runs `work` in the clinic's context as nobody (the public page). */
  function asVisitor<T>(
    clinic: { id: string; clinic: { timeZone: string } },
    ip: string,
    work: (ctx: OnlineContext) => Promise<T>,
  ) {
    return db.withTenant(clinic.id, async (tx) => {
      const ctx: OnlineContext = { tx, accountId: clinic.id, userId: null, ip, timeZone: clinic.clinic.timeZone };
      const rules = await findRules(ctx);
      if (!rules.enabled) throw new AppError('online_booking_unavailable');
      return work(ctx);
    });
  }

  /** Counts the attempt against the address and the e-mail (429 too_many_requests when full). */
  async function throttle(ip: string, email: string, at: number): Promise<void> {
    await db.withSystem((tx) =>
      countAttempt(
        tx,
        [
          { ...bookingThrottleLimits.address, keyHash: throttleKeyHash(`booking-address:${addressKey(ip)}`) },
          { ...bookingThrottleLimits.email, keyHash: throttleKeyHash(`booking-email:${email.trim().toLowerCase()}`) },
        ],
        at,
      ),
    );
  }

  return {
    /** The clinic's brand and what it offers online. */
    async page(slug: string) {
      const clinic = await clinicOf(slug);
      return asVisitor(clinic, '', async (ctx) => {
        const rules = await findRules(ctx);
        const treatments = await repository.treatmentOptions(ctx, { bookableOnly: true });
        const professionals = (await activeProfessionals(ctx.tx, ctx.accountId)).filter((row) =>
          rules.professionalIds.includes(row.id),
        );
        return {
          clinic: clinic.clinic,
          newPatients: rules.newPatients,
          leadHours: rules.leadHours,
          horizonDays: rules.horizonDays,
          treatments: treatments.map(({ id, name, durationMinutes }) => ({ id, name, durationMinutes })),
          professionals,
        };
      });
    },

    async freeSlots(slug: string, query: OnlineFreeSlotsQuery, now = new Date()) {
      const clinic = await clinicOf(slug);
      return asVisitor(clinic, '', (ctx) => onlineBookingService.freeSlots({ ctx, query, now }));
    },

    /**
     * A pending booking: checked against every rule like a portal booking, held until the link
     * mailed to the address confirms it (409 slot_taken when another hold or booking won the slot,
     * online_booking_pending_exists when this e-mail already waits for one).
     */
    async hold(slug: string, input: PublicBookingRequest, ip: string, now = new Date()) {
      await throttle(ip, input.email, now.getTime());
      const clinic = await clinicOf(slug);
      const token = newToken();
      const holdId = newId();
      const expiresAt = new Date(now.getTime() + holdMinutes * minute);
      const held = await asVisitor(clinic, ip, async (ctx) => {
        const rules = await findRules(ctx);
        await repository.expireHolds(ctx, now);
        const known = await findByIdNumberAndEmail(ctx.tx, ctx.accountId, input.idNumber, input.email);
        if (!known && !rules.newPatients) throw new AppError('online_booking_new_patients_closed');
        const { treatment } = await onlineBookingRules.check(ctx, rules, {
          patientId: known?.id,
          treatmentId: input.treatmentId,
          professionalId: input.professionalId,
          start: new Date(input.startsAt),
          now,
        });
        const start = new Date(input.startsAt);
        const end = new Date(start.getTime() + treatment.durationMinutes * minute);
        try {
          await ctx.tx.transaction(() =>
            repository.insertHold(ctx, {
              id: holdId,
              email: input.email,
              firstName: input.firstName,
              lastName: input.lastName,
              phone: input.phone,
              idNumber: input.idNumber,
              sex: input.sex,
              birthdate: input.birthdate,
              language: input.language ?? rules.defaultLanguage,
              treatmentId: input.treatmentId,
              professionalId: input.professionalId,
              startsAt: start,
              endsAt: end,
              tokenHash: hashToken(token),
              expiresAt,
            }),
          );
        } catch (error) {
          if (isExclusionViolation(error)) throw new AppError('slot_taken', undefined, { cause: error });
          if (isUniqueViolation(error) && violatedConstraint(error) === 'online_booking_holds_email_unique') {
            throw new AppError('online_booking_pending_exists', undefined, { cause: error });
          }
          throw error;
        }
        const professional = (await activeProfessionals(ctx.tx, ctx.accountId, input.professionalId))[0];
        return { start, end, treatment, professionalName: professional?.name ?? '', rules };
      });
      // Sent once the hold is committed: the token lives only in this mail. A mail that cannot
      // leave releases the hold (slot and e-mail), so the person may simply try again.
      const release = () =>
        db.withTenant(clinic.id, (tx) => repository.markHoldExpired({ tx, accountId: clinic.id }, holdId));
      await deps.mailer
        .send(
          heldMail({
            language: languageOf(input.language ?? held.rules.defaultLanguage) as Language,
            to: input.email,
            firstName: input.firstName,
            sex: input.sex,
            clinicName: clinic.clinic.name,
            clinicColor: clinic.clinic.brand.color,
            clinicAddress: clinic.clinic.address,
            clinicPhone: clinic.clinic.phone,
            treatmentName: held.treatment.name,
            professionalName: held.professionalName,
            startsAt: held.start,
            endsAt: held.end,
            timeZone: clinic.clinic.timeZone,
            link: `${deps.publicUrl}booking/confirm/${token}`,
            expiresAt,
          }),
        )
        .catch(async (error: unknown) => {
          await release();
          throw new AppError('error_sending_email', undefined, { cause: error });
        });
      return {
        startsAt: held.start.toISOString(),
        endsAt: held.end.toISOString(),
        expiresAt: expiresAt.toISOString(),
        treatmentName: held.treatment.name,
        professionalName: held.professionalName,
      };
    },

    /**
     * The e-mail's link: once, before it expires (409 online_booking_link_stale with `why`). The
     * patient is matched by ID number and e-mail, or created from the booking's fields; the
     * appointment is booked through the agenda (409 slot_taken if a staff booking took the time).
     */
    async confirm(token: string, ip: string, now = new Date()): Promise<OnlineAppointment> {
      const tokenHash = hashToken(token);
      const accountId = await db.withSystem((tx) => repository.findHoldClinic(tx, tokenHash));
      if (!accountId) throw new AppError('invalid_token');
      return db.withTenant(accountId, async (tx) => {
        const rules = await findRules({ tx, accountId });
        const ctx: OnlineContext = { tx, accountId, userId: null, ip, timeZone: rules.timeZone };
        const hold = await repository.lockHold(ctx, tokenHash);
        if (!hold) throw new AppError('invalid_token');
        if (hold.status === 'confirmed') throw new AppError('online_booking_link_stale', { why: 'used' });
        if (hold.status === 'expired' || hold.expiresAt <= now) {
          throw new AppError('online_booking_link_stale', { why: 'expired' });
        }
        if (!rules.enabled) throw new AppError('online_booking_disabled');
        const known = await findByIdNumberAndEmail(ctx.tx, ctx.accountId, hold.idNumber, hold.email);
        if (!known && !rules.newPatients) throw new AppError('online_booking_new_patients_closed');
        const patientId = known
          ? known.id
          : (
              await patientsService.create({
                ctx: { ...ctx, userId: ctx.userId as string, level: 'customer', patientId: null },
                input: {
                  firstName: hold.firstName,
                  lastName: hold.lastName,
                  email: hold.email,
                  phoneArea: null,
                  phone: hold.phone,
                  sex: hold.sex as 'male' | 'female',
                  birthdate: hold.birthdate,
                  ssn: hold.idNumber,
                  medicalHistory: null,
                  active: true,
                  deceasedOn: null,
                  street: null,
                  complement: null,
                  zipCode: null,
                  country: null,
                  state: null,
                  city: null,
                  district: null,
                  address: null,
                  obs: null,
                  allergies: null,
                  chronicConditions: null,
                  currentMedication: null,
                  language: languageOf(hold.language),
                },
              })
            ).id;
        // The hold stops holding first: the slot is checked and booked as the appointment's.
        await repository.markHoldExpired(ctx, hold.id);
        const booked = await onlineBookingService.bookOnline({
          ctx,
          patientId,
          treatmentId: hold.treatmentId,
          professionalId: hold.professionalId,
          start: hold.startsAt,
          now,
          // The rules were checked when the hold was made; lead time has passed while it waited.
          skipLeadTime: true,
        });
        await repository.markHoldConfirmed(ctx, hold.id, booked.id);
        return booked;
      });
    },
  };
}

export type PublicBookingService = ReturnType<typeof createPublicBookingService>;
