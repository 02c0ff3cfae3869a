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

/** A side's list: its query (filters, sort, page) and its page of rows. */
interface ListContracts {
  listQuery: z.ZodType;
  page: z.ZodType;
}

/** A list, one record's answer and what creates one: what a side's documents and its money both have. */
interface ResourceContracts extends ListContracts {
  one: z.ZodType;
  create: z.ZodType;
}

/** A write to one document or movement (`<path>/:id…`): its body, the record's answer and its `Idempotency-Key` scope. */
function changeRoute<TBody extends z.ZodType, TAnswer extends z.ZodType, const TScope extends string>(
  method: 'POST' | 'PUT',
  path: Path,
  body: TBody,
  answer: TAnswer,
  scope: TScope,
) {
  return apiRoute({ method, path, params, body, answer, idempotent: scope });
}

/** A document's: edit a draft, make it final, delete a draft. */
interface DocumentContracts extends ResourceContracts {
  update: z.ZodType;
  /** The body of issuing a sale or registering a purchase: the version it started from. */
  finalize: z.ZodType;
  deleted: z.ZodType;
}

/** A movement's: allocate what is on account, mark paid, reverse. */
interface MovementContracts extends ResourceContracts {
  allocate: z.ZodType;
  paid: z.ZodType;
  reverse: z.ZodType;
}

/** GET <path>: the side's list. */
function listRoute<C extends ListContracts>(path: Path, contracts: C) {
  return apiRoute({
    method: 'GET',
    path,
    query: contracts.listQuery as C['listQuery'],
    answer: contracts.page as C['page'],
  });
}

/** POST <path>: a new document or movement (201), with its `Idempotency-Key` scope. */
function createRoute<C extends ResourceContracts, const TScope extends string>(
  path: Path,
  contracts: C,
  scope: TScope,
) {
  return apiRoute({
    method: 'POST',
    path,
    body: contracts.create as C['create'],
    answer: contracts.one as C['one'],
    status: 201,
    idempotent: scope,
  });
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
  const finalizeRoute = changeRoute(
    'POST',
    `${one}/${finalize}` as Path,
    contracts.finalize as C['finalize'],
    contracts.one as C['one'],
    `${side}.${finalize}`,
  );
  return {
    list: listRoute(path, contracts),
    get: apiRoute({ method: 'GET', path: one, params, answer: contracts.one as C['one'] }),
    create: createRoute(path, contracts, `${side}.create`),
    update: changeRoute('PUT', one, contracts.update as C['update'], contracts.one as C['one'], `${side}.update`),
    ...({ [finalize]: finalizeRoute } as Record<TFinalize, typeof finalizeRoute>),
    pdf: apiRoute({ method: 'GET', path: `${one}/pdf` as Path, params, produces: pdf }),
    remove: apiRoute({ method: 'DELETE', path: one, params, answer: contracts.deleted as C['deleted'] }),
  };
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
    list: listRoute(path, contracts),
    create: createRoute(path, contracts, options.createScope),
    get: apiRoute({ method: 'GET', path: one, params, answer }),
    allocate: changeRoute(
      'POST',
      `${one}/${options.allocatePath}` as Path,
      contracts.allocate as C['allocate'],
      answer,
      `${side}.allocate`,
    ),
    markPaid: changeRoute('POST', `${one}/paid` as Path, contracts.paid as C['paid'], answer, `${side}.paid`),
    reverse: changeRoute(
      'POST',
      `${one}/reverse` as Path,
      contracts.reverse as C['reverse'],
      answer,
      `${side}.reverse`,
    ),
    print: apiRoute({ method: 'GET', path: `${one}/${options.printPath}` as Path, params, produces: pdf }),
  };
}

interface AccountContracts extends ListContracts {
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
    list: listRoute(path, contracts),
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
