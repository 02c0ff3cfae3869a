import { appointmentLinkAnswerSchema, appointmentLinkParamsSchema } from '@odontia/shared/schemas/appointments';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppointmentLinksService } from './appointment-links.service.ts';

/**
 * /api/public/appointment-links/:token — the reminder's confirm and cancel links (issue 16), no
 * sign-in: the token is the key. Declared by hand like the other public routes (auth.routes.ts).
 */
export const appointmentLinksRoutes: FastifyPluginAsyncZod<{ service: AppointmentLinksService }> = async (
  app,
  { service },
) => {
  const tags = ['appointment links'];

  app.get(
    '/public/appointment-links/:token',
    {
      config: { permission: 'public' },
      schema: {
        tags,
        summary: "The appointment a reminder's link is about; `stale` says why the link no longer acts",
        params: appointmentLinkParamsSchema,
        response: { 200: appointmentLinkAnswerSchema },
      },
    },
    async (request) => service.show(request.params.token),
  );

  app.post(
    '/public/appointment-links/:token',
    {
      config: { permission: 'public' },
      schema: {
        tags,
        summary:
          "Confirm or cancel the appointment (the link's purpose), once; 409 appointment_link_stale when it was moved, cancelled, completed, is past or was already answered",
        params: appointmentLinkParamsSchema,
        response: { 200: appointmentLinkAnswerSchema },
      },
    },
    async (request) => service.answer(request.params.token, request.ip),
  );
};
