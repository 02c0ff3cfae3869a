import type {
  Authorization,
  AuthorizationDetail,
  AuthorizationTemplate,
  AuthorizationVerification,
  TemplateKind,
} from '@odontia/shared/schemas/authorizations';
import type { Page } from '@odontia/shared/schemas/common';
import type { RecordChange } from '@odontia/shared/schemas/records';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { http } from '../../lib/http';
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

const collection = (patientId: string) => `patients/${enc(patientId)}/authorizations`;
const one = (patientId: string, id: string) => `${collection(patientId)}/${enc(id)}`;

type Answer = { data: AuthorizationDetail; code?: string };
type TemplateAnswer = { data: AuthorizationTemplate; code?: string };

export const authorizationsApi = {
  list: (patientId: string, page: number, pageSize: number, status?: string) =>
    http.get<Page<Authorization>>(
      `${collection(patientId)}?page=${page}&pageSize=${pageSize}${status ? `&status=${status}` : ''}`,
    ),
  get: (patientId: string, id: string) => http.get<Answer>(one(patientId, id)),
  create: (patientId: string, body: unknown) => http.post<Answer>(collection(patientId), body),
  update: (patientId: string, id: string, body: unknown) => http.put<Answer>(one(patientId, id), body),
  remove: (patientId: string, id: string) => http.delete<{ code: string }>(one(patientId, id)),
  sign: (patientId: string, id: string, body: unknown) => http.post<Answer>(`${one(patientId, id)}/sign`, body),
  unsign: (patientId: string, id: string, reason: string) =>
    http.post<Answer>(`${one(patientId, id)}/unsign`, { reason }),
  verify: (patientId: string, id: string) =>
    http.get<{ data: AuthorizationVerification }>(`${one(patientId, id)}/verify`),
  pdf: (patientId: string, id: string) => http.download(`${one(patientId, id)}/pdf`),
  changes: (patientId: string, id: string, page: number, pageSize: number) =>
    http.get<Page<RecordChange>>(`${one(patientId, id)}/changes?page=${page}&pageSize=${pageSize}`),
  templates: (params: { active?: boolean; kind?: TemplateKind; page?: number; pageSize?: number }) => {
    const query = new URLSearchParams({ page: String(params.page ?? 1), pageSize: String(params.pageSize ?? 100) });
    if (params.active) query.set('active', 'true');
    if (params.kind) query.set('kind', params.kind);
    return http.get<Page<AuthorizationTemplate>>(`authorization-templates?${query}`);
  },
  createTemplate: (body: unknown) => http.post<TemplateAnswer>('authorization-templates', body),
  updateTemplate: (id: string, body: unknown) => http.put<TemplateAnswer>(`authorization-templates/${enc(id)}`, body),
  removeTemplate: (id: string) => http.delete<{ code: string }>(`authorization-templates/${enc(id)}`),
};

const key = ['authorizations'] as const;
export const authorizationKey = (patientId: string, id: string) => [...key, patientId, 'one', id] as const;
const templatesKey = [...key, 'templates'] as const;

export function useAuthorizations(patientId: string, page: number, pageSize: number, status?: string) {
  return useQuery({
    queryKey: [...key, patientId, 'list', page, pageSize, status ?? 'all'],
    queryFn: () => authorizationsApi.list(patientId, page, pageSize, status),
    placeholderData: keepPreviousData,
  });
}

export function useAuthorization(patientId: string, id: string) {
  return useQuery({
    queryKey: authorizationKey(patientId, id),
    queryFn: () => authorizationsApi.get(patientId, id).then((answer) => answer.data),
    enabled: isRecordId(patientId) && isRecordId(id),
    refetchOnWindowFocus: false,
    retry: (count, error) => count < 2 && !(error as { status?: number }).status,
  });
}

export function useAuthorizationChanges(patientId: string, id: string, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...key, patientId, 'changes', id, page, pageSize],
    queryFn: () => authorizationsApi.changes(patientId, id, page, pageSize),
    placeholderData: keepPreviousData,
  });
}

/** The clinic's templates: of one kind (consent for authorizations) or every kind, active ones or all. */
export function useTemplates(options: { active?: boolean; kind?: TemplateKind } = {}) {
  return useQuery({
    queryKey: [...templatesKey, options.active ? 'active' : 'all', options.kind ?? 'every'],
    queryFn: () => authorizationsApi.templates(options),
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
    mutationFn: (body: unknown) =>
      id ? authorizationsApi.update(patientId, id, body) : authorizationsApi.create(patientId, body),
    onSuccess: keep(patientId),
  });
}

/** Signing, revoking and deleting run once per click (useAction: a double click sends one request). */
export function useSignAuthorization(patientId: string, id: string) {
  return useAction({
    mutationFn: (body: { signerName: string; signerIdNumber: string; signature: string }) =>
      authorizationsApi.sign(patientId, id, body),
    onSuccess: keep(patientId),
  });
}

export function useUnsignAuthorization(patientId: string, id: string) {
  return useAction({
    mutationFn: (reason: string) => authorizationsApi.unsign(patientId, id, reason),
    onSuccess: keep(patientId),
  });
}

export function useDeleteAuthorization(patientId: string, id: string) {
  return useAction({ mutationFn: () => authorizationsApi.remove(patientId, id), onSuccess: refresh });
}

export function useSaveTemplate(id?: string) {
  return useMutation({
    mutationFn: (body: unknown) =>
      id ? authorizationsApi.updateTemplate(id, body) : authorizationsApi.createTemplate(body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templatesKey }),
  });
}

export function useDeleteTemplate(id: string) {
  return useMutation({
    mutationFn: () => authorizationsApi.removeTemplate(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templatesKey }),
  });
}
