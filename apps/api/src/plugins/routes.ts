import type { ApiRoute } from '@odontia/shared/api-route';
import type { FailureCode } from '@odontia/shared/errors';
import { idempotencyHeadersSchema } from '@odontia/shared/schemas/common';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods, RouteOptions } from 'fastify';
import type { z } from 'zod';
import type { Actor, RequestContext } from '../context.ts';
import type { Database } from '../db/client.ts';
import type { TenantTx } from '../db/tenancy.ts';
import { type RoutePermission, sessionOf } from './auth.ts';
import { idempotencyKeyOf, idempotentAnswer } from './idempotency.ts';
import { lastWriteOf } from './read-your-writes.ts';

/**
 * The request context and the one way to declare an API route (docs/adding-a-domain.md).
 *
 * A route states its permission, its failure code, its summary and its contracts; the helper
 * fills in what every route repeats (tags, bearer security, the answer's status), builds the
 * request context once — who asks, for which clinic, from where — and runs the handler in ONE
 * transaction in that clinic's context. Services receive that context as `ctx` inside one object
 * argument and pass it to repositories: nobody names the clinic again.
 */

// The request context is declared once, in context.ts; routes and services import it from here too.
export type { Actor, RequestContext } from '../context.ts';

type Contract = z.ZodType | undefined;

type Parsed<TContract extends Contract> = TContract extends z.ZodType ? z.output<TContract> : undefined;

export interface RouteDefinition<
  TParams extends Contract,
  TQuery extends Contract,
  TBody extends Contract,
  TAnswer extends z.ZodType,
  TTransaction extends boolean,
> {
  permission: Exclude<RoutePermission, 'public'>;
  /** The spec's code when the action fails unexpectedly (error_get_diagnosis …). */
  failureCode?: FailureCode;
  summary: string;
  description?: string;
  params?: TParams;
  querystring?: TQuery;
  body?: TBody;
  /** The request body's media types when not JSON (an upload: multipart/form-data). */
  consumes?: string[];
  /** The answer's contract; none for a file, a PDF or a CSV the handler sends itself. */
  answer?: TAnswer;
  /** 201 for a create. */
  status?: 200 | 201;
  /** Answers of other statuses the handler may pick with `reply.status()` (an import's dry run 200, the import 201). */
  otherAnswers?: Partial<Record<200 | 201, z.ZodType>>;
  /**
   * Media types of an answer that is not JSON (['text/csv']): required without `answer`; beside
   * one, the other forms the same route answers (a report as JSON or, with `format`, a file).
   */
  produces?: string[];
  /** A larger body than the server's default (an uploaded CSV). */
  bodyLimit?: number;
  /** The route works on a locked session (me, unlock, sign-out). */
  allowLocked?: boolean;
  /** A session's only: an API token answers 403 api_token_not_allowed (issue 42: the tokens themselves). */
  sessionOnly?: boolean;
  /**
   * A write that works on a read-only clinic (issue 19: its contract overdue past the grace
   * period): sign-out, lock, unlock, the own password, renewing. Every other POST/PUT/PATCH/DELETE
   * answers 403 account_read_only there (plugins/auth.ts).
   */
  allowReadOnly?: boolean;
  /**
   * A write that creates or issues a document or moves money (ARCHITECTURE §4 "Idempotency"): the
   * scope of its `Idempotency-Key` header ('payments.create', 'sales.issue'). The key is required
   * (400 idempotency_key_required, and `required` in the OpenAPI document); the same key with the
   * same params and body answers the first result (status and body), also when sent concurrently or
   * to another instance; with others, 409 idempotency_key_reused (plugins/idempotency.ts).
   */
  idempotent?: string;
  /**
   * `false`: the handler gets the actor without a transaction and opens its own (an upload
   * streamed to disk first, a PDF rendered after the read, mail sent after the commit).
   */
  transaction?: TTransaction;
  /**
   * A GET that tolerates a second of lag (reports, the dashboard, lists): with a read replica
   * (DATABASE_REPLICA_URL) it reads there, read-only, unless the replica has not yet replayed the
   * client's last write (plugins/read-your-writes.ts) — then, as without a replica, the primary.
   */
  replica?: boolean;
}

export interface RouteInput<TParams extends Contract, TQuery extends Contract, TBody extends Contract> {
  params: Parsed<TParams>;
  query: Parsed<TQuery>;
  body: Parsed<TBody>;
  request: FastifyRequest;
  reply: FastifyReply;
}

type Handler<TInput, TContext, TAnswer extends z.ZodType> = (
  input: TInput & TContext,
) => Promise<z.input<TAnswer> | FastifyReply>;

