import type { z } from 'zod';
import { apiRoute } from '../api-route.ts';
import { recordParamsSchema as params } from '../schemas/records.ts';

/**
 * The commercial wing's two sides — the clinic selling to its customers and buying from its
 * providers — mirror each other (issues 17, 18): a document side, a money-movement side and one
 * ledger per party. Each is declared here once and configured per side; what only one side has
 * (a sale's correction, a purchase order's reception) is declared beside it in the side's file.
 */

/** A path below /api: '/sales/:id'. */
type Path = `/${string}`;

const pdf = ['application/pdf'] as const;
const csv = ['text/csv'] as const;

interface DocumentContracts {
  listQuery: z.ZodType;
  page: z.ZodType;
  one: z.ZodType;
  create: z.ZodType;
  update: z.ZodType;
  /** The body of issuing a sale or registering a purchase: the version it started from. */
  finalize: z.ZodType;
  deleted: z.ZodType;
}

/**
 * A side's documents: list, one, create (a draft, or final at once), edit a draft, make it final
 * (`issue` a sale, `register` a purchase), its PDF and deleting a draft. Every write that makes
 * or changes a document carries an `Idempotency-Key` scoped `<side>.<action>`.
 */
export function commercialDocumentRoutes<
  const TSide extends string,
  const TFinalize extends string,
  C extends DocumentContracts,
>(options: { side: TSide; path: Path; finalize: TFinalize; contracts: C }) {
  const { side, path, finalize, contracts } = options;
  const one = `${path}/:id` as Path;
  const finalizeRoute = apiRoute({
    method: 'POST',
    path: `${one}/${finalize}` as Path,
    params,
    body: contracts.finalize as C['finalize'],
    answer: contracts.one as C['one'],
    idempotent: `${side}.${finalize}`,
  });
  return {
    list: apiRoute({
      method: 'GET',
      path,
      query: contracts.listQuery as C['listQuery'],
      answer: contracts.page as C['page'],
    }),
    get: apiRoute({ method: 'GET', path: one, params, answer: contracts.one as C['one'] }),
    create: apiRoute({
      method: 'POST',
      path,
      body: contracts.create as C['create'],
      answer: contracts.one as C['one'],
      status: 201,
      idempotent: `${side}.create`,
    }),
    update: apiRoute({
      method: 'PUT',
      path: one,
      params,
      body: contracts.update as C['update'],
      answer: contracts.one as C['one'],
      idempotent: `${side}.update`,
    }),
    ...({ [finalize]: finalizeRoute } as Record<TFinalize, typeof finalizeRoute>),
    pdf: apiRoute({ method: 'GET', path: `${one}/pdf` as Path, params, produces: pdf }),
    remove: apiRoute({ method: 'DELETE', path: one, params, answer: contracts.deleted as C['deleted'] }),
  };
}

interface MovementContracts {
  listQuery: z.ZodType;
  page: z.ZodType;
  one: z.ZodType;
  create: z.ZodType;
  allocate: z.ZodType;
  paid: z.ZodType;
  reverse: z.ZodType;
}

/**
 * A side's money (payments to providers, collections from customers): list, record, one, allocate
 * what is on account, mark paid, reverse, and its paper. Every write moves money, so each carries
 * an `Idempotency-Key` scoped `<side>.<action>` (a record's scope is the side's own: `createScope`).
 */
export function moneyMovementRoutes<
  const TSide extends string,
  const TCreateScope extends string,
  C extends MovementContracts,
>(options: {
  side: TSide;
  path: Path;
  contracts: C;
  createScope: TCreateScope;
  /** Where below one its allocations are posted: `allocations`, `allocate`. */
  allocatePath: string;
  /** Where below one its paper is: `proof.pdf`, `receipt`. */
  printPath: string;
}) {
  const { side, path, contracts } = options;
  const one = `${path}/:id` as Path;
  const answer = contracts.one as C['one'];
  return {
    list: apiRoute({
      method: 'GET',
      path,
      query: contracts.listQuery as C['listQuery'],
      answer: contracts.page as C['page'],
    }),
    create: apiRoute({
      method: 'POST',
      path,
      body: contracts.create as C['create'],
      answer,
      status: 201,
      idempotent: options.createScope,
    }),
    get: apiRoute({ method: 'GET', path: one, params, answer }),
    allocate: apiRoute({
      method: 'POST',
      path: `${one}/${options.allocatePath}` as Path,
      params,
      body: contracts.allocate as C['allocate'],
      answer,
      idempotent: `${side}.allocate`,
    }),
    markPaid: apiRoute({
      method: 'POST',
      path: `${one}/paid` as Path,
      params,
      body: contracts.paid as C['paid'],
      answer,
      idempotent: `${side}.paid`,
    }),
    reverse: apiRoute({
      method: 'POST',
      path: `${one}/reverse` as Path,
      params,
      body: contracts.reverse as C['reverse'],
      answer,
      idempotent: `${side}.reverse`,
    }),
    print: apiRoute({ method: 'GET', path: `${one}/${options.printPath}` as Path, params, produces: pdf }),
  };
}

interface AccountContracts {
  listQuery: z.ZodType;
  page: z.ZodType;
  /** The party's id in the path: `{ providerId }`, `{ customerId }`. */
  party: z.ZodType;
  ledgerQuery: z.ZodType;
  ledger: z.ZodType;
}

/**
 * One side's current accounts (issue 17's providers, issue 18's customers): every party's balance
 * with the totals, as CSV too, and one party's ledger between two dates as JSON, CSV and PDF.
 */
export function partyAccountRoutes<C extends AccountContracts>(options: {
  /** '/current-accounts/customers' */
  path: Path;
  /** One party below it: '/:customerId'. */
  party: Path;
  /** Where its ledger is below the party: '/ledger', or '' (the party itself). */
  ledger: Path | '';
  contracts: C;
}) {
  const { path, contracts } = options;
  const one = `${path}${options.party}` as Path;
  const params = contracts.party as C['party'];
  const query = contracts.ledgerQuery as C['ledgerQuery'];
  return {
    list: apiRoute({
      method: 'GET',
      path,
      query: contracts.listQuery as C['listQuery'],
      answer: contracts.page as C['page'],
    }),
    exportCsv: apiRoute({
      method: 'GET',
      path: `${path}/export.csv` as Path,
      query: contracts.listQuery as C['listQuery'],
      produces: csv,
    }),
    ledger: apiRoute({
      method: 'GET',
      path: `${one}${options.ledger}` as Path,
      params,
      query,
      answer: contracts.ledger as C['ledger'],
    }),
    ledgerCsv: apiRoute({ method: 'GET', path: `${one}/ledger.csv` as Path, params, query, produces: csv }),
    ledgerPdf: apiRoute({ method: 'GET', path: `${one}/ledger.pdf` as Path, params, query, produces: pdf }),
  };
}
