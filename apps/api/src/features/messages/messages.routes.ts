import {
  messageRoutes as declared,
  optOutLinkRoutes,
  messagingSettingsRoutes as settings,
} from '@odontia/shared/routes/messages';
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { Sealer } from '../../lib/secrets.ts';
import { routes } from '../../plugins/routes.ts';
import { createMessagesService, createOptOutLinks } from './messages.service.ts';

/**
 * /api/settings/messaging and /api/settings/message-templates (administrators), a patient's consent
 * per channel (`patients.read`, recorded with `patients.write`), /api/messages (the log) and
 * /api/inbox (replies; answered and filed as the agenda is written, `appointments.write`), and the
 * public "no more e-mails" link.
 */
export const messagesRoutes: FastifyPluginAsync<{ db: Database; sealer: Sealer; publicUrl: string }> = async (
  app,
  { db, sealer, publicUrl },
) => {
  const route = routes(app, { tags: ['messages'] });
  const service = createMessagesService({ sealer, publicUrl });
  const optOut = createOptOutLinks(db);
  const admin = { permission: 'settings.manage', failureCode: 'error_update_messages' } as const;
  const read = { permission: 'patients.read', failureCode: 'error_get_messages' } as const;
  const write = { permission: 'appointments.write', failureCode: 'error_update_messages' } as const;

  route.serve(
    settings.get,
    { ...admin, summary: "The clinic's reminder channels, quiet hours and provider accounts (no secrets)" },
    async ({ ctx }) => ({
      data: await service.settings({ ctx }),
    }),
  );
  route.serve(
    settings.update,
    { ...admin, summary: 'Set the order of reminder channels and the quiet hours' },
    async ({ ctx, body }) => ({
      data: await service.updateSettings({ ctx, input: body }),
      code: 'messaging_settings_updated' as const,
    }),
  );
  route.serve(
    settings.updateChannel,
    {
      ...admin,
      summary:
        'Set up the SMS or WhatsApp account; an empty secret keeps the stored one; 409 version_conflict, 400 messaging_secret_required',
    },
    async ({ ctx, params, body }) => ({
      data: await service.updateChannel({ ctx, channel: params.channel, input: body }),
      code: 'messaging_settings_updated' as const,
    }),
  );
  route.serve(
    settings.templates,
    {
      ...admin,
      summary: 'Every template by kind, channel and language, the built-in wording where the clinic has none',
    },
    async ({ ctx }) => ({
      data: await service.templates({ ctx }),
    }),
  );
  route.serve(
    settings.updateTemplate,
    { ...admin, summary: 'Write a template (null body: back to the built-in wording)' },
    async ({ ctx, body }) => ({
      data: await service.updateTemplate({ ctx, input: body }),
      code: 'message_template_updated' as const,
    }),
  );
  route.serve(
    settings.previewTemplate,
    { ...admin, summary: 'The text a template gives with sample values, its length and SMS parts' },
    async ({ ctx, body }) => ({
      data: await service.previewTemplate({ ctx, input: body }),
    }),
  );

  route.serve(
    declared.consents,
    { ...read, summary: "The patient's consent per channel now, and every change" },
    async ({ ctx, params }) => ({
      data: await service.consents({ ctx, patientId: params.id }),
    }),
  );
  route.serve(
    declared.recordConsent,
    {
      permission: 'patients.write',
      failureCode: 'error_update_messages',
      summary: "Record the patient's yes or no to a channel",
    },
    async ({ ctx, params, body }) => ({
      data: await service.recordConsent({ ctx, patientId: params.id, input: body }),
      code: 'consent_recorded' as const,
    }),
  );
  route.serve(
    declared.list,
    { ...read, summary: 'Messages to patients, newest first, with their delivery' },
    ({ ctx, query }) => service.list({ ctx, query }),
  );
  route.serve(
    declared.inbox,
    { ...read, summary: 'Replies waiting for the front desk (or all), newest first' },
    ({ ctx, query }) => service.inbox({ ctx, query }),
  );
  route.serve(
    declared.answer,
    {
      ...write,
      summary: 'Answer a reply on its channel and file it; 409 whatsapp_session_closed, messaging_channel_off',
    },
    async ({ ctx, params, body }) => ({
      data: await service.answer({ ctx, id: params.id, input: body }),
      code: 'inbox_answered' as const,
    }),
  );
  route.serve(
    declared.close,
    { ...write, summary: 'File a reply without answering it' },
    async ({ ctx, params, body }) => ({
      data: await service.close({ ctx, id: params.id, version: body.version }),
      code: 'inbox_closed' as const,
    }),
  );

  route.servePublic(optOutLinkRoutes.show, { summary: 'What a "no more messages" link is about' }, ({ params }) =>
    optOut.show(params.token),
  );
  route.servePublic(
    optOutLinkRoutes.confirm,
    { summary: "Record the patient's no to the link's channel" },
    ({ params, request }) => optOut.confirm(params.token, request.ip),
  );
};
