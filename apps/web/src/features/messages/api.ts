import { messageRoutes, messagingSettingsRoutes, optOutLinkRoutes } from '@odontia/shared/routes/messages';
import type { ProviderChannel } from '@odontia/shared/schemas/messages';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { apiClient, type CallAnswer, type CallInput } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';

/*
 * Messages to patients (issue 38): the clinic's channels, quiet hours and templates
 * (/api/settings/messaging, administrators), a patient's consent per channel and the message log
 * (/api/patients/:id/channel-consents, /api/messages), the replies' inbox (/api/inbox) and the
 * public "no more e-mails" link.
 */

const settingsApi = apiClient(messagingSettingsRoutes);
const messagesApi = apiClient(messageRoutes);
const optOutApi = apiClient(optOutLinkRoutes);

export const messagingKeys = {
  settings: ['messaging', 'settings'] as const,
  templates: ['messaging', 'templates'] as const,
  consents: (patientId: string) => ['messaging', 'consents', patientId] as const,
  log: ['messaging', 'log'] as const,
  inbox: ['messaging', 'inbox'] as const,
};

export type MessagingSettingsAnswer = CallAnswer<typeof messagingSettingsRoutes.get>;
export type SettingsBody = CallInput<typeof messagingSettingsRoutes.update>['body'];
export type ChannelBody = CallInput<typeof messagingSettingsRoutes.updateChannel>['body'];
export type TemplateBody = CallInput<typeof messagingSettingsRoutes.updateTemplate>['body'];
export type PreviewBody = CallInput<typeof messagingSettingsRoutes.previewTemplate>['body'];
export type PreviewAnswer = CallAnswer<typeof messagingSettingsRoutes.previewTemplate>['data'];
export type MessagesQuery = NonNullable<CallInput<typeof messageRoutes.list>['query']>;
export type InboxRow = CallAnswer<typeof messageRoutes.inbox>['data'][number];
export type ConsentBody = CallInput<typeof messageRoutes.recordConsent>['body'];

/** The settings answer replaces the cached one: both forms on the page read it. */
const keepSettings = (answer: MessagingSettingsAnswer) =>
  queryClient.setQueryData(messagingKeys.settings, { data: answer.data });

export function useMessagingSettings() {
  return useQuery({ queryKey: messagingKeys.settings, queryFn: () => settingsApi.get() });
}

export function useSaveMessagingSettings() {
  return useMutation({ mutationFn: (body: SettingsBody) => settingsApi.update({ body }), onSuccess: keepSettings });
}

export function useSaveMessagingChannel(channel: ProviderChannel) {
  return useMutation({
    mutationFn: (body: ChannelBody) => settingsApi.updateChannel({ params: { channel }, body }),
    onSuccess: keepSettings,
  });
}

export function useMessageTemplates() {
  return useQuery({ queryKey: messagingKeys.templates, queryFn: () => settingsApi.templates() });
}

export function useSaveMessageTemplate() {
  return useMutation({
    mutationFn: (body: TemplateBody) => settingsApi.updateTemplate({ body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messagingKeys.templates }),
  });
}

/** The text a template gives with sample values; keyed by what is previewed, so each text is asked once. */
export function useTemplatePreview(body: PreviewBody | null) {
  return useQuery({
    queryKey: ['messaging', 'preview', body],
    queryFn: () => settingsApi.previewTemplate({ body: body as PreviewBody }).then((answer) => answer.data),
    enabled: body !== null,
    placeholderData: keepPreviousData,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function usePatientConsents(patientId: string) {
  return useQuery({
    queryKey: messagingKeys.consents(patientId),
    queryFn: () => messagesApi.consents({ params: { id: patientId } }).then((answer) => answer.data),
  });
}

export function useRecordConsent(patientId: string) {
  return useMutation({
    mutationFn: (body: ConsentBody) => messagesApi.recordConsent({ params: { id: patientId }, body }),
    onSuccess: (answer) => queryClient.setQueryData(messagingKeys.consents(patientId), answer.data),
  });
}

/** The message log (a patient's, an appointment's), newest first. */
export function useMessages(query: MessagesQuery, enabled = true) {
  return useQuery({
    queryKey: [...messagingKeys.log, query],
    queryFn: () => messagesApi.list({ query }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useInbox(query: { state: 'open' | 'all'; page: number; pageSize: number }) {
  return useQuery({
    queryKey: [...messagingKeys.inbox, 'list', query],
    queryFn: () => messagesApi.inbox({ query }),
    placeholderData: keepPreviousData,
  });
}

type InboxStep = { kind: 'answer'; body: string; version: number } | { kind: 'close'; version: number };

export function useInboxStep(id: string) {
  return useMutation({
    mutationFn: (step: InboxStep) =>
      step.kind === 'answer'
        ? messagesApi.answer({ params: { id }, body: { body: step.body, version: step.version } })
        : messagesApi.close({ params: { id }, body: { version: step.version } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: messagingKeys.inbox }),
  });
}

/** The e-mail's "no more e-mails" link (no session: the token is the key). */
export const optOutLinkApi = {
  show: (token: string) => optOutApi.show({ params: { token } }),
  confirm: (token: string) => optOutApi.confirm({ params: { token } }),
};
