import { publicBookingRoutes } from '@odontia/shared/routes/online-booking';
import { portalBookingRoutes } from '@odontia/shared/routes/portal';
import type { FastifyPluginAsync } from 'fastify';
import type { Actor } from '../../context.ts';
import { routes } from '../../plugins/routes.ts';
import { portalPatientOf } from '../portal/portal.service.ts';
import { type OnlineContext, onlineBookingService } from './online-booking.service.ts';
import type { PublicBookingService } from './public-booking.service.ts';

/**
 * Online booking's routes (issue 37). /api/portal/…: a customer session's patient (`portal.use`).
 * They run in the clinic's transaction rather than the patient's (`transaction: false`): the free
 * slots must see every patient's busy time, which the patient's row-level security hides; the
 * service scopes every read and write to the session's patient (another patient's appointment:
 * 404) and answers times only. /api/public/…: the clinic's public booking page, no session.
 */
export const onlineBookingRoutes: FastifyPluginAsync<{ publicService: PublicBookingService }> = async (
  app,
  { publicService },
) => {
  const route = routes(app, { tags: ['online booking'] });
  const portal = { permission: 'portal.use', transaction: false } as const;

  /** The session's patient and the clinic's transaction. */
  const asPatient = <T>(actor: Actor, work: (ctx: OnlineContext, patientId: string) => Promise<T>) => {
    const patientId = portalPatientOf(actor);
    return app.db.withTenant(actor.accountId, (tx) =>
      work({ tx, accountId: actor.accountId, userId: actor.userId, ip: actor.ip, timeZone: actor.timeZone }, patientId),
    );
  };

  route.serve(
    portalBookingRoutes.freeSlots,
    {
      ...portal,
      summary:
        "Free slots of a bookable treatment (its duration), optionally of one offered professional, within the clinic's lead time and horizon; 409 online_booking_disabled",
    },
    async ({ actor, query }) => ({
      data: await asPatient(actor, (ctx) => onlineBookingService.freeSlots({ ctx, query })),
    }),
  );

  route.serve(
    portalBookingRoutes.book,
    {
      ...portal,
      summary:
        'Book a free slot for the signed-in patient (marked online, confirmation e-mail with an .ics); 409 slot_taken when another booking won it, slot_unavailable, online_booking_too_soon, online_booking_too_far, online_booking_pending_limit, online_booking_disabled; 400 on a treatment or professional not offered',
    },
    async ({ actor, body }) => ({
      data: await asPatient(actor, (ctx, patientId) =>
        onlineBookingService.bookOnline({
          ctx,
          patientId,
          treatmentId: body.treatmentId,
          professionalId: body.professionalId,
          start: new Date(body.startsAt),
        }),
      ),
      code: 'appointment_booked_online' as const,
    }),
  );

  for (const purpose of ['confirm', 'cancel'] as const) {
    route.serve(
      portalBookingRoutes[purpose],
      {
        ...portal,
        summary: `${purpose === 'confirm' ? 'Confirm' : 'Cancel (the slot is free at once)'} the patient's own appointment, up to the clinic's change window before it; 404 for another patient's, 409 online_booking_change_closed or appointment_not_scheduled`,
      },
      async ({ actor, params }) => ({
        data: await asPatient(actor, (ctx, patientId) =>
          onlineBookingService.answer({ ctx, patientId, id: params.id, purpose }),
        ),
        code: purpose === 'confirm' ? ('appointment_confirmed' as const) : ('appointment_cancelled' as const),
      }),
    );
  }

  route.serve(
    portalBookingRoutes.reschedule,
    {
      ...portal,
      summary:
        "Move the patient's own appointment to another free slot (the same professional and treatment unless others are named; another treatment must be bookable and brings its duration; answers the new appointment), within the change window; 404 for another patient's, 400 invalid_value on a treatment or professional not offered, 409 online_booking_change_closed, slot_taken, slot_unavailable",
    },
    async ({ actor, params, body }) => ({
      data: await asPatient(actor, (ctx, patientId) =>
        onlineBookingService.reschedule({ ctx, patientId, id: params.id, input: body }),
      ),
      code: 'appointment_rescheduled' as const,
    }),
  );

  route.servePublic(
    publicBookingRoutes.page,
    { summary: "The clinic's brand and what it offers online; 404 online_booking_unavailable" },
    async ({ params }) => ({ data: await publicService.page(params.slug) }),
  );

  route.servePublic(
    publicBookingRoutes.freeSlots,
    { summary: 'Free slots of a bookable treatment on the public page (as the portal’s)' },
    async ({ params, query }) => ({ data: await publicService.freeSlots(params.slug, query) }),
  );

  route.servePublic(
    publicBookingRoutes.book,
    {
      summary:
        'A pending booking, held until the e-mailed link confirms it (it expires); one per e-mail (409 online_booking_pending_exists); 409 slot_taken, online_booking_new_patients_closed and the rules of a portal booking; 429 too_many_requests per address and per e-mail',
    },
    async ({ params, body, request }) => ({
      data: await publicService.hold(params.slug, body, request.ip),
      code: 'online_booking_held' as const,
    }),
  );

  route.servePublic(
    publicBookingRoutes.confirm,
    {
      summary:
        "Confirm a pending booking from its e-mail's link, once: the patient is matched or created and the appointment booked; 409 online_booking_link_stale (details.why: used, expired), slot_taken; 404 invalid_token",
    },
    async ({ params, request }) => ({
      data: await publicService.confirm(params.token, request.ip),
      code: 'appointment_booked_online' as const,
    }),
  );
};
