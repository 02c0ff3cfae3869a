import { appointmentLinkRoutes } from '@odontia/shared/routes/appointments';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '../../plugins/routes.ts';
import type { AppointmentLinksService } from './appointment-links.service.ts';

/**
 * /api/public/appointment-links/:token — the reminder's confirm and cancel links (issue 16), no
 * sign-in: the token is the key. Declared in packages/shared/src/routes/appointments.ts.
 */
export const appointmentLinksRoutes: FastifyPluginAsyncZod<{ service: AppointmentLinksService }> = async (
  app,
  { service },
) => {
  const route = routes(app, { tags: ['appointment links'] });

  route.servePublic(
    appointmentLinkRoutes.show,
    { summary: "The appointment a reminder's link is about; `stale` says why the link no longer acts" },
    async ({ params }) => service.show(params.token),
  );

  route.servePublic(
    appointmentLinkRoutes.answer,
    {
      summary:
        "Confirm or cancel the appointment (the link's purpose), once; 409 appointment_link_stale when it was moved, cancelled, completed, is past or was already answered",
    },
    async ({ params, request }) => service.answer(params.token, request.ip),
  );
};
