import type { UserLevel } from '@odontia/shared/enums';
import { can, type PermissionAction, permissionActions, tokenScopeActions } from '@odontia/shared/permissions';
import { accountStateAt } from '@odontia/shared/schemas/account';
import { apiTokenPrefix } from '@odontia/shared/schemas/api-tokens';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { checkApiToken, checkSession } from '../db/session-check.ts';
import type { TenantTx } from '../db/tenancy.ts';
import { countAttempt, throttleKeyHash } from '../db/throttle-counters.ts';
import { AppError } from '../lib/app-error.ts';
import { hashToken } from '../lib/tokens.ts';

/**
 * Authentication and authorization of every API route.
 *
 * Each route under `<base>api` declares `config: { permission }`: `'public'`, `'authenticated'`
 * (any signed-in level) or an action of the permission matrix. A route without one stops
 * start-up. For a non-public route the `Authorization: Bearer <token>` header is looked up by
 * its sha256 (system context: the clinic is not known yet); the session must exist, not be
 * revoked or expired, and belong to an active user. A session idle longer than the clinic's
 * `lockAfterMinutes` becomes locked; a locked session answers 401 `session_locked` except on
 * routes with `config.allowLocked` (me, unlock, sign-out). A level without the action answers
 * 403 `forbidden`. A clinic past its due date and grace period (issue 19) answers 403
 * `account_read_only` to every POST/PUT/PATCH/DELETE but those with `config.allowReadOnly`. Each request counts as activity, except one sent with `x-background: 1`
 * (polling), which neither counts nor keeps the screen unlocked.
 *
 * An API token (issue 42: `Bearer odt_…`) is looked up in `api_tokens` instead
 * (`odontia_api_token_check`): revoked, expired or its person deactivated answers 401
 * `unauthorized`; no lock or idle rule applies. It may call only routes whose permission is an
 * action a token may hold (`tokenScopeActions`): a person's own routes ('authenticated',
 * `profile.manage`: sign-out, password, sessions, the tokens themselves) answer 403
 * `api_token_not_allowed`; an action outside its scopes 403 `api_token_scope_missing`, outside its
 * level 403 `forbidden`. Each request counts against the token's own limit per minute in the
 * shared throttle table (`countAttempt`, every instance sees the same count): 429
 * `too_many_requests` with Retry-After.
 */

export type RoutePermission = 'public' | 'authenticated' | PermissionAction;

export interface AuthSession {
  sessionId: string;
  userId: string;
  accountId: string;
  level: UserLevel;
  locked: boolean;
  /** The clinic's IANA time zone: its "today" is `clinicToday(session.timeZone)`. */
  timeZone: string;
  /** A customer session's patient (issue 37, `users.patient_id`); null for staff. */
  patientId: string | null;
  /** The API token the request came with (issue 42); null for a session. */
  apiToken: { id: string; kind: 'personal' | 'clinic'; scopes: ReadonlySet<string> } | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every API route with its declared permission, as registered (tests list them). */
    apiRoutes: { method: string; url: string; permission: RoutePermission }[];
  }
  interface FastifyContextConfig {
    permission?: RoutePermission;
    /** The route works on a locked session (me, unlock, sign-out). */
    allowLocked?: boolean;
    /** The write works on a read-only clinic (sign-out, lock, unlock, password, renew). */
    allowReadOnly?: boolean;
    /** A session's only: an API token may not call it (issue 42). */
    sessionOnly?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in session; null on public routes. */
    session: AuthSession | null;
    /** Runs `fn` in one transaction in the context of the session's clinic. */
    tenant<T>(fn: (tx: TenantTx) => Promise<T>): Promise<T>;
  }
}

const knownPermissions = new Set<string>(['public', 'authenticated', ...permissionActions]);

export const backgroundHeader = 'x-background';

/** The session of an authenticated request; throws `unauthorized` on a public one. */
export function sessionOf(request: FastifyRequest): AuthSession {
  if (!request.session) throw new AppError('unauthorized');
  return request.session;
}

/**
 * A request refreshes its session's last activity at most this often: the idle lock counts in
 * minutes, and a write (and its commit) on every request would cost each call several ms.
 */
export const activityWriteIntervalMs = 30_000;

/** An API token's requests are counted in windows of this length (its limit is per minute). */
export const apiTokenWindowMs = 60_000;

/** What makes a clinic read-only (issue 19): whether due dates are enforced (plans configured) and the grace days. */
export interface ContractRules {
  enforced: boolean;
  graceDays: number;
}

const readMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

