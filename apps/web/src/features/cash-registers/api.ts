import { cashRegisterRecord, cashSessionRoutes } from '@odontia/shared/routes/cash-registers';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiClient, type CallInput } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { isRecordId } from '../../lib/record-id';
import { obfuscatedKey } from '../../lib/storage-keys';
import { useAction } from '../../lib/use-action';

/** Cash registers (issue 40): the API's hooks over the routes declared in packages/shared. */

export const cashKeys = {
  all: ['cash'] as const,
  registers: ['cash', 'registers'] as const,
  state: (id: string) => ['cash', 'state', id] as const,
  sessions: ['cash', 'sessions'] as const,
  movements: (id: string) => ['cash', 'movements', id] as const,
  settings: ['cash', 'settings'] as const,
};

const registersApi = apiClient(cashRegisterRecord.routes);
export const cashApi = apiClient(cashSessionRoutes);

const invalidateCash = () => queryClient.invalidateQueries({ queryKey: cashKeys.all });

export function useCashRegisters(enabled = true) {
  return useQuery({
    enabled,
    queryKey: cashKeys.registers,
    queryFn: () => registersApi.list({ query: { pageSize: 100 } }),
  });
}

/** The register, its open session with its figures, and what the next opening proposes; refreshed every 15 s. */
export function useRegisterState(id: string) {
  return useQuery({
    queryKey: cashKeys.state(id),
    queryFn: () => cashApi.state({ params: { id } }).then((answer) => answer.data),
    enabled: isRecordId(id),
    refetchInterval: 15_000,
  });
}

export function useSessionMovements(sessionId: string | null, page: number) {
  return useQuery({
    queryKey: [...cashKeys.movements(sessionId ?? ''), page],
    queryFn: () => cashApi.movements({ params: { id: sessionId as string }, query: { page, pageSize: 20 } }),
    enabled: Boolean(sessionId),
    refetchInterval: 15_000,
  });
}

export type SessionFilters = CallInput<typeof cashSessionRoutes.list>['query'];

export function useCashSessions(query: SessionFilters) {
  return useQuery({
    queryKey: [...cashKeys.sessions, query],
    queryFn: () => cashApi.list({ query }),
  });
}

/** The sessions open now: the registers a collection or payment can be taken at. */
export function useOpenSessions() {
  return useQuery({
    queryKey: [...cashKeys.sessions, 'open'],
    queryFn: () => cashApi.list({ query: { status: 'open', pageSize: 100 } }),
  });
}

export function useOpenSession(registerId: string) {
  return useAction({
    mutationFn: (body: CallInput<typeof cashSessionRoutes.open>['body'], idempotencyKey) =>
      cashApi.open({ params: { id: registerId }, body, idempotencyKey }),
    onSuccess: invalidateCash,
  });
}

export function useAddMovement(sessionId: string) {
  return useAction({
    mutationFn: (body: CallInput<typeof cashSessionRoutes.addMovement>['body'], idempotencyKey) =>
      cashApi.addMovement({ params: { id: sessionId }, body, idempotencyKey }),
    onSuccess: invalidateCash,
  });
}

export function useCloseSession(sessionId: string) {
  return useAction({
    mutationFn: (body: CallInput<typeof cashSessionRoutes.close>['body'], idempotencyKey) =>
      cashApi.close({ params: { id: sessionId }, body, idempotencyKey }),
    onSuccess: invalidateCash,
  });
}

export function useCashSettings() {
  return useQuery({ queryKey: cashKeys.settings, queryFn: () => cashApi.settings().then((answer) => answer.data) });
}

export function useSaveCashSettings() {
  return useMutation({
    mutationFn: (body: CallInput<typeof cashSessionRoutes.saveSettings>['body']) => cashApi.saveSettings({ body }),
    onSuccess: invalidateCash,
  });
}

export type RegisterBody =
  | CallInput<typeof cashRegisterRecord.routes.create>['body']
  | CallInput<typeof cashRegisterRecord.routes.update>['body'];

export function useSaveRegister(id?: string) {
  return useMutation({
    mutationFn: (body: RegisterBody) =>
      id
        ? registersApi.update({
            params: { id },
            body: body as CallInput<typeof cashRegisterRecord.routes.update>['body'],
          })
        : registersApi.create({ body }),
    onSuccess: invalidateCash,
  });
}

export function useDeleteRegister(id: string) {
  return useMutation({
    mutationFn: () => registersApi.remove({ params: { id } }),
    onSuccess: invalidateCash,
  });
}

/** The register this browser last worked at (the Caja screen's choice): the forms' default. */
const lastRegisterKey = () => obfuscatedKey('cash.register');
export const lastRegister = {
  get: (): string => {
    try {
      return localStorage.getItem(lastRegisterKey()) ?? '';
    } catch {
      return '';
    }
  },
  set: (id: string) => {
    try {
      localStorage.setItem(lastRegisterKey(), id);
    } catch {
      // Private mode: no default next time.
    }
  },
};
