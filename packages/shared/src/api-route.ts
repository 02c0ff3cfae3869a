import type { z } from 'zod';

/**
 * A route of the API declared once (issue 36): its method, path, params, query, body and answer.
 * The server serves it with `route.serve(declaration, { permission, summary, … }, handler)`
 * (apps/api/src/plugins/routes.ts: validation and the OpenAPI document come from it) and the web
 * calls it with `apiClient(declarations).name({ params, query, body })` (apps/web/src/lib/api-client.ts),
 * typed from the same contracts: a path, a field or an answer cannot drift between the two.
 *
 * What only the server decides (permission, failure code, transaction, read replica, summary)
 * stays beside the handler.
 */
export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiRoute<
  TParams extends z.ZodType | undefined = z.ZodType | undefined,
  TQuery extends z.ZodType | undefined = z.ZodType | undefined,
  TBody extends z.ZodType | undefined = z.ZodType | undefined,
  TAnswer extends z.ZodType | undefined = z.ZodType | undefined,
  TKey extends string | undefined = string | undefined,
  TMethod extends ApiMethod = ApiMethod,
  TPath extends `/${string}` = `/${string}`,
> {
  readonly method: TMethod;
  /** Fastify's form below /api: '/patients/:patientId'. */
  readonly path: TPath;
  readonly params?: TParams;
  readonly query?: TQuery;
  readonly body?: TBody;
  /** The JSON answer; none for a file (then `produces` names its media types). */
  readonly answer?: TAnswer;
  /** 201 for a create. */
  readonly status?: 200 | 201;
  /** Media types of an answer that is not JSON ('application/pdf', 'text/csv'). */
  readonly produces?: readonly string[];
  /**
   * The request body's media types when JSON is not the only one: a FHIR bundle is taken as
   * `application/json` or `application/fhir+json` (both parsed as JSON by the server).
   */
  readonly consumes?: readonly string[];
  /**
   * A write that creates or issues a document or moves money: the scope of its required
   * `Idempotency-Key` ('payments.create'); the web client then requires a key to call it.
   */
  readonly idempotent?: TKey;
}

/** Declares a route (returns it as written, so its contracts' types are kept). */
export function apiRoute<
  const TParams extends z.ZodType | undefined = undefined,
  const TQuery extends z.ZodType | undefined = undefined,
  const TBody extends z.ZodType | undefined = undefined,
  const TAnswer extends z.ZodType | undefined = undefined,
  const TKey extends string | undefined = undefined,
  const TMethod extends ApiMethod = ApiMethod,
  const TPath extends `/${string}` = `/${string}`,
>(
  route: ApiRoute<TParams, TQuery, TBody, TAnswer, TKey, TMethod, TPath>,
): ApiRoute<TParams, TQuery, TBody, TAnswer, TKey, TMethod, TPath> {
  return route;
}

/** What a declaration says of a part it may leave out: the part's type, or `undefined` when it has none. */
export type Declared<T> = [NonNullable<T>] extends [never] ? undefined : NonNullable<T>;

/** A resource's routes by name: `{ list, get, create, … }`. */
export type ApiRoutes = Readonly<Record<string, ApiRoute>>;

/** '/patients/:patientId' with `{ patientId: 'p 1' }` → '/patients/p%201' (every value encoded). */
export function fillPath(path: string, params: Readonly<Record<string, unknown>> | undefined): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === '') throw new Error(`${path}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
}

/**
 * A query object as a query string: empty values ('', null, undefined) are left out, so a list's
 * blank filters do not reach the server as `?q=`; text is trimmed; arrays repeat their name.
 */
export function queryString(query: Readonly<Record<string, unknown>> | undefined): string {
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      const text = String(item).trim();
      if (text !== '') pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(text)}`);
    }
  }
  return pairs.length ? `?${pairs.join('&')}` : '';
}

/** The OpenAPI form of a path: '/patients/:patientId' → '/patients/{patientId}'. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}
