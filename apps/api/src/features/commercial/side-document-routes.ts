import type { ApiRoute } from '@odontia/shared/api-route';
import type { FastifyInstance } from 'fastify';
import { sendPdf } from '../../lib/pdf.ts';
import { type RequestContext, routes } from '../../plugins/routes.ts';

/**
 * The routes of one side's documents (issue 17's purchases, issue 18's sales), served once from
 * their declarations (`commercialDocumentRoutes` in packages/shared): list, one, create, edit a
 * draft, make it final, its PDF and deleting a draft. Each side keeps its summaries and failure
 * codes; the permissions are the same for both: reads need commercial.read, writes
 * commercial.write, and deleting a draft commercial.delete (docs/permissions.md: the user level has none).
 */

/** The side's declarations the engine serves (the side adds its own routes beside them). */
type DocumentRoutes<TFinalize extends string> = Record<TFinalize, ApiRoute> & {
  list: ApiRoute;
  get: ApiRoute;
  create: ApiRoute;
  update: ApiRoute;
  pdf: ApiRoute;
  remove: ApiRoute;
};

/** What the routes call; the declarations' contracts are the service's (its types are checked where it is written). */
type Service<TFinalize extends string, TPrintable> = Record<
  TFinalize,
  (input: { ctx: RequestContext; id: string; version: number; registerId?: string | null }) => Promise<unknown>
> & {
  list(input: { ctx: RequestContext; query: never }): Promise<unknown>;
  get(input: { ctx: RequestContext; id: string }): Promise<unknown>;
  create(input: { ctx: RequestContext; input: never }): Promise<unknown>;
  update(input: { ctx: RequestContext; id: string; input: never }): Promise<unknown>;
  remove(input: { ctx: RequestContext; id: string }): Promise<unknown>;
  printable(input: { ctx: RequestContext; id: string }): Promise<TPrintable>;
};

export interface DocumentRoutesSide<TFinalize extends string, TPrintable> {
  /** 'sale', 'purchase': its failure codes (`error_get_sale`…) and, plural, its OpenAPI tag. */
  entity: 'sale' | 'purchase';
  /** Making a draft final, the declaration's and the service's name: `issue` a sale, `register` a purchase. */
  finalize: TFinalize;
  declared: DocumentRoutes<TFinalize>;
  service: Service<TFinalize, TPrintable>;
  print: (printable: TPrintable) => Promise<{ pdf: Buffer; fileName: string }>;
  summaries: {
    list: string;
    one: string;
    create: string;
    update: string;
    finalize: string;
    pdf: string;
    remove: string;
  };
  /** The list tolerates a second of lag: with a read replica it reads there (plugins/routes.ts). */
  replica?: boolean;
}

type Params = { id: string };

export function sideDocumentRoutes<const TFinalize extends string, TPrintable>(
  app: FastifyInstance,
  side: DocumentRoutesSide<TFinalize, TPrintable>,
) {
  const { entity, declared, service, summaries } = side;
  const route = routes(app, { tags: [`${entity}s`] });
  const read = { permission: 'commercial.read', failureCode: `error_get_${entity}` } as const;
  const write = { permission: 'commercial.write', failureCode: `error_update_${entity}` } as const;

  route.serve(
    declared.list,
    { ...read, summary: summaries.list, ...(side.replica ? { replica: true } : {}) },
    ({ ctx, query }) => service.list({ ctx, query: query as never }),
  );

  route.serve(declared.get, { ...read, summary: summaries.one }, async ({ ctx, params }) => ({
    data: await service.get({ ctx, ...(params as Params) }),
  }));

  route.serve(
    declared.create,
    { ...write, failureCode: `error_create_${entity}`, summary: summaries.create },
    ({ ctx, body }) => service.create({ ctx, input: body as never }),
  );

  route.serve(declared.update, { ...write, summary: summaries.update }, ({ ctx, params, body }) =>
    service.update({ ctx, ...(params as Params), input: body as never }),
  );

  route.serve(declared[side.finalize], { ...write, summary: summaries.finalize }, ({ ctx, params, body }) =>
    service[side.finalize]({
      ctx,
      ...(params as Params),
      ...(body as { version: number; registerId?: string | null }),
    }),
  );

  route.serve(
    declared.pdf,
    { ...read, summary: summaries.pdf, transaction: false },
    async ({ actor, params, reply }) => {
      const printed = await app.db.withTenant(actor.accountId, (tx) =>
        service.printable({ ctx: { ...actor, tx }, ...(params as Params) }),
      );
      return sendPdf(reply, await side.print(printed));
    },
  );

  route.serve(
    declared.remove,
    { permission: 'commercial.delete', failureCode: `error_delete_${entity}`, summary: summaries.remove },
    ({ ctx, params }) => service.remove({ ctx, ...(params as Params) }),
  );
}
