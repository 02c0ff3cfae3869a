import type { PerioDentition } from '@odontia/shared/perio';
import { perioExamRoutes } from '@odontia/shared/routes/perio';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient, type CallInput } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { useAction } from '../../lib/use-action';
import { markPerioData } from './render-timing';

/** A patient's periodontal exams (issue 41) through the routes declared in packages/shared. */
const client = apiClient(perioExamRoutes);

export type PerioExamBody = CallInput<typeof perioExamRoutes.create>['body'];

export const perioApi = {
  list: (patientId: string, page: number, pageSize: number) =>
    client.list({ params: { patientId }, query: { page, pageSize } }),
  get: (patientId: string, id: string) => client.get({ params: { patientId, id } }).then((answer) => answer.data),
  teeth: (patientId: string, dentition: PerioDentition | null) =>
    client.teeth({ params: { patientId }, query: dentition ? { dentition } : {} }).then((answer) => answer.data),
  create: (patientId: string, body: PerioExamBody) => client.create({ params: { patientId }, body }),
  update: (patientId: string, id: string, body: PerioExamBody & { version: number }) =>
    client.update({ params: { patientId, id }, body }),
  close: (patientId: string, id: string, version: number) =>
    client.close({ params: { patientId, id }, body: { version } }),
  remove: (patientId: string, id: string) => client.remove({ params: { patientId, id } }),
  pdf: (patientId: string, id: string) => client.pdf({ params: { patientId, id } }),
};

export const perioKey = (patientId: string) => ['perio', patientId] as const;

export function usePerioExams(patientId: string, page = 1, pageSize = 20) {
  return useQuery({
    queryKey: [...perioKey(patientId), 'list', page, pageSize],
    queryFn: () => perioApi.list(patientId, page, pageSize),
    placeholderData: keepPreviousData,
  });
}

/** One exam with its teeth; `timed` marks the render figure's start (the exam shown, not the one compared). */
export function usePerioExam(patientId: string, id: string | null, timed = false) {
  return useQuery({
    queryKey: [...perioKey(patientId), 'exam', id],
    queryFn: () => perioApi.get(patientId, id as string).then((exam) => (timed ? markPerioData(exam) : exam)),
    enabled: id !== null,
    refetchOnWindowFocus: false,
  });
}

export function usePerioTeeth(patientId: string, dentition: PerioDentition | null) {
  return useQuery({
    queryKey: [...perioKey(patientId), 'teeth', dentition ?? 'suggested'],
    queryFn: () => perioApi.teeth(patientId, dentition),
  });
}

export function useCreatePerioExam(patientId: string) {
  return useAction({
    mutationFn: (body: PerioExamBody) => perioApi.create(patientId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...perioKey(patientId), 'list'] }),
  });
}

export function useClosePerioExam(patientId: string) {
  return useAction({
    mutationFn: ({ id, version }: { id: string; version: number }) => perioApi.close(patientId, id, version),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: perioKey(patientId) }),
  });
}

export function useDiscardPerioExam(patientId: string) {
  return useAction({
    mutationFn: (id: string) => perioApi.remove(patientId, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: perioKey(patientId) }),
  });
}
