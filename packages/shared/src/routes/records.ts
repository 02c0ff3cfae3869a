import type { z } from 'zod';
import { apiRoute } from '../api-route.ts';
import {
  pageQuerySchema,
  patientParamsSchema,
  patientRecordParamsSchema,
  recordChangesPageSchema,
  recordChangesQuerySchema,
  recordParamsSchema,
} from '../schemas/records.ts';

/** What `recordContracts()` (schemas/records.ts) gives a record: its name and its contracts. */
export interface RecordContracts {
  name: string;
  create: z.ZodType;
  update: z.ZodType;
  one: z.ZodType;
  page: z.ZodType;
  deleted: z.ZodType;
}

/**
 * The usual routes of a versioned, soft-deleted record (docs/adding-a-domain.md), declared from
 * its path and contracts: list, one, create (201), edit (409 on a stale version), delete (soft) and
 * its history of changes. The API serves them with `recordRoutes` (plugins/record-routes.ts), the
 * web calls them with `apiClient`.
 */
export function recordApiRoutes<
  const TPath extends `/${string}`,
  TContracts extends RecordContracts,
  TListParams extends z.ZodType | undefined = undefined,
  TRecordParams extends z.ZodType = typeof recordParamsSchema,
  TListQuery extends z.ZodType = typeof pageQuerySchema,
>(options: {
  /** '/patients/:patientId/diagnoses' */
  path: TPath;
  contracts: TContracts;
  /**
   * The path's params of the list and of one record (the latter with `id`); by default a record of
   * the clinic's own, whose only param is its `id`.
   */
  params?: { list: TListParams; record: TRecordParams };
  /** The list's query when it has filters besides the page (default: the page). */
  listQuery?: TListQuery;
}) {
  const { path, contracts } = options;
  const params = options.params ?? {
    list: undefined as TListParams,
    record: recordParamsSchema as z.ZodType as TRecordParams,
  };
  const one = `${path}/:id` as `/${string}`;
  return {
    /** The record's name: its answers' codes (`<name>_created`…). */
    name: contracts.name as TContracts['name'],
    routes: {
      list: apiRoute({
        method: 'GET',
        path,
        params: params.list,
        query: (options.listQuery ?? pageQuerySchema) as TListQuery,
        answer: contracts.page as TContracts['page'],
      }),
      get: apiRoute({ method: 'GET', path: one, params: params.record, answer: contracts.one as TContracts['one'] }),
      create: apiRoute({
        method: 'POST',
        path,
        params: params.list,
        body: contracts.create as TContracts['create'],
        answer: contracts.one as TContracts['one'],
        status: 201,
      }),
      update: apiRoute({
        method: 'PUT',
        path: one,
        params: params.record,
        body: contracts.update as TContracts['update'],
        answer: contracts.one as TContracts['one'],
      }),
      remove: apiRoute({
        method: 'DELETE',
        path: one,
        params: params.record,
        answer: contracts.deleted as TContracts['deleted'],
      }),
      changes: apiRoute({
        method: 'GET',
        path: `${one}/changes`,
        params: params.record,
        query: recordChangesQuerySchema,
        answer: recordChangesPageSchema,
      }),
    },
  };
}

/** A record of a patient's medical history: /api/patients/:patientId/<collection>[/:id]. */
export function patientRecordApiRoutes<const TCollection extends string, TContracts extends RecordContracts>(
  collection: TCollection,
  contracts: TContracts,
) {
  return recordApiRoutes({
    path: `/patients/:patientId/${collection}`,
    contracts,
    params: { list: patientParamsSchema, record: patientRecordParamsSchema },
  });
}
