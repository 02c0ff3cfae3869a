import type { UserLevel } from '@odontia/shared/enums';
import { sql } from 'drizzle-orm';
import { preparedQuery } from './prepared.ts';
import type { AppDatabase } from './tenancy.ts';

/** What the bearer-token check of a request decides on. */
export interface SessionCheck {
  sessionId: string;
  userId: string;
  accountId: string;
  level: UserLevel;
  timeZone: string;
  /** Why the session is refused: revoked or its user deactivated (`unauthorized`), or expired. */
  refusal: 'unauthorized' | 'session_expired' | null;
  /** Locked now: before this request, or by it (idle past the clinic's lock_after_minutes). */
  locked: boolean;
  /** The clinic's due date and pending renewal (issue 19): whether it is read-only. */
  planEndsAt: string | null;
  renewalRequestedAt: string | null;
  /** A customer membership's patient (issue 37): the portal's context; null for staff. */
  patientId: string | null;
}

const sessionCheck = preparedQuery<
  { tokenHash: string; at: string; background: boolean; activityIntervalMs: number },
  SessionCheck[]
>('auth_session_check', (db) =>
  db
    .select({
      sessionId: sql<string>`session_id`,
      userId: sql<string>`user_id`,
      accountId: sql<string>`account_id`,
      level: sql<UserLevel>`level`,
      timeZone: sql<string>`time_zone`,
      refusal: sql<SessionCheck['refusal']>`refusal`,
      locked: sql<boolean>`locked`,
      planEndsAt: sql<string | null>`plan_ends_at`,
      renewalRequestedAt: sql<string | null>`renewal_requested_at`,
      patientId: sql<string | null>`patient_id`,
    })
    .from(
      sql`odontia_session_check(${sql.placeholder('tokenHash')}, ${sql.placeholder('at')}::timestamptz, ${sql.placeholder('background')}::boolean, ${sql.placeholder('activityIntervalMs')}::integer)`,
    ),
);

/**
 * The session of a bearer token, checked and touched in ONE statement outside any transaction
 * (migration 0009, `odontia_session_check`, which runs in the system context: the clinic is not
 * known yet). At `at` it refreshes the last activity when it is `activityIntervalMs` old (not for
 * a `background` request) or locks the session once idle past the clinic's limit. Undefined: no
 * such session.
 */
export async function checkSession(
  db: AppDatabase,
  check: { tokenHash: string; at: Date; background: boolean; activityIntervalMs: number },
): Promise<SessionCheck | undefined> {
  const [row] = await sessionCheck(db, { ...check, at: check.at.toISOString() });
  return row;
}

/** What the bearer check of an API token (issue 42) decides on. */
export interface ApiTokenCheck {
  tokenId: string;
  kind: 'personal' | 'clinic';
  userId: string;
  accountId: string;
  /** The level it acts at: its user's (personal) or the administrator's (clinic). */
  level: UserLevel;
  scopes: string[];
  rateLimit: number;
  timeZone: string;
  /** Revoked, expired, or its user deactivated: `unauthorized`. */
  refusal: 'unauthorized' | null;
  planEndsAt: string | null;
  renewalRequestedAt: string | null;
}

const apiTokenCheck = preparedQuery<{ tokenHash: string; at: string; activityIntervalMs: number }, ApiTokenCheck[]>(
  'auth_api_token_check',
  (db) =>
    db
      .select({
        tokenId: sql<string>`token_id`,
        kind: sql<ApiTokenCheck['kind']>`kind`,
        userId: sql<string>`user_id`,
        accountId: sql<string>`account_id`,
        level: sql<UserLevel>`level`,
        scopes: sql<string[]>`scopes`,
        rateLimit: sql<number>`rate_limit`,
        timeZone: sql<string>`time_zone`,
        refusal: sql<ApiTokenCheck['refusal']>`refusal`,
        planEndsAt: sql<string | null>`plan_ends_at`,
        renewalRequestedAt: sql<string | null>`renewal_requested_at`,
      })
      .from(
        sql`odontia_api_token_check(${sql.placeholder('tokenHash')}, ${sql.placeholder('at')}::timestamptz, ${sql.placeholder('activityIntervalMs')}::integer)`,
      ),
);

/**
 * The API token of a bearer `odt_…` (migration 0053, `odontia_api_token_check`): found by its
 * hash in ONE statement outside any transaction, its `last_used_at` touched when older than
 * `activityIntervalMs`. Undefined: no such token.
 */
export async function checkApiToken(
  db: AppDatabase,
  check: { tokenHash: string; at: Date; activityIntervalMs: number },
): Promise<ApiTokenCheck | undefined> {
  const [row] = await apiTokenCheck(db, { ...check, at: check.at.toISOString() });
  return row;
}
