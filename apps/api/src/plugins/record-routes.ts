import type { Page } from '@odontia/shared/schemas/common';
import type { RecordChange } from '@odontia/shared/schemas/records';
import { pageQuerySchema, recordChangesPageSchema, recordChangesQuerySchema } from '@odontia/shared/schemas/records';
import type { z } from 'zod';
import type { RequestContext } from '../context.ts';
import type { RouteDefinition, routes } from './routes.ts';

/**
 * The usual routes of a versioned, soft-deleted record (docs/adding-a-domain.md): list, one,
 * create (201), edit (409 on a stale version), delete (soft) and history of changes. Each route
 * still states its own permission, failure code and summary; the contracts come from
 * `recordContracts()` in packages/shared, the work from the domain's service.
 */

type Route = ReturnType<typeof routes>;
type Declared = Pick<
  RouteDefinition<undefined, undefined, undefined, z.ZodType, true>,
  'permission' | 'failureCode' | 'summary' | 'description'
>;

interface RecordContracts<TRecord, TCreate, TUpdate> {
  name: string;
  create: z.ZodType<TCreate>;
  update: z.ZodType<TUpdate>;
  one: z.ZodType<{ data: TRecord }>;
  page: z.ZodType;
  deleted: z.ZodType;
}

type Query = z.output<typeof pageQuerySchema>;

/**
 * What the routes call: one object argument with the context, the path's params and the input.
 * The list may answer a shorter row than one record (`TListed`: an attendance's summary).
 */
export interface RecordService<TParams, TRecord, TCreate, TUpdate, TListed = TRecord, TListQuery = Query> {
  list(input: { ctx: RequestContext; query: TListQuery } & TParams): Promise<Page<TListed>>;
  get(input: { ctx: RequestContext; id: string } & TParams): Promise<TRecord>;
  create(input: { ctx: RequestContext; input: TCreate } & TParams): Promise<TRecord>;
  update(input: { ctx: RequestContext; id: string; input: TUpdate } & TParams): Promise<TRecord>;
  remove(input: { ctx: RequestContext; id: string } & TParams): Promise<void>;
  changes(input: { ctx: RequestContext; id: string; query: Query } & TParams): Promise<Page<RecordChange>>;
}

export function recordRoutes<TParams extends object, TRecord, TCreate, TUpdate, TListed = TRecord, TListQuery = Query>(
  route: Route,
  options: {
    /** '/patients/:patientId/diagnoses' */
    path: string;
    contracts: RecordContracts<TRecord, TCreate, TUpdate>;
    /** The path's params of the list and of one record (the latter with `id`). */
    params: { list: z.ZodType<TParams>; record: z.ZodType<TParams & { id: string }> };
    service: RecordService<TParams, TRecord, TCreate, TUpdate, TListed, TListQuery>;
    /** The list's query when it has filters besides the page (default `pageQuerySchema`). */
    listQuery?: z.ZodType<TListQuery>;
    list: Declared;
    get: Declared;
    create: Declared;
    update: Declared;
    remove: Declared;
    changes: Declared;
  },
): void {
  const { path, contracts, params, service } = options;
  const one = `${path}/:id`;

  route.get(
    path,
    {
      ...options.list,
      params: params.list,
      querystring: (options.listQuery ?? pageQuerySchema) as z.ZodType<TListQuery>,
      answer: contracts.page,
    },
    ({ ctx, params, query }) => service.list({ ctx, ...params, query: query as TListQuery }),
  );
  route.get(one, { ...options.get, params: params.record, answer: contracts.one }, async ({ ctx, params }) => ({
    data: await service.get({ ctx, ...params }),
  }));
  route.post(
    path,
    { ...options.create, params: params.list, body: contracts.create, answer: contracts.one, status: 201 },
    async ({ ctx, params, body }) => ({
      data: await service.create({ ctx, ...params, input: body }),
      code: `${contracts.name}_created`,
    }),
  );
  route.put(
    one,
    { ...options.update, params: params.record, body: contracts.update, answer: contracts.one },
    async ({ ctx, params, body }) => ({
      data: await service.update({ ctx, ...params, input: body }),
      code: `${contracts.name}_updated`,
    }),
  );
  route.delete(
    one,
    { ...options.remove, params: params.record, answer: contracts.deleted },
    async ({ ctx, params }) => {
      await service.remove({ ctx, ...params });
      return { code: `${contracts.name}_deleted` };
    },
  );
  route.get(
    `${one}/changes`,
    {
      ...options.changes,
      params: params.record,
      querystring: recordChangesQuerySchema,
      answer: recordChangesPageSchema,
    },
    ({ ctx, params, query }) => service.changes({ ctx, ...params, query }),
  );
}
