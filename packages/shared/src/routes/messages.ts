import { apiRoute } from '../api-route.ts';
import {
  inboxAnswerRequestSchema,
  inboxCloseRequestSchema,
  inboxItemAnswerSchema,
  inboxPageSchema,
  inboxQuerySchema,
  messagePageSchema,
  messagesQuerySchema,
  messageTemplateAnswerSchema,
  messageTemplatePreviewRequestSchema,
  messageTemplatePreviewSchema,
  messageTemplatesSchema,
  messageTemplateUpdateSchema,
  messagingChannelParamsSchema,
  messagingChannelUpdateSchema,
  messagingSettingsAnswerSchema,
  messagingSettingsUpdateSchema,
  optOutLinkSchema,
  optOutParamsSchema,
  patientConsentAnswerSchema,
  patientConsentRequestSchema,
  patientConsentsSchema,
} from '../schemas/messages.ts';
import { recordParamsSchema } from '../schemas/records.ts';

/** The clinic's channels, quiet hours and templates (issue 38): administrators. */
export const messagingSettingsRoutes = {
  get: apiRoute({ method: 'GET', path: '/settings/messaging', answer: messagingSettingsAnswerSchema }),
  update: apiRoute({
    method: 'PUT',
    path: '/settings/messaging',
    body: messagingSettingsUpdateSchema,
    answer: messagingSettingsAnswerSchema,
  }),
  updateChannel: apiRoute({
    method: 'PUT',
    path: '/settings/messaging/:channel',
    params: messagingChannelParamsSchema,
    body: messagingChannelUpdateSchema,
    answer: messagingSettingsAnswerSchema,
  }),
  templates: apiRoute({ method: 'GET', path: '/settings/message-templates', answer: messageTemplatesSchema }),
  updateTemplate: apiRoute({
    method: 'PUT',
    path: '/settings/message-templates',
    body: messageTemplateUpdateSchema,
    answer: messageTemplateAnswerSchema,
  }),
  previewTemplate: apiRoute({
    method: 'POST',
    path: '/settings/message-templates/preview',
    body: messageTemplatePreviewRequestSchema,
    answer: messageTemplatePreviewSchema,
  }),
};

/** A patient's consent per channel, the message log and the replies' inbox (issue 38). */
export const messageRoutes = {
  consents: apiRoute({
    method: 'GET',
    path: '/patients/:id/channel-consents',
    params: recordParamsSchema,
    answer: patientConsentsSchema,
  }),
  recordConsent: apiRoute({
    method: 'POST',
    path: '/patients/:id/channel-consents',
    params: recordParamsSchema,
    body: patientConsentRequestSchema,
    answer: patientConsentAnswerSchema,
    status: 201,
  }),
  list: apiRoute({ method: 'GET', path: '/messages', query: messagesQuerySchema, answer: messagePageSchema }),
  inbox: apiRoute({ method: 'GET', path: '/inbox', query: inboxQuerySchema, answer: inboxPageSchema }),
  answer: apiRoute({
    method: 'POST',
    path: '/inbox/:id/answer',
    params: recordParamsSchema,
    body: inboxAnswerRequestSchema,
    answer: inboxItemAnswerSchema,
  }),
  close: apiRoute({
    method: 'POST',
    path: '/inbox/:id/close',
    params: recordParamsSchema,
    body: inboxCloseRequestSchema,
    answer: inboxItemAnswerSchema,
  }),
};

/** The "no more e-mails" link of a message (public: its token is the key). */
export const optOutLinkRoutes = {
  show: apiRoute({
    method: 'GET',
    path: '/public/message-opt-out/:token',
    params: optOutParamsSchema,
    answer: optOutLinkSchema,
  }),
  confirm: apiRoute({
    method: 'POST',
    path: '/public/message-opt-out/:token',
    params: optOutParamsSchema,
    answer: optOutLinkSchema,
  }),
};
