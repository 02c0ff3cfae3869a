import { type ApiRoute, type ApiRoutes, type Declared, fillPath, queryString } from '@odontia/shared/api-route';
import type { z } from 'zod';
import { http } from './http';

/**
 * The web's typed client over the routes declared in packages/shared/src/routes (issue 36):
 * `const api = apiClient(patientRoutes)`, then `api.get({ params: { patientId } })` answers the
 * route's answer type, `api.create({ body })` takes its body's type. Paths, fields and answers
 * come from the contracts the server validates with, so the two cannot drift; nobody writes a
 * path or an answer type again.
 */

type ParamsInput<R extends ApiRoute> =
  Declared<R['params']> extends z.ZodType ? { params: z.input<Declared<R['params']>> } : { params?: undefined };
type QueryInput<R extends ApiRoute> =
  Declared<R['query']> extends z.ZodType ? { query?: Partial<z.input<Declared<R['query']>>> } : { query?: undefined };
type BodyInput<R extends ApiRoute> =
  Declared<R['body']> extends z.ZodType ? { body: z.input<Declared<R['body']>> } : { body?: undefined };
/** A write that moves money or issues a document needs the user's action key (lib/use-action.ts). */
type KeyInput<R extends ApiRoute> =
  Declared<R['idempotent']> extends string ? { idempotencyKey: string } : { idempotencyKey?: undefined };

export type CallInput<R extends ApiRoute> = ParamsInput<R> &
  QueryInput<R> &
  BodyInput<R> &
  KeyInput<R> & {
    /** A call the user did not ask for (polling): it neither counts as activity nor keeps the screen unlocked. */
    background?: boolean;
  };

/** The route's JSON answer, or the file it sends (a PDF, a CSV) with the name it gives it. */
export type CallAnswer<R extends ApiRoute> =
  Declared<R['answer']> extends z.ZodType ? z.output<Declared<R['answer']>> : { blob: Blob; fileName: string | null };

/** The input may be left out when nothing in it is required. */
type Caller<R extends ApiRoute> =
  Record<never, never> extends CallInput<R>
    ? (input?: CallInput<R>) => Promise<CallAnswer<R>>
    : (input: CallInput<R>) => Promise<CallAnswer<R>>;

export type ApiClient<T extends ApiRoutes> = { readonly [K in keyof T]: Caller<T[K]> };

/** Calls one declared route. */
export function callApi<R extends ApiRoute>(
  route: R,
  input: CallInput<R> = {} as CallInput<R>,
): Promise<CallAnswer<R>> {
  const { params, query, body, idempotencyKey, background } = input as {
    params?: Record<string, unknown>;
    query?: Record<string, unknown>;
    body?: unknown;
    idempotencyKey?: string;
    background?: boolean;
  };
  const path = `${fillPath(route.path, params)}${queryString(query)}`.replace(/^\//, '');
  if (!route.answer && route.produces?.length) return http.download(path) as Promise<CallAnswer<R>>;
  // A write without a body still sends `{}`: the server reads every POST/PUT/PATCH as JSON.
  const sent = route.method === 'GET' ? undefined : route.method === 'DELETE' ? body : (body ?? {});
  return http.request<CallAnswer<R>>(route.method, path, sent, {
    ...(idempotencyKey ? { idempotencyKey } : {}),
    ...(background ? { background } : {}),
  });
}

/** A resource's routes as typed calls. */
export function apiClient<T extends ApiRoutes>(routes: T): ApiClient<T> {
  const client: Record<string, unknown> = {};
  for (const [name, route] of Object.entries(routes)) {
    client[name] = (input?: CallInput<typeof route>) => callApi(route, input);
  }
  return client as ApiClient<T>;
}

/**
 * A declared route by its method and path only, without loading its contracts: for the calls of
 * the sign-in path (the session, the sign-in form), which must not bring zod and every schema
 * into the first screen (its budget: 150 KB of JavaScript). The declaration is imported as a type
 * (`import type { sessionRoutes }`), so the compiler still checks the method and the path against
 * it, and types the call from its contracts; the server validates as for any route.
 */
export function routeAddress<R extends ApiRoute>(method: R['method'], path: R['path']): R {
  return { method, path } as R;
}

/** Every route of a resource by address (see `routeAddress`). */
export type RouteAddresses<T extends ApiRoutes> = { readonly [K in keyof T]: [T[K]['method'], T[K]['path']] };

/** A typed client over addresses only: `addressClient<typeof sessionRoutes>({ me: ['GET', '/auth/system/me'], … })`. */
export function addressClient<T extends ApiRoutes>(addresses: RouteAddresses<T>): ApiClient<T> {
  const routes = Object.fromEntries(
    Object.entries(addresses).map(([name, [method, path]]) => [name, routeAddress(method, path)]),
  ) as unknown as T;
  return apiClient(routes);
}