function define(app: FastifyInstance, tags: string[], method: HTTPMethods) {
  return <
    TParams extends Contract = undefined,
    TQuery extends Contract = undefined,
    TBody extends Contract = undefined,
    TAnswer extends z.ZodType = z.ZodType,
    TTransaction extends boolean = true,
  >(
    url: string,
    definition: RouteDefinition<TParams, TQuery, TBody, TAnswer, TTransaction>,
    handler: Handler<
      RouteInput<TParams, TQuery, TBody>,
      TTransaction extends false ? { actor: Actor } : { ctx: RequestContext },
      TAnswer
    >,
  ): void => {
    const status = definition.status ?? 200;
    // A client generator reads a file answer's media type to decode it (a PDF as bytes, not text).
    if (!definition.answer && !definition.produces?.length) {
      throw new Error(`${method} ${url}: a route without an answer contract declares what it produces`);
    }
    app.route({
      method,
      url,
      ...(definition.bodyLimit ? { bodyLimit: definition.bodyLimit } : {}),
      config: {
        permission: definition.permission,
        ...(definition.failureCode ? { failureCode: definition.failureCode } : {}),
        ...(definition.allowLocked ? { allowLocked: true } : {}),
        ...(definition.sessionOnly ? { sessionOnly: true } : {}),
        ...(definition.allowReadOnly ? { allowReadOnly: true } : {}),
      },
      schema: {
        tags,
        security: [{ bearerAuth: [] }],
        summary: definition.summary,
        ...(definition.description ? { description: definition.description } : {}),
        ...(definition.params ? { params: definition.params } : {}),
        ...(definition.querystring ? { querystring: definition.querystring } : {}),
        ...(definition.idempotent ? { headers: idempotencyHeadersSchema } : {}),
        ...(definition.consumes ? { consumes: definition.consumes } : {}),
        ...(definition.body ? { body: definition.body } : {}),
        ...(definition.produces ? { produces: definition.produces } : {}),
        ...(definition.answer ? { response: { ...definition.otherAnswers, [status]: definition.answer } } : {}),
      },
      handler: async (request, reply): Promise<unknown> => {
        const actor = actorOf(request);
        const input = {
          params: request.params,
          query: request.query,
          body: request.body,
          request,
          reply,
        } as RouteInput<TParams, TQuery, TBody>;
        if (status !== 200) reply.status(status);
        if (definition.transaction === false) {
          return (handler as Handler<typeof input, { actor: Actor }, TAnswer>)({ ...input, actor });
        }
        const run = (ctx: RequestContext) =>
          (handler as Handler<typeof input, { ctx: RequestContext }, TAnswer>)({ ...input, ctx });
        const scope = definition.idempotent;
        if (scope) {
          const key = idempotencyKeyOf(request);
          return inTransaction(app.db, actor, (ctx) =>
            idempotentAnswer(ctx, { scope, key, request, readsBody: Boolean(definition.body), reply, status }, () =>
              run(ctx),
            ),
          );
        }
        if (definition.replica && method === 'GET' && !actor.patientId) {
          return app.db.withTenantRead(actor.accountId, lastWriteOf(request), (tx) => run({ ...actor, tx }));
        }
        return inTransaction(app.db, actor, run);
      },
    } as RouteOptions);
  };
}

/** What the server adds to a route declared in packages/shared: who may call it and how it runs. */
export type ServedRouteDefinition<TTransaction extends boolean> = Omit<
  RouteDefinition<undefined, undefined, undefined, z.ZodType, TTransaction>,
  'params' | 'querystring' | 'body' | 'answer' | 'status' | 'produces' | 'idempotent'
>;

type AnswerOf<TAnswer> = TAnswer extends z.ZodType ? TAnswer : z.ZodType;

/** Serves a route declared once in packages/shared (its method, path and contracts come from there). */
function serve(app: FastifyInstance, tags: string[]) {
  return <
    TParams extends Contract,
    TQuery extends Contract,
    TBody extends Contract,
    TAnswer extends Contract,
    TTransaction extends boolean = true,
  >(
    declared: ApiRoute<TParams, TQuery, TBody, TAnswer>,
    definition: ServedRouteDefinition<TTransaction>,
    handler: Handler<
      RouteInput<TParams, TQuery, TBody>,
      TTransaction extends false ? { actor: Actor } : { ctx: RequestContext },
      AnswerOf<TAnswer>
    >,
  ): void => {
    define(app, tags, declared.method)<TParams, TQuery, TBody, AnswerOf<TAnswer>, TTransaction>(
      declared.path,
      {
        ...definition,
        ...(declared.params ? { params: declared.params } : {}),
        ...(declared.query ? { querystring: declared.query } : {}),
        ...(declared.body ? { body: declared.body } : {}),
        ...(declared.answer ? { answer: declared.answer as AnswerOf<TAnswer> } : {}),
        ...(declared.status ? { status: declared.status } : {}),
        ...(declared.produces ? { produces: [...declared.produces] } : {}),
        ...(declared.consumes ? { consumes: [...declared.consumes] } : {}),
        ...(declared.idempotent ? { idempotent: declared.idempotent } : {}),
      },
      handler,
    );
  };
}

