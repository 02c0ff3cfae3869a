import { waitingListRoutes as declared, waitingListOfferLinkRoutes } from '@odontia/shared/routes/waiting-list';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '../../plugins/routes.ts';
import type { OfferLinksService } from './offer-links.service.ts';
import { waitingListService } from './waiting-list.service.ts';

/**
 * /api/waiting-list (issue 38): the entries (read `patients.read`, write `appointments.write`,
 * like the agenda's), their offers and a manual offer; /api/public/waiting-list-offers/:token,
 * the offer's e-mail link (no sign-in: the token is the key).
 */
export const waitingListRoutes: FastifyPluginAsyncZod<{ links: OfferLinksService }> = async (app, { links }) => {
  const route = routes(app, { tags: ['waiting list'] });
  const read = { permission: 'patients.read', failureCode: 'error_get_waiting_list' } as const;
  const write = { permission: 'appointments.write', failureCode: 'error_update_waiting_list' } as const;

  route.serve(
    declared.list,
    { ...read, summary: 'The waiting entries (or booked ones), high priority then arrival (or arrival), filtered' },
    ({ ctx, query }) => waitingListService.list({ ctx, query }),
  );
  route.serve(declared.get, { ...read, summary: 'One waiting-list entry' }, async ({ ctx, params }) => ({
    data: await waitingListService.get({ ctx, id: params.id }),
  }));
  route.serve(
    declared.create,
    { ...write, summary: 'Put a patient on the waiting list for a treatment, a professional or any' },
    async ({ ctx, body }) => ({
      data: await waitingListService.create({ ctx, input: body }),
      code: 'waiting_list_entry_created' as const,
    }),
  );
  route.serve(
    declared.update,
    { ...write, summary: 'Edit a waiting entry; 409 version_conflict, waiting_list_entry_booked' },
    async ({ ctx, params, body }) => ({
      data: await waitingListService.update({ ctx, id: params.id, input: body }),
      code: 'waiting_list_entry_updated' as const,
    }),
  );
  route.serve(
    declared.remove,
    { ...write, summary: 'Take an entry off the list: hidden from now on; the row and its audit are kept' },
    async ({ ctx, params }) => {
      await waitingListService.remove({ ctx, id: params.id });
      return { code: 'waiting_list_entry_deleted' as const };
    },
  );
  route.serve(
    declared.changes,
    { ...read, summary: "The entry's history of changes and offers (audit events), newest first" },
    ({ ctx, params, query }) => waitingListService.changes({ ctx, id: params.id, query }),
  );
  route.serve(
    declared.offers,
    { ...read, summary: "The entry's offers, newest first: offered, sent, accepted, expired or gone" },
    async ({ ctx, params }) => ({ data: await waitingListService.offers({ ctx, id: params.id }) }),
  );
  route.serve(
    declared.offer,
    {
      ...write,
      summary:
        "Offer the entry a free start of its treatment by e-mail, held for the clinic's minutes; 409 waiting_list_slot_unavailable, waiting_list_patient_without_email, waiting_list_entry_booked",
    },
    async ({ ctx, params, body }) => ({
      data: await waitingListService.offer({ ctx, id: params.id, input: body }),
      code: 'waiting_list_offer_sent' as const,
    }),
  );

  route.servePublic(
    waitingListOfferLinkRoutes.show,
    { summary: "The slot a waiting-list offer's link is about, and whether it is open, accepted, expired or gone" },
    async ({ params }) => links.show(params.token),
  );
  route.servePublic(
    waitingListOfferLinkRoutes.accept,
    {
      summary:
        'Accept the offer: books the slot when it is still open and free (the first acceptance wins); answers the state either way',
    },
    async ({ params, request }) => links.accept(params.token, request.ip),
  );
};
