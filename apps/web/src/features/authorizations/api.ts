import { authorizationRoutes, authorizationTemplateRoutes } from '@odontia/shared/routes/authorizations';
import type { TemplateKind } from '@odontia/shared/schemas/authorizations';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { apiClient, type CallAnswer, type CallInput } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { isRecordId } from '../../lib/record-id';
import { useAction } from '../../lib/use-action';

/** Treatment authorizations of a patient and the clinic's consent templates (issue 6). */

const enc = encodeURIComponent;

export const authorizationPaths = {
  tab: (patientId: string) => `/patients/${enc(patientId)}/mh?tab=authorizations`,
  create: (patientId: string) => `/patients/${enc(patientId)}/mh/authorization/new`,
  show: (patientId: string, id: string) => `/patients/${enc(patientId)}/mh/authorization/show/${enc(id)}`,
  edit: (patientId: string, id: string) => `/patients/${enc(patientId)}/mh/authorization/edit/${enc(id)}`,
  templates: '/settings/authorization-templates',
};

type Answer = CallAnswer<typeof authorizationRoutes.get>;
type Body<R extends keyof typeof authorizationRoutes> = CallInput<(typeof authorizationRoutes)[R]>['body'];
type TemplateBody<R extends keyof typeof authorizationTemplateRoutes> = CallInput<
  (typeof authorizationTemplateRoutes)[R]
>['body'];

export const authorizationsApi = apiClient(authorizationRoutes);
const templatesApi = apiClient(authorizationTemplateRoutes);

const key = ['authorizations'] as const;
export const authorizationKey = (patientId: string, id: string) => [...key, patientId, 'one', id] as const;
const templatesKey = [...key, 'templates'] as const;

export function useAuthorizations(patientId: string, page: number, pageSize: number, status?: 'signed' | 'unsigned') {
  return useQuery({
    queryKey: [...key, patientId, 'list', page, pageSize, status ?? 'all'],
    queryFn: () => authorizationsApi.list({ params: { patientId }, query: { page, pageSize, status } }),
    placeholderData: keepPreviousData,
  });
}

export function useAuthorization(patientId: string, id: string) {
  return useQuery({
    queryKey: authorizationKey(patientId, id),
    queryFn: () => authorizationsApi.get({ params: { patientId, id } }).then((answer) => answer.data),
    enabled: isRecordId(patientId) && isRecordId(id),
    refetchOnWindowFocus: false,
    retry: (count, error) => count < 2 && !(error as { status?: number }).status,
  });
}

export function useAuthorizationChanges(patientId: string, id: string, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...key, patientId, 'changes', id, page, pageSize],
    queryFn: () => authorizationsApi.changes({ params: { patientId, id }, query: { page, pageSize } }),
    placeholderData: keepPreviousData,
  });
}

/** The clinic's templates: of one kind (consent for authorizations) or every kind, active ones or all. */
export function useTemplates(options: { active?: boolean; kind?: TemplateKind } = {}) {
  return useQuery({
    queryKey: [...templatesKey, options.active ? 'active' : 'all', options.kind ?? 'every'],
    queryFn: () =>
      templatesApi.list({
        query: { page: 1, pageSize: 100, kind: options.kind, ...(options.active ? { active: 'true' } : {}) },
      }),
  });
}

async function refresh(): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: key });
}

/** Stores an answer of a mutation as the authorization, and refreshes the lists. */
function keep(patientId: string) {
  return (answer: Answer) => {
    queryClient.setQueryData(authorizationKey(patientId, answer.data.id), answer.data);
    return queryClient.invalidateQueries({
      queryKey: key,
      predicate: (query) => query.queryKey[2] !== 'one',
    });
  };
}

export function useSaveAuthorization(patientId: string, id?: string) {
  return useMutation({
    mutationFn: (body: Body<'create'> | Body<'update'>): Promise<Answer> =>
      id
        ? authorizationsApi.update({ params: { patientId, id }, body: body as Body<'update'> })
        : authorizationsApi.create({ params: { patientId }, body: body as Body<'create'> }),
    onSuccess: keep(patientId),
  });
}

/** Signing, revoking and deleting run once per click (useAction: a double click sends one request). */
export function useSignAuthorization(patientId: string, id: string) {
  return useAction({
    mutationFn: (body: Body<'sign'>) => authorizationsApi.sign({ params: { patientId, id }, body }),
    onSuccess: keep(patientId),
  });
}

export function useUnsignAuthorization(patientId: string, id: string) {
  return useAction({
    mutationFn: (reason: string) => authorizationsApi.unsign({ params: { patientId, id }, body: { reason } }),
    onSuccess: keep(patientId),
  });
}

export function useDeleteAuthorization(patientId: string, id: string) {
  return useAction({ mutationFn: () => authorizationsApi.remove({ params: { patientId, id } }), onSuccess: refresh });
}

export function useSaveTemplate(id?: string) {
  return useMutation({
    mutationFn: (body: TemplateBody<'create'> | TemplateBody<'update'>) =>
      id
        ? templatesApi.update({ params: { id }, body: body as TemplateBody<'update'> })
        : templatesApi.create({ body: body as TemplateBody<'create'> }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templatesKey }),
  });
}

export function useDeleteTemplate(id: string) {
  return useMutation({
    mutationFn: () => templatesApi.remove({ params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templatesKey }),
  });
}
