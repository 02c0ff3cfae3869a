import type { PaymentMethod } from '@odontia/shared/enums';
import { type AnyColumn, and, asc, count, desc, eq, gte, isNull, lte, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TxContext } from '../../context.ts';
import { recordRepository } from '../../db/records.ts';
import {
  cashMovements,
  cashRegisterSettings,
  cashRegisters,
  cashSessionCounts,
  cashSessions,
  users,
} from '../../db/schema/index.ts';

/**
 * The registers, sessions, movements and counts of the clinic (issue 40). Every statement names
 * the clinic first (and row-level security checks it again); the session's figures are one
 * aggregate over `cash_movements_session_idx`.
 */

export const registersRepository = recordRepository({
  table: cashRegisters,
  scope: [],
  order: [asc(cashRegisters.name), asc(cashRegisters.id)],
});

export type RegisterRow = typeof cashRegisters.$inferSelect;
export type SessionRow = typeof cashSessions.$inferSelect;
export type MovementKind = (typeof cashMovements.$inferInsert)['kind'];

const professional = alias(users, 'cash_register_professional');
const creator = alias(users, 'cash_register_creator');
const updater = alias(users, 'cash_register_updater');

const sameClinicUser = (user: { accountId: AnyColumn; id: AnyColumn }, column: AnyColumn) =>
  and(eq(user.accountId, cashRegisters.accountId), eq(user.id, column));

/** Registers with the names of their professional and of who wrote them (one query, left joins). */
function registersWithNames(ctx: TxContext) {
  return ctx.tx
    .select({
      register: cashRegisters,
      professionalName: professional.completeName,
      createdByName: creator.completeName,
      updatedByName: updater.completeName,
    })
    .from(cashRegisters)
    .leftJoin(professional, sameClinicUser(professional, cashRegisters.professionalId))
    .leftJoin(creator, sameClinicUser(creator, cashRegisters.createdBy))
    .leftJoin(updater, sameClinicUser(updater, cashRegisters.updatedBy))
    .$dynamic();
}

export type NamedRegister = RegisterRow & {
  professionalName: string | null;
  createdByName: string | null;
  updatedByName: string | null;
};

const flatten = (row: {
  register: RegisterRow;
  professionalName: string | null;
  createdByName: string | null;
  updatedByName: string | null;
}): NamedRegister => ({
  ...row.register,
  professionalName: row.professionalName,
  createdByName: row.createdByName,
  updatedByName: row.updatedByName,
});

const liveRegisters = (ctx: TxContext) =>
  and(eq(cashRegisters.accountId, ctx.accountId), isNull(cashRegisters.deletedAt));

export async function findRegister(ctx: TxContext, id: string): Promise<NamedRegister | undefined> {
  const [row] = await registersWithNames(ctx).where(and(liveRegisters(ctx), eq(cashRegisters.id, id)));
  return row ? flatten(row) : undefined;
}

export async function pageRegisters(ctx: TxContext, page: { page: number; pageSize: number }) {
  const rows = await registersWithNames(ctx)
    .where(liveRegisters(ctx))
    .orderBy(asc(cashRegisters.name), asc(cashRegisters.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  const [total] = await ctx.tx.select({ n: count() }).from(cashRegisters).where(liveRegisters(ctx));
  return { rows: rows.map(flatten), total: total?.n ?? 0 };
}

/** The live register with this name (case-insensitive): who holds a name a 409 names. */
export async function findRegisterByName(ctx: TxContext, name: string) {
  const [row] = await ctx.tx
    .select({ id: cashRegisters.id, name: cashRegisters.name })
    .from(cashRegisters)
    .where(and(liveRegisters(ctx), sql`lower(${cashRegisters.name}) = lower(${name})`));
  return row;
}

/** An active user of the clinic (a register's professional). */
export async function isActiveUser(ctx: TxContext, userId: string): Promise<boolean> {
  const [row] = await ctx.tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.accountId, ctx.accountId), eq(users.id, userId), eq(users.active, true)));
  return row !== undefined;
}

// ── Settings ────────────────────────────────────────────────────────────────

