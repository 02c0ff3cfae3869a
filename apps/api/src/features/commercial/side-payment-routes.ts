import type { ApiRoute } from '@odontia/shared/api-route';
import type { FastifyInstance } from 'fastify';
import { sendPdf } from '../../lib/pdf.ts';
import { type RequestContext, routes } from '../../plugins/routes.ts';

/**
 * The routes of one side's money (issue 17's payments to providers, issue 18's collections from
 * customers), served once from their declarations (`moneyMovementRoutes` in packages/shared): list,
 * record, one, allocate, mark paid, reverse and its paper. Each side keeps its summaries; the permissions are the same
 * for both: reads need commercial.read; recording, allocating and marking paid commercial.write; a
 * reversal undoes money already recorded, so it is a supervisor's act: commercial.delete.
 */

/** The side's declarations (`moneyMovementRoutes` in packages/shared) the engine serves. */
type MovementRoutes = Record<'list' | 'create' | 'get' | 'allocate' | 'markPaid' | 'reverse' | 'print', ApiRoute>;

/** What the routes call; the declarations' contracts are the service's (its types are checked where it is written). */
interface Service<TPrintable> {
  list(input: { ctx: RequestContext; query: never }): Promise<unknown>;
  create(input: { ctx: RequestContext; input: never }): Promise<unknown>;
  get(input: { ctx: RequestContext; id: string }): Promise<unknown>;
  allocate(input: { ctx: RequestContext; id: string; input: never }): Promise<unknown>;
  markPaid(input: { ctx: RequestContext; id: string; input: never }): Promise<unknown>;
  reverse(input: { ctx: RequestContext; id: string; input: never }): Promise<unknown>;
  printable(input: { ctx: RequestContext; id: string }): Promise<TPrintable>;
}

export interface PaymentRoutesSide<TPrintable> {
  entity: 'payment' | 'collection';
  /** The side's tag in the OpenAPI document: 'payments', 'collections'. */
  tag: string;
  declared: MovementRoutes;
  service: Service<TPrintable>;
  print: (printable: TPrintable & { timeZone: string }) => Promise<{ pdf: Buffer; fileName: string }>;
  summaries: {
    list: string;
    create: string;
    one: string;
    allocate: string;
    paid: string;
    reverse: string;
    print: string;
  };
  /** The list tolerates a second of lag: with a read replica it reads there (plugins/routes.ts). */
  replica?: boolean;
}

type Params = { id: string };

export function sidePaymentRoutes<TPrintable>(app: FastifyInstance, side: PaymentRoutesSide<TPrintable>) {
  const { entity, declared, service, summaries } = side;
  const route = routes(app, { tags: [side.tag] });
  const read = { permission: 'commercial.read', failureCode: `error_get_${entity}` } as const;
  const write = { permission: 'commercial.write', failureCode: `error_update_${entity}` } as const;
  // The contract's success code is the side's own (`payment_created`, `collection_created`…).
  const answer = (data: unknown, code: string) => ({ data, code });

  route.serve(
    declared.list,
    { ...read, summary: summaries.list, ...(side.replica ? { replica: true } : {}) },
    ({ ctx, query }) => service.list({ ctx, query: query as never }),
  );

  route.serve(
    declared.create,
    { permission: 'commercial.write', failureCode: `error_create_${entity}`, summary: summaries.create },
    async ({ ctx, body }) => answer(await service.create({ ctx, input: body as never }), `${entity}_created`),
  );

  route.serve(declared.get, { ...read, summary: summaries.one }, async ({ ctx, params }) => ({
    data: await service.get({ ctx, ...(params as Params) }),
  }));

  route.serve(declared.allocate, { ...write, summary: summaries.allocate }, async ({ ctx, params, body }) =>
    answer(await service.allocate({ ctx, ...(params as Params), input: body as never }), `${entity}_allocated`),
  );

  route.serve(declared.markPaid, { ...write, summary: summaries.paid }, async ({ ctx, params, body }) =>
    answer(await service.markPaid({ ctx, ...(params as Params), input: body as never }), `${entity}_marked_paid`),
  );

  route.serve(
    declared.reverse,
    { permission: 'commercial.delete', failureCode: `error_update_${entity}`, summary: summaries.reverse },
    async ({ ctx, params, body }) =>
      answer(await service.reverse({ ctx, ...(params as Params), input: body as never }), `${entity}_reversed`),
  );

  route.serve(
    declared.print,
    { ...read, summary: summaries.print, transaction: false },
    async ({ actor, params, reply }) => {
      const printable = await app.db.withTenant(actor.accountId, (tx) =>
        service.printable({ ctx: { ...actor, tx }, ...(params as Params) }),
      );
      return sendPdf(reply, await side.print({ ...printable, timeZone: actor.timeZone }));
    },
  );
}
