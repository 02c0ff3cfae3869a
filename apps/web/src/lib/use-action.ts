import {
  type MutateOptions,
  type UseMutationOptions,
  type UseMutationResult,
  useMutation,
} from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';

/**
 * A new `Idempotency-Key` (a UUID v4). `crypto.randomUUID` exists only in secure contexts; a clinic
 * on plain http still has `crypto.getRandomValues`.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The same text for the same values, whatever the order of their keys. */
export function signatureOf(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/**
 * Which key an action sends (issue 35): one per user action, made when the action starts; a retry
 * of the same action (the same values, after an error or a lost answer) sends it again, so the
 * server answers the first result instead of writing twice; a success, or other values, start a
 * new action with a new key.
 */
export class ActionKeys {
  private current: { key: string; signature: string } | null = null;

  keyFor(variables: unknown): string {
    const signature = signatureOf(variables);
    if (this.current?.signature !== signature) this.current = { key: newIdempotencyKey(), signature };
    return this.current.key;
  }

  /** The action succeeded: the next one is another. */
  done(): void {
    this.current = null;
  }
}

export type ActionOptions<TData, TVariables> = Omit<UseMutationOptions<TData, Error, TVariables>, 'mutationFn'> & {
  /** The call, with the action's `Idempotency-Key` (send it: `http.post(path, body, { idempotencyKey })`). */
  mutationFn: (variables: TVariables, idempotencyKey: string) => Promise<TData>;
};

/**
 * A user action that writes — create, issue, register, invoice an attendance, reverse, allocate,
 * answer a budget — as every confirm button needs it, in one place (issue 35, items 2 and 10):
 * TanStack's `useMutation` whose call gets the action's `Idempotency-Key` (`ActionKeys`), and that
 * runs once at a time: while its request runs, another `mutate` (a double click, Enter twice) is
 * dropped — before React has drawn the button disabled — and `isPending` is true from the click,
 * for the button's `disabled` and `BusyIcon`. A dropped call's promise never settles, so the
 * second click shows no toast of its own.
 */
export function useAction<TData, TVariables = void>({
  mutationFn,
  ...options
}: ActionOptions<TData, TVariables>): UseMutationResult<TData, Error, TVariables> {
  const keys = useRef(new ActionKeys());
  const running = useRef(false);
  const [starting, setStarting] = useState(false);
  const mutation = useMutation<TData, Error, TVariables>({
    ...options,
    mutationFn: (variables) => mutationFn(variables, keys.current.keyFor(variables)),
  });
  const { mutateAsync: run } = mutation;
  const mutateAsync = useCallback(
    async (variables: TVariables, callbacks?: MutateOptions<TData, Error, TVariables>): Promise<TData> => {
      if (running.current) return new Promise<TData>(() => {});
      running.current = true;
      setStarting(true);
      try {
        const data = await run(variables, callbacks);
        keys.current.done();
        return data;
      } finally {
        running.current = false;
        setStarting(false);
      }
    },
    [run],
  );
  const mutate = useCallback(
    (variables: TVariables, callbacks?: MutateOptions<TData, Error, TVariables>) => {
      mutateAsync(variables, callbacks).catch(() => {
        // Reported through `error`, `onError` and the callbacks, as useMutation's mutate does.
      });
    },
    [mutateAsync],
  );
  return { ...mutation, mutate, mutateAsync, isPending: mutation.isPending || starting } as UseMutationResult<
    TData,
    Error,
    TVariables
  >;
}
