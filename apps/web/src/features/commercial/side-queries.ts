import type { Page } from '@odontia/shared/schemas/common';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { isRecordId } from '../../lib/record-id';
import { useAction } from '../../lib/use-action';

/**
 * The query and action hooks both sides of the commercial wing share (sales and purchases, collections
 * and payments), written once: each side configures them with its declared routes' calls
 * (`apiClient` over packages/shared/src/routes) and its query-key family (`['sales']`, `['payments']`…).
 */

/** A side's list and one record, under its key family: `[key, 'list', …]`, `[key, 'one', id]`. */
export function sideQueries<TFilters, TRow, TOne>(
  key: string,
  load: {
    list: (filters: TFilters, page: number, pageSize: number) => Promise<Page<TRow>>;
    one: (id: string) => Promise<TOne>;
  },
) {
  return {
    useList: (filters: TFilters, page: number, pageSize: number) =>
      useQuery({
        queryKey: [key, 'list', filters, page, pageSize],
        queryFn: () => load.list(filters, page, pageSize),
        placeholderData: keepPreviousData,
      }),
    /** A record open on a screen is not refetched under the user's feet. */
    useOne: (id: string) =>
      useQuery({
        queryKey: [key, 'one', id],
        queryFn: () => load.one(id),
        enabled: isRecordId(id),
        refetchOnWindowFocus: false,
      }),
  };
}

/**
 * What makes a draft final: the version it was read at, and for a sale paid at once the register
 * whose open session takes its money (issue 40).
 */
export interface FinaliseInput {
  version: number;
  registerId?: string | undefined;
}

/**
 * A side's document actions, each a user action with its Idempotency-Key (useAction): save a new
 * draft or an edit (and make it final with it), make a draft final (a sale's "issue", a purchase's
 * "register"), delete a draft; each refreshes what the side's documents move.
 */
export function documentActions<TCreate, TUpdate, TAnswer, TDeleted>(calls: {
  create: (body: TCreate, idempotencyKey: string) => Promise<TAnswer>;
  update: (id: string, body: TUpdate, idempotencyKey: string) => Promise<TAnswer>;
  finalize: (id: string, input: FinaliseInput, idempotencyKey: string) => Promise<TAnswer>;
  remove: (id: string) => Promise<TDeleted>;
  refresh: () => Promise<unknown>;
}) {
  return {
    /** A new document's fields, or an edit's (with the version it started from). */
    useSave: (id?: string) =>
      useAction({
        mutationFn: (body: TCreate | TUpdate, idempotencyKey) =>
          id ? calls.update(id, body as TUpdate, idempotencyKey) : calls.create(body as TCreate, idempotencyKey),
        onSuccess: () => calls.refresh(),
      }),
    useFinalize: (id: string) =>
      useAction({
        mutationFn: (input: FinaliseInput, idempotencyKey) => calls.finalize(id, input, idempotencyKey),
        onSuccess: () => calls.refresh(),
      }),
    useDelete: (id: string) => useAction({ mutationFn: () => calls.remove(id), onSuccess: () => calls.refresh() }),
  };
}
