import { recordApiRoutes } from '@odontia/shared/routes/records';
import type { Page } from '@odontia/shared/schemas/common';
import type { pageQuerySchema, RecordChange } from '@odontia/shared/schemas/records';
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

/** A record's routes as declared in packages/shared (`recordApiRoutes`). */
type DeclaredRecord = ReturnType<typeof recordApiRoutes>;

export function recordRoutes<TParams extends object, TRecord, TCreate, TUpdate, TListed = TRecord, TListQuery = Query>(
  route: Route,
  options: (
    | {
        /** Declared in packages/shared/src/routes: the web's client calls the same declarations. */
        declared: DeclaredRecord;
      }
    | {
        declared?: undefined;
        /** '/patients/:patientId/diagnoses' */
        path: `/${string}`;
        contracts: RecordContracts<TRecord, TCreate, TUpdate>;
        /** The path's params of the list and of one record (the latter with `id`). */
        params: { list: z.ZodType<TParams>; record: z.ZodType<TParams & { id: string }> };
        /** The list's query when it has filters besides the page (default `pageQuerySchema`). */
        listQuery?: z.ZodType<TListQuery>;
      }
  ) & {
    service: RecordService<TParams, TRecord, TCreate, TUpdate, TListed, TListQuery>;
    list: Declared;
    get: Declared;
    create: Declared;
    update: Declared;
    remove: Declared;
    changes: Declared;
  },
): void {
  const { name, routes: declared } = options.declared ?? recordApiRoutes(options);
  // The declarations' contracts are the service's: its types are checked where it is written.
  const service = options.service as unknown as RecordService<object, unknown, unknown, unknown, unknown, unknown>;
  type Params = { id: string };

  route.serve(declared.list, options.list, ({ ctx, params, query }) =>
    service.list({ ctx, ...(params as Params), query }),
  );
  route.serve(declared.get, options.get, async ({ ctx, params }) => ({
    data: await service.get({ ctx, ...(params as Params) }),
  }));
  route.serve(declared.create, options.create, async ({ ctx, params, body }) => ({
    data: await service.create({ ctx, ...(params as Params), input: body }),
    code: `${name}_created`,
  }));
  route.serve(declared.update, options.update, async ({ ctx, params, body }) => ({
    data: await service.update({ ctx, ...(params as Params), input: body }),
    code: `${name}_updated`,
  }));
  route.serve(declared.remove, options.remove, async ({ ctx, params }) => {
    await service.remove({ ctx, ...(params as Params) });
    return { code: `${name}_deleted` };
  });
  route.serve(declared.changes, options.changes, ({ ctx, params, query }) =>
    service.changes({ ctx, ...(params as Params), query }),
  );
}
