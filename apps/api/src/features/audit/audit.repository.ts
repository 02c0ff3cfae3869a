import { createHash } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { auditEvents } from '../../db/schema/index.ts';
import type { SystemTx, TenantTx } from '../../db/tenancy.ts';
import { canonicalJson } from '../../lib/canonical-json.ts';
import { newId } from '../../lib/ids.ts';

/**
 * The audit trail (ARCHITECTURE §4): one row per event, chained per clinic —
 * `hash = sha256(prev_hash ‖ canonical JSON of the event)` and `seq` counts 1, 2, 3… A
 * transaction-scoped advisory lock per clinic keeps the chain a line under concurrency; the
 * unique `(account_id, seq)` would refuse a fork anyway.
 */

export interface AuditEventInput {
  accountId: string;
  userId?: string | null;
  patientId?: string | null;
  action: string;
  entity: string;
  entityId?: string | null;
  before?: unknown;
  after?: unknown;
  ip?: string | null;
}

export function auditHash(prevHash: string | null, event: Record<string, unknown>): string {
  return createHash('sha256')
    .update(prevHash ?? '')
    .update(canonicalJson(event))
    .digest('hex');
}

export async function recordAuditEvent(tx: TenantTx | SystemTx, input: AuditEventInput): Promise<void> {
  await recordAuditEvents(tx, [input]);
}

/**
 * Several events of ONE clinic, chained in the order given: one lock, one read of the chain's end
 * and one insert whatever their number (a batch of reminders sent is a batch of events).
 */
export async function recordAuditEvents(tx: TenantTx | SystemTx, inputs: readonly AuditEventInput[]): Promise<void> {
  const accountId = inputs[0]?.accountId;
  if (!accountId) return;
  if (inputs.some((input) => input.accountId !== accountId)) throw new Error('audit events of one clinic at a time');
  // The lock, and the API token the transaction was opened for (issue 42: its writes name it).
  const locked = await tx.execute<{ token: string | null }>(
    sql`select pg_advisory_xact_lock(hashtextextended(${`audit:${accountId}`}, 0)), nullif(current_setting('app.api_token_id', true), '') as token`,
  );
  const apiTokenId = locked.rows[0]?.token ?? null;
  const [last] = await tx
    .select({ seq: auditEvents.seq, hash: auditEvents.hash })
    .from(auditEvents)
    .where(eq(auditEvents.accountId, accountId))
    .orderBy(desc(auditEvents.seq))
    .limit(1);
  const createdAt = new Date();
  let seq = last?.seq ?? 0;
  let prevHash = last?.hash ?? null;
  const rows = inputs.map((input) => {
    seq += 1;
    const event = {
      accountId,
      id: newId(),
      seq,
      userId: input.userId ?? null,
      patientId: input.patientId ?? null,
      action: input.action,
      entity: input.entity,
      entityId: input.entityId ?? null,
      before: input.before ?? null,
      after: input.after ?? null,
      ip: input.ip ?? null,
      // Only when there is one: the events of sessions and jobs hash as they always did.
      ...(apiTokenId ? { apiTokenId } : {}),
      createdAt: createdAt.toISOString(),
    };
    const hash = auditHash(prevHash, event);
    const row = { ...event, createdAt, prevHash, hash };
    prevHash = hash;
    return row;
  });
  await tx.insert(auditEvents).values(rows);
}

/** The clinic's events, oldest first (tests, and later the audit screen). */
export function listAuditEvents(tx: TenantTx, filter: { action?: string } = {}) {
  return tx
    .select()
    .from(auditEvents)
    .where(filter.action ? and(eq(auditEvents.action, filter.action)) : undefined)
    .orderBy(auditEvents.seq);
}

/** Who writes an audit event and where: the request context has all of it. */
export interface AuditActor {
  readonly tx: TenantTx;
  readonly accountId: string;
  readonly userId: string;
  readonly ip: string;
}

/** The audit event of an action by the request's actor, in the request's transaction. */
export function audit(ctx: AuditActor, event: Omit<AuditEventInput, 'accountId' | 'userId' | 'ip'>): Promise<void> {
  return recordAuditEvent(ctx.tx, { ...event, accountId: ctx.accountId, userId: ctx.userId, ip: ctx.ip });
}

/**
 * A change to the clinic's own settings (a part of its account row): the fields that differ, and
 * the version of the row they replaced.
 */
export function auditClinicSettings(
  ctx: Pick<AuditActor, 'tx' | 'accountId'> & { readonly userId: string | null; readonly ip: string | null },
  action: string,
  change: { before: Record<string, unknown>; after: Record<string, unknown> },
  version: number,
): Promise<void> {
  return recordAuditEvent(ctx.tx, {
    accountId: ctx.accountId,
    userId: ctx.userId,
    ip: ctx.ip,
    action,
    entity: 'account',
    entityId: ctx.accountId,
    before: { ...change.before, version },
    after: change.after,
  });
}

/**
 * The audit events of one kind of record, named after it: `auditAuthorization(ctx, id, 'signed',
 * { patientId, before, after })` records the action `authorization_signed` on that authorization.
 */
export function recordAudit(entity: string) {
  return (
    ctx: AuditActor,
    entityId: string,
    what: string,
    event: Pick<AuditEventInput, 'patientId' | 'before' | 'after'> = {},
  ): Promise<void> => audit(ctx, { ...event, action: `${entity}_${what}`, entity, entityId });
}
