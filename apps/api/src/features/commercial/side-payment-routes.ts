import { recordParamsSchema as params } from '@odontia/shared/schemas/records';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { sendPdf } from '../../lib/pdf.ts';
import { type RequestContext, routes } from '../../plugins/routes.ts';

/**
 * The routes of one side's money (issue 17's payments to providers, issue 18's collections from
 * customers), declared once: list, record, one, allocate, mark paid, reverse and its paper. Each
 * side keeps its paths, contracts, idempotency scopes and summaries; the permissions are the same
 * for both: reads need commercial.read; recording, allocating and marking paid commercial.write; a
 * reversal undoes money already recorded, so it is a supervisor's act: commercial.delete.
 */

interface Contracts {
  listQuery: z.ZodType;
  page: z.ZodType;
  one: z.ZodType;
  create: z.ZodType;
  allocate: z.ZodType;
  paid: z.ZodType;
  reverse: z.ZodType;
}

interface Service<C extends Contracts, TPrintable> {
  list(input: { ctx: RequestContext; query: z.output<C['listQuery']> }): Promise<z.input<C['page']>>;
  create(input: { ctx: RequestContext; input: z.output<C['create']> }): Promise<unknown>;
  get(input: { ctx: RequestContext; id: string }): Promise<unknown>;
  allocate(input: { ctx: RequestContext; id: string; input: z.output<C['allocate']> }): Promise<unknown>;
  markPaid(input: { ctx: RequestContext; id: string; input: z.output<C['paid']> }): Promise<unknown>;
  reverse(input: { ctx: RequestContext; id: string; input: z.output<C['reverse']> }): Promise<unknown>;
  printable(input: { ctx: RequestContext; id: string }): Promise<TPrintable>;
}

export interface PaymentRoutesSide<C extends Contracts, TPrintable> {
  entity: 'payment' | 'collection';
  /** The collection's path: `/payments`, `/collections`. */
  path: string;
  contracts: C;
  service: Service<C, TPrintable>;
  /** Where below one its allocations are posted: `allocations`, `allocate`. */
  allocatePath: string;
  /** Where below one its paper is: `proof.pdf`, `receipt`. */
  printPath: string;
  print: (printable: TPrintable & { timeZone: string }) => Promise<{ pdf: Buffer; fileName: string }>;
  /** The `Idempotency-Key` scope of each write. */
  idempotent: { create: string; allocate: string; paid: string; reverse: string };
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

/** What a contract of the side parses to (the route helper cannot narrow a generic side's contract itself). */
type Parsed<C extends Contracts, K extends keyof Contracts> = z.output<C[K]>;

export function sidePaymentRoutes<C extends Contracts, TPrintable>(
  app: FastifyInstance,
  side: PaymentRoutesSide<C, TPrintable>,
) {
  const { entity, path, contracts, service, summaries, idempotent } = side;
  const route = routes(app, { tags: [path.slice(1)] });
  const read = { permission: 'commercial.read', failureCode: `error_get_${entity}` } as const;
  const write = { permission: 'commercial.write', failureCode: `error_update_${entity}` } as const;
  // The contract's success code is the side's own (`payment_created`, `collection_created`…).
  const answer = (data: unknown, code: string) => ({ data, code }) as z.input<C['one']>;

  route.get(
    path,
    {
      ...read,
      summary: summaries.list,
      querystring: contracts.listQuery,
      answer: contracts.page,
      ...(side.replica ? { replica: true } : {}),
    },
    ({ ctx, query }) => service.list({ ctx, query: query as Parsed<C, 'listQuery'> }),
  );

  route.post(
    path,
    {
      permission: 'commercial.write',
      failureCode: `error_create_${entity}`,
      summary: summaries.create,
      body: contracts.create,
      answer: contracts.one,
      status: 201,
      idempotent: idempotent.create,
    },
    async ({ ctx, body }) =>
      answer(await service.create({ ctx, input: body as Parsed<C, 'create'> }), `${entity}_created`),
  );

  route.get(
    `${path}/:id`,
    { ...read, summary: summaries.one, params, answer: contracts.one },
    async ({ ctx, params }) => ({ data: await service.get({ ctx, ...params }) }) as z.input<C['one']>,
  );

  route.post(
    `${path}/:id/${side.allocatePath}`,
    {
      ...write,
      summary: summaries.allocate,
      params,
      body: contracts.allocate,
      answer: contracts.one,
      idempotent: idempotent.allocate,
    },
    async ({ ctx, params, body }) =>
      answer(await service.allocate({ ctx, ...params, input: body as Parsed<C, 'allocate'> }), `${entity}_allocated`),
  );

  route.post(
    `${path}/:id/paid`,
    {
      ...write,
      summary: summaries.paid,
      params,
      body: contracts.paid,
      answer: contracts.one,
      idempotent: idempotent.paid,
    },
    async ({ ctx, params, body }) =>
      answer(await service.markPaid({ ctx, ...params, input: body as Parsed<C, 'paid'> }), `${entity}_marked_paid`),
  );

  route.post(
    `${path}/:id/reverse`,
    {
      permission: 'commercial.delete',
      failureCode: `error_update_${entity}`,
      summary: summaries.reverse,
      params,
      body: contracts.reverse,
      answer: contracts.one,
      idempotent: idempotent.reverse,
    },
    async ({ ctx, params, body }) =>
      answer(await service.reverse({ ctx, ...params, input: body as Parsed<C, 'reverse'> }), `${entity}_reversed`),
  );

  route.get(
    `${path}/:id/${side.printPath}`,
    {
      ...read,
      summary: summaries.print,
      params,
      produces: ['application/pdf'],
      transaction: false,
    },
    async ({ actor, params, reply }) => {
      const printable = await app.db.withTenant(actor.accountId, (tx) =>
        service.printable({ ctx: { ...actor, tx }, ...params }),
      );
      return sendPdf(reply, await side.print({ ...printable, timeZone: actor.timeZone }));
    },
  );
}