export const authentication = fp(
  async (app: FastifyInstance, options: { apiPrefix: string; contract?: ContractRules }) => {
    const { apiPrefix } = options;
    const contract = options.contract ?? { enforced: false, graceDays: 0 };
    const docsPrefix = `${apiPrefix}/docs`;

    const apiRoutes: FastifyInstance['apiRoutes'] = [];
    app.decorate('apiRoutes', apiRoutes);
    app.addHook('onRoute', (route) => {
      const url = route.url ?? '';
      if (url !== apiPrefix && !url.startsWith(`${apiPrefix}/`)) return;
      const methods = Array.isArray(route.method) ? route.method.join(',') : route.method;
      if (url === docsPrefix || url.startsWith(`${docsPrefix}/`)) {
        // The OpenAPI UI's own routes (registered by @fastify/swagger-ui) are public.
        route.config = { ...route.config, permission: route.config?.permission ?? 'public' };
        apiRoutes.push({ method: methods, url, permission: 'public' });
        return;
      }
      const permission = route.config?.permission;
      if (permission === undefined) {
        throw new Error(`Route ${methods} ${url} declares no permission (config.permission)`);
      }
      if (!knownPermissions.has(permission)) {
        throw new Error(`Route ${methods} ${url} declares an unknown permission "${permission}"`);
      }
      apiRoutes.push({ method: methods, url, permission });
    });

    app.decorateRequest('session', null);
    app.decorateRequest('tenant', function tenant<T>(this: FastifyRequest, fn: (tx: TenantTx) => Promise<T>) {
      const session = sessionOf(this);
      // A customer's every transaction runs as their patient, even on the shared session routes.
      if (session.patientId) return app.db.withPatient(session.accountId, session.patientId, fn);
      const tokenId = session.apiToken?.id;
      if (!tokenId) return app.db.withTenant(session.accountId, fn);
      return app.db.withTenant(session.accountId, async (tx) => {
        await tx.execute(sql`select set_config('app.api_token_id', ${tokenId}, true)`);
        return fn(tx);
      });
    });

    app.addHook('onRequest', async (request) => {
      const config = request.routeOptions.config;
      const permission = config?.permission;
      if (permission === undefined || permission === 'public') return;

      const header = request.headers.authorization;
      const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
      if (!match?.[1]) throw new AppError('unauthorized');
      const tokenHash = hashToken(match[1]);
      const background = request.headers[backgroundHeader] === '1';
      if (match[1].startsWith(apiTokenPrefix)) {
        request.session = await apiTokenSession(app, request, tokenHash, permission, contract);
        return;
      }

      // One statement, never cached: a revoked, expired, locked or deactivated session is refused
      // on its very next request.
      const found = await checkSession(app.db.orm, {
        tokenHash,
        at: new Date(),
        background,
        activityIntervalMs: activityWriteIntervalMs,
      });
      if (!found || found.refusal === 'unauthorized') throw new AppError('unauthorized');
      if (found.refusal === 'session_expired') throw new AppError('session_expired');
      const session: AuthSession = {
        sessionId: found.sessionId,
        userId: found.userId,
        accountId: found.accountId,
        level: found.level,
        locked: found.locked,
        timeZone: found.timeZone,
        patientId: found.patientId,
        apiToken: null,
      };

      if (session.locked && !config.allowLocked) throw new AppError('session_locked');
      if (permission !== 'authenticated' && !can(session.level, permission)) throw new AppError('forbidden');
      // A clinic past its due date and grace period reads and exports everything but writes
      // nothing (issue 19): decided from the session check's own answer, no query of its own.
      if (
        contract.enforced &&
        !readMethods.has(request.method) &&
        !config.allowReadOnly &&
        accountStateAt({
          endsAt: found.planEndsAt,
          renewalRequestedAt: found.renewalRequestedAt,
          graceDays: contract.graceDays,
          enforced: true,
        }) === 'read_only'
      )
        throw new AppError('account_read_only', { dueDate: found.planEndsAt });
      request.session = session;
    });
  },
  { name: 'authentication' },
);

async function apiTokenSession(
  app: FastifyInstance,
  request: FastifyRequest,
  tokenHash: string,
  permission: Exclude<RoutePermission, 'public'>,
  contract: ContractRules,
): Promise<AuthSession> {
  const now = new Date();
  const found = await checkApiToken(app.db.orm, { tokenHash, at: now, activityIntervalMs: activityWriteIntervalMs });
  if (!found || found.refusal) throw new AppError('unauthorized');
  // Counted first, refused or not: a token cannot hammer the API with requests it may not make.
  await app.db.withSystem((tx) =>
    countAttempt(
      tx,
      [{ keyHash: throttleKeyHash(`api-token:${found.tokenId}`), limit: found.rateLimit, windowMs: apiTokenWindowMs }],
      now.getTime(),
    ),
  );
  if (permission === 'authenticated' || !tokenScopes.has(permission) || request.routeOptions.config.sessionOnly)
    throw new AppError('api_token_not_allowed');
  if (!can(found.level, permission)) throw new AppError('forbidden');
  if (!found.scopes.includes(permission)) throw new AppError('api_token_scope_missing', { action: permission });
  if (
    contract.enforced &&
    !readMethods.has(request.method) &&
    !request.routeOptions.config.allowReadOnly &&
    accountStateAt({
      endsAt: found.planEndsAt,
      renewalRequestedAt: found.renewalRequestedAt,
      graceDays: contract.graceDays,
      enforced: true,
    }) === 'read_only'
  )
    throw new AppError('account_read_only', { dueDate: found.planEndsAt });
  return {
    sessionId: found.tokenId,
    userId: found.userId,
    accountId: found.accountId,
    level: found.level,
    locked: false,
    timeZone: found.timeZone,
    patientId: null,
    apiToken: { id: found.tokenId, kind: found.kind, scopes: new Set(found.scopes) },
  };
}

const tokenScopes = new Set<string>(tokenScopeActions);