/**
 * Serves a public route declared in packages/shared (sign-up, sign-in, the mailed links, a
 * reminder's link): no session, no clinic context and no bearer security; the handler applies
 * its own key (a token in the path) and throttles, and opens what transaction it needs.
 */
function servePublic(app: FastifyInstance, tags: string[]) {
  return <TParams extends Contract, TQuery extends Contract, TBody extends Contract, TAnswer extends Contract>(
    declared: ApiRoute<TParams, TQuery, TBody, TAnswer>,
    definition: { summary: string; description?: string },
    handler: Handler<RouteInput<TParams, TQuery, TBody>, Record<never, never>, AnswerOf<TAnswer>>,
  ): void => {
    const status = declared.status ?? 200;
    app.route({
      method: declared.method,
      url: declared.path,
      config: { permission: 'public' },
      schema: {
        tags,
        summary: definition.summary,
        ...(definition.description ? { description: definition.description } : {}),
        ...(declared.params ? { params: declared.params } : {}),
        ...(declared.query ? { querystring: declared.query } : {}),
        ...(declared.body ? { body: declared.body } : {}),
        // A file a public page shows (the portal's clinic logo): its media type, as `serve` documents it.
        ...(declared.produces ? { produces: [...declared.produces] } : {}),
        ...(declared.answer ? { response: { [status]: declared.answer } } : {}),
      },
      handler: async (request, reply): Promise<unknown> => {
        if (status !== 200) reply.status(status);
        return handler({
          params: request.params,
          query: request.query,
          body: request.body,
          request,
          reply,
        } as RouteInput<TParams, TQuery, TBody>);
      },
    } as RouteOptions);
  };
}

/**
 * Runs `work` in one transaction in the actor's clinic, with the request context: what every
 * route does for its handler, and what a `transaction: false` route does itself when it is ready.
 */
export function inTransaction<T>(db: Database, actor: Actor, work: (ctx: RequestContext) => Promise<T>): Promise<T> {
  // A customer (issue 37) works as their patient: the database shows no other patient's rows.
  if (actor.patientId) return db.withPatient(actor.accountId, actor.patientId, (tx) => work({ ...actor, tx }));
  const tokenId = actor.apiTokenId;
  if (tokenId)
    return db.withTenant(actor.accountId, async (tx) => work({ ...actor, tx: await namingToken(tx, tokenId) }));
  return db.withTenant(actor.accountId, (tx) => work({ ...actor, tx }));
}

/** The transaction of an API token's request names it: the audit events it writes record it (issue 42). */
export async function namingToken(tx: TenantTx, tokenId: string): Promise<TenantTx> {
  await tx.execute(sql`select set_config('app.api_token_id', ${tokenId}, true)`);
  return tx;
}

/** The actor of an authenticated request (401 on a public one). */
export function actorOf(request: FastifyRequest): Actor {
  const session = sessionOf(request);
  return {
    accountId: session.accountId,
    userId: session.userId,
    level: session.level,
    timeZone: session.timeZone,
    ip: request.ip,
    patientId: session.patientId,
    apiTokenId: session.apiToken?.id ?? null,
  };
}

/**
 * `const route = routes(app, { tags: ['medical history'] })`, then `route.serve(declared, …)` or
 * `route.get(url, { permission, failureCode, summary, params, querystring, answer }, ({ ctx, params, query }) => …)`.
 */
export function routes(app: FastifyInstance, options: { tags: string[] }) {
  return {
    get: define(app, options.tags, 'GET'),
    post: define(app, options.tags, 'POST'),
    put: define(app, options.tags, 'PUT'),
    patch: define(app, options.tags, 'PATCH'),
    delete: define(app, options.tags, 'DELETE'),
    /** A route declared in packages/shared/src/routes (issue 36): `route.serve(patientRoutes.get, { permission, summary }, handler)`. */
    serve: serve(app, options.tags),
    /** A public route declared in packages/shared: `route.servePublic(publicAuthRoutes.signIn, { summary }, handler)`. */
    servePublic: servePublic(app, options.tags),
  };
}
