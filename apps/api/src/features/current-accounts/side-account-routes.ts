import type { ApiRoute } from '@odontia/shared/api-route';
import type { FastifyInstance } from 'fastify';
import { sendCsv } from '../../lib/csv.ts';
import { sendPdf } from '../../lib/pdf.ts';
import { inTransaction, type RequestContext, routes } from '../../plugins/routes.ts';

/**
 * The current accounts of one side (issue 17's providers, issue 18's customers), served once from
 * their declarations (`partyAccountRoutes` in packages/shared): every party's balance with the
 * totals, as CSV too, and one party's ledger as JSON, CSV and PDF. All read-only, commercial.read;
 * each side keeps its summaries and how its ledger prints.
 */

/** The side's declarations (`partyAccountRoutes` in packages/shared) the engine serves. */
type AccountRoutes = Record<'list' | 'exportCsv' | 'ledger' | 'ledgerCsv' | 'ledgerPdf', ApiRoute>;

/**
 * What the routes call; the declarations' contracts are the service's (its types are checked where
 * it is written). A ledger's input is the party's id as the path names it (`{ providerId }`,
 * `{ customerId }`) with the request context and the period.
 */
interface Service<TLedgerInput> {
  list(input: { ctx: RequestContext; query: never }): Promise<unknown>;
  exportCsv(input: { ctx: RequestContext; query: never }): Promise<CsvFile>;
  ledger(input: TLedgerInput): Promise<unknown>;
  ledgerCsv(input: TLedgerInput): Promise<CsvFile>;
}

type CsvFile = { csv: string; fileName: string };

export interface AccountRoutesSide<TLedgerInput, TPrintable> {
  declared: AccountRoutes;
  service: Service<TLedgerInput>;
  /** The ledger's paper: what it needs, read in one transaction, then rendered after it. */
  ledgerPaper: {
    read: (input: TLedgerInput) => Promise<TPrintable>;
    render: (printable: TPrintable) => Promise<{ pdf: Buffer; fileName: string }>;
  };
  summaries: { list: string; exportCsv: string; ledger: string; ledgerCsv: string; ledgerPdf: string };
}

export function sideAccountRoutes<TLedgerInput, TPrintable>(
  app: FastifyInstance,
  side: AccountRoutesSide<TLedgerInput, TPrintable>,
) {
  const { declared, service, summaries } = side;
  const route = routes(app, { tags: ['current accounts'] });
  const read = { permission: 'commercial.read', failureCode: 'error_get_current_account' } as const;
  const ledgerInput = (ctx: RequestContext, params: unknown, query: unknown) =>
    ({ ctx, ...(params as object), query }) as TLedgerInput;

  route.serve(
    declared.list,
    // A second of lag is fine: with a read replica it reads there (plugins/routes.ts).
    { ...read, summary: summaries.list, replica: true },
    ({ ctx, query }) => service.list({ ctx, query: query as never }),
  );

  route.serve(declared.exportCsv, { ...read, summary: summaries.exportCsv }, async ({ ctx, query, reply }) =>
    sendCsv(reply, await service.exportCsv({ ctx, query: query as never })),
  );

  route.serve(declared.ledger, { ...read, summary: summaries.ledger }, async ({ ctx, params, query }) => ({
    data: await service.ledger(ledgerInput(ctx, params, query)),
  }));

  route.serve(declared.ledgerCsv, { ...read, summary: summaries.ledgerCsv }, async ({ ctx, params, query, reply }) =>
    sendCsv(reply, await service.ledgerCsv(ledgerInput(ctx, params, query))),
  );

  route.serve(
    declared.ledgerPdf,
    { ...read, summary: summaries.ledgerPdf, transaction: false },
    async ({ actor, params, query, reply }) => {
      const printable = await inTransaction(app.db, actor, (ctx) =>
        side.ledgerPaper.read(ledgerInput(ctx, params, query)),
      );
      return sendPdf(reply, await side.ledgerPaper.render(printable));
    },
  );
}