export async function findSettings(ctx: TxContext, lock = false) {
  const query = ctx.tx.select().from(cashRegisterSettings).where(eq(cashRegisterSettings.accountId, ctx.accountId));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function saveSettings(ctx: TxContext & { userId: string }, cashNeedsOpenSession: boolean) {
  await ctx.tx
    .insert(cashRegisterSettings)
    .values({ accountId: ctx.accountId, cashNeedsOpenSession, updatedBy: ctx.userId, version: 2 })
    .onConflictDoUpdate({
      target: cashRegisterSettings.accountId,
      set: {
        cashNeedsOpenSession,
        updatedBy: ctx.userId,
        updatedAt: new Date(),
        version: sql`${cashRegisterSettings.version} + 1`,
      },
    });
}

// ── Sessions ────────────────────────────────────────────────────────────────

const opener = alias(users, 'cash_session_opener');
const closer = alias(users, 'cash_session_closer');

function sessionsWithNames(ctx: TxContext) {
  return ctx.tx
    .select({
      session: cashSessions,
      registerName: cashRegisters.name,
      openedByName: opener.completeName,
      closedByName: closer.completeName,
    })
    .from(cashSessions)
    .innerJoin(
      cashRegisters,
      and(eq(cashRegisters.accountId, cashSessions.accountId), eq(cashRegisters.id, cashSessions.registerId)),
    )
    .leftJoin(opener, and(eq(opener.accountId, cashSessions.accountId), eq(opener.id, cashSessions.openedBy)))
    .leftJoin(closer, and(eq(closer.accountId, cashSessions.accountId), eq(closer.id, cashSessions.closedBy)))
    .$dynamic();
}

export type NamedSession = SessionRow & {
  registerName: string;
  openedByName: string | null;
  closedByName: string | null;
};

const flattenSession = (row: {
  session: SessionRow;
  registerName: string;
  openedByName: string | null;
  closedByName: string | null;
}): NamedSession => ({
  ...row.session,
  registerName: row.registerName,
  openedByName: row.openedByName,
  closedByName: row.closedByName,
});

export async function findSession(ctx: TxContext, id: string): Promise<NamedSession | undefined> {
  const [row] = await sessionsWithNames(ctx).where(
    and(eq(cashSessions.accountId, ctx.accountId), eq(cashSessions.id, id)),
  );
  return row ? flattenSession(row) : undefined;
}

/**
 * The session locked: `update` for a closing (it waits for every movement being written, whose
 * writers hold `share`), `share` for a movement (many at once; never while a closing runs).
 */
export async function lockSession(ctx: TxContext, id: string, strength: 'update' | 'share') {
  const [row] = await ctx.tx
    .select()
    .from(cashSessions)
    .where(and(eq(cashSessions.accountId, ctx.accountId), eq(cashSessions.id, id)))
    .for(strength);
  return row;
}

/** The register's open session, locked for a movement (share) or not at all. */
export async function findOpenSession(ctx: TxContext, registerId: string, lock?: 'share') {
  const query = ctx.tx
    .select()
    .from(cashSessions)
    .where(
      and(
        eq(cashSessions.accountId, ctx.accountId),
        eq(cashSessions.registerId, registerId),
        eq(cashSessions.status, 'open'),
      ),
    );
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

export async function findOpenSessionWithNames(ctx: TxContext, registerId: string) {
  const [row] = await sessionsWithNames(ctx).where(
    and(
      eq(cashSessions.accountId, ctx.accountId),
      eq(cashSessions.registerId, registerId),
      eq(cashSessions.status, 'open'),
    ),
  );
  return row ? flattenSession(row) : undefined;
}

/** The register's last closing: what it left in the drawer. */
export async function lastClosing(ctx: TxContext, registerId: string) {
  const [row] = await ctx.tx
    .select({
      id: cashSessions.id,
      number: cashSessions.number,
      closedAt: cashSessions.closedAt,
      cashLeft: cashSessions.cashLeft,
    })
    .from(cashSessions)
    .where(
      and(
        eq(cashSessions.accountId, ctx.accountId),
        eq(cashSessions.registerId, registerId),
        eq(cashSessions.status, 'closed'),
      ),
    )
    .orderBy(desc(cashSessions.openedAt), desc(cashSessions.id))
    .limit(1);
  return row;
}

export async function insertSession(ctx: TxContext, row: Omit<typeof cashSessions.$inferInsert, 'accountId'>) {
  await ctx.tx.insert(cashSessions).values({ ...row, accountId: ctx.accountId });
}

export async function closeSession(
  ctx: TxContext,
  id: string,
  change: Pick<
    typeof cashSessions.$inferInsert,
    | 'number'
    | 'closedAt'
    | 'closedBy'
    | 'closedOn'
    | 'expectedTotal'
    | 'countedTotal'
    | 'differenceTotal'
    | 'cashLeft'
    | 'explanation'
  >,
) {
  await ctx.tx
    .update(cashSessions)
    .set({ ...change, status: 'closed', version: sql`${cashSessions.version} + 1` })
    .where(and(eq(cashSessions.accountId, ctx.accountId), eq(cashSessions.id, id)));
}

export async function insertCounts(
  ctx: TxContext,
  sessionId: string,
  counts: { method: PaymentMethod; expected: string; counted: string; difference: string }[],
) {
  if (counts.length === 0) return;
  await ctx.tx
    .insert(cashSessionCounts)
    .values(counts.map((count) => ({ ...count, accountId: ctx.accountId, sessionId })));
}

export async function countsOf(ctx: TxContext, sessionId: string) {
  return ctx.tx
    .select()
    .from(cashSessionCounts)
    .where(and(eq(cashSessionCounts.accountId, ctx.accountId), eq(cashSessionCounts.sessionId, sessionId)));
}

export interface SessionListFilter {
  registerId?: string | undefined;
  status?: 'open' | 'closed' | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export async function pageSessions(
  ctx: TxContext,
  filter: SessionListFilter,
  page: { page: number; pageSize: number },
) {
  const conditions: (SQL | undefined)[] = [eq(cashSessions.accountId, ctx.accountId)];
  if (filter.registerId) conditions.push(eq(cashSessions.registerId, filter.registerId));
  if (filter.status) conditions.push(eq(cashSessions.status, filter.status));
  if (filter.from) conditions.push(gte(cashSessions.closedOn, filter.from));
  if (filter.to) conditions.push(lte(cashSessions.closedOn, filter.to));
  const where = and(...conditions);
  const rows = await sessionsWithNames(ctx)
    .where(where)
    .orderBy(desc(cashSessions.openedAt), desc(cashSessions.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  const [total] = await ctx.tx.select({ n: count() }).from(cashSessions).where(where);
  return { rows: rows.map(flattenSession), total: total?.n ?? 0 };
}

// ── Movements ───────────────────────────────────────────────────────────────

export async function insertMovements(
  ctx: TxContext & { userId: string },
  rows: Omit<typeof cashMovements.$inferInsert, 'accountId' | 'createdBy'>[],
) {
  if (rows.length === 0) return;
  await ctx.tx
    .insert(cashMovements)
    .values(rows.map((row) => ({ ...row, accountId: ctx.accountId, createdBy: ctx.userId })));
}

/** The session's movements summed per method and kind: one aggregate over the session's index. */
export async function sessionTotals(ctx: TxContext, sessionId: string) {
  const rows = await ctx.tx
    .select({
      method: cashMovements.method,
      kind: cashMovements.kind,
      count: count(),
      income: sql<string>`coalesce(sum(${cashMovements.amount}) filter (where ${cashMovements.amount} > 0), 0)::numeric(20,2)::text`,
      outgo: sql<string>`coalesce(-sum(${cashMovements.amount}) filter (where ${cashMovements.amount} < 0), 0)::numeric(20,2)::text`,
      amount: sql<string>`sum(${cashMovements.amount})::numeric(20,2)::text`,
    })
    .from(cashMovements)
    .where(and(eq(cashMovements.accountId, ctx.accountId), eq(cashMovements.sessionId, sessionId)))
    .groupBy(cashMovements.method, cashMovements.kind);
  return rows;
}

const mover = alias(users, 'cash_movement_creator');

export async function pageMovements(ctx: TxContext, sessionId: string, page: { page: number; pageSize: number }) {
  const where = and(eq(cashMovements.accountId, ctx.accountId), eq(cashMovements.sessionId, sessionId));
  const rows = await ctx.tx
    .select({ movement: cashMovements, createdByName: mover.completeName })
    .from(cashMovements)
    .leftJoin(mover, and(eq(mover.accountId, cashMovements.accountId), eq(mover.id, cashMovements.createdBy)))
    .where(where)
    .orderBy(desc(cashMovements.createdAt), desc(cashMovements.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  const [total] = await ctx.tx.select({ n: count() }).from(cashMovements).where(where);
  return { rows: rows.map((row) => ({ ...row.movement, createdByName: row.createdByName })), total: total?.n ?? 0 };
}

/** Every movement of a session in order (the Z report's list). */
export async function allMovements(ctx: TxContext, sessionId: string) {
  return ctx.tx
    .select()
    .from(cashMovements)
    .where(and(eq(cashMovements.accountId, ctx.accountId), eq(cashMovements.sessionId, sessionId)))
    .orderBy(asc(cashMovements.createdAt), asc(cashMovements.id));
}

/** The movements a collection or payment made at a register (not their reversals). */
export async function movementsOfPayment(ctx: TxContext, paymentId: string) {
  return ctx.tx
    .select()
    .from(cashMovements)
    .where(
      and(
        eq(cashMovements.accountId, ctx.accountId),
        eq(cashMovements.paymentId, paymentId),
        sql`${cashMovements.kind} in ('collection', 'payment')`,
      ),
    );
}

/**
 * Where a collection's or payment's money went through the registers: per session (its register,
 * its closing's number once closed) what it took and what its reversal gave back, in order.
 * Over `cash_movements_payment_idx`.
 */
export async function registerTrailOfPayment(ctx: TxContext, paymentId: string) {
  return ctx.tx
    .select({
      sessionId: cashMovements.sessionId,
      registerId: cashSessions.registerId,
      registerName: cashRegisters.name,
      closingNumber: cashSessions.number,
      reversal: sql<boolean>`${cashMovements.kind} in ('collection_reversal', 'payment_reversal')`,
      amount: sql<string>`sum(${cashMovements.amount})::text`,
    })
    .from(cashMovements)
    .innerJoin(
      cashSessions,
      and(eq(cashSessions.accountId, cashMovements.accountId), eq(cashSessions.id, cashMovements.sessionId)),
    )
    .innerJoin(
      cashRegisters,
      and(eq(cashRegisters.accountId, cashSessions.accountId), eq(cashRegisters.id, cashSessions.registerId)),
    )
    .where(and(eq(cashMovements.accountId, ctx.accountId), eq(cashMovements.paymentId, paymentId)))
    .groupBy(
      cashMovements.sessionId,
      cashSessions.registerId,
      cashRegisters.name,
      cashSessions.number,
      sql`${cashMovements.kind} in ('collection_reversal', 'payment_reversal')`,
    )
    .orderBy(sql`min(${cashMovements.createdAt})`);
}
