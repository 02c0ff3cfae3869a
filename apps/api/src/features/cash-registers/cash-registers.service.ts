import { clinicToday } from '@odontia/shared/clinic-time';
import { type PaymentMethod, paymentMethods } from '@odontia/shared/enums';
import type {
  CashMethodTotal,
  CashMovement,
  CashRegister,
  CashSession,
  CashSessionListItem,
  CashSessionListQuery,
  CashSettings,
  cashRegisterContracts,
  closeCashSessionSchema,
  createCashMovementSchema,
  openCashSessionSchema,
} from '@odontia/shared/schemas/cash-registers';
import type { PageQuery } from '@odontia/shared/schemas/records';
import Big from 'big.js';
import type { z } from 'zod';
import type { RequestContext } from '../../context.ts';
import { nextCounterValue } from '../../db/counters.ts';
import { guardUnique, violatedConstraint } from '../../db/errors.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import { auditedRecords } from '../audit/audited-records.ts';
import { invalidFields, requireProfessional } from '../clinical/clinical.service.ts';
import * as repository from './cash-registers.repository.ts';

/**
 * Cash registers (cajas, issue 40; docs/decisions.md "Cash registers"). A register has at most one
 * open session (the partial unique index `cash_sessions_one_open` decides a race: 409
 * cash_session_already_open). A session opens with the cash counted in the drawer (an `opening`
 * movement of the float), receives one movement per part of every collection and payment made
 * at it and every manual income, expense or withdrawal, and closes with what was counted per
 * method: expected is the sum of its movements, the difference is stored, a difference needs an
 * explanation, and the closing takes the clinic's next Z number. A closed session, its movements
 * and its count never change (the migration's triggers refuse it).
 */

type Ctx = RequestContext;
type RegisterInput = z.output<typeof cashRegisterContracts.create>;
type RegisterColumns = {
  name: string;
  kind: 'front_desk' | 'professional';
  professionalId: string | null;
  active: boolean;
};

const registerColumns = (input: RegisterColumns): RegisterColumns => ({
  name: input.name,
  kind: input.kind,
  professionalId: input.kind === 'professional' ? (input.professionalId ?? null) : null,
  active: input.active,
});

const presentRegister = (row: repository.NamedRegister): CashRegister => ({
  id: row.id,
  name: row.name,
  kind: row.kind,
  professionalId: row.professionalId,
  professionalName: row.professionalName,
  active: row.active,
  createdAt: row.createdAt.toISOString(),
  createdByName: row.createdByName,
  updatedAt: row.updatedAt.toISOString(),
  updatedByName: row.updatedByName,
  version: row.version,
});

const registers = auditedRecords({
  repository: {
    ...repository.registersRepository,
    find: (ctx: Ctx, _scope: Record<string, never>, id: string) => repository.findRegister(ctx, id),
  },
  entity: 'cash_register',
  notFound: 'cash_register_not_found',
  columnsOf: registerColumns,
  present: presentRegister,
});

/** A name another live register has: 409 cash_register_exists. */
function uniqueName<T>(ctx: Ctx, name: string, write: () => Promise<T>): Promise<T> {
  return guardUnique(ctx.tx, write, async (error) => {
    const holder = await repository.findRegisterByName(ctx, name);
    if (!holder) throw error;
    throw new AppError('cash_register_exists', { field: 'name', register: holder });
  });
}

async function checkRegisterInput(ctx: Ctx, input: RegisterInput) {
  if (input.kind === 'professional' && input.professionalId) await requireProfessional(ctx, input.professionalId);
}

/** A register with an open session is neither deactivated nor deleted: close it first. */
async function refuseIfOpen(ctx: Ctx, registerId: string) {
  const open = await repository.findOpenSession(ctx, registerId);
  if (open) throw new AppError('cash_register_in_use', { session: open.id });
}

export const cashRegistersService = {
  async list({ ctx, query }: { ctx: Ctx; query: PageQuery }) {
    const { rows, total } = await repository.pageRegisters(ctx, query);
    return { data: rows.map(presentRegister), total, page: query.page, pageSize: query.pageSize };
  },
  get: ({ ctx, id }: { ctx: Ctx; id: string }) => registers.get(ctx, {}, id),
  async create({ ctx, input }: { ctx: Ctx; input: RegisterInput }) {
    await checkRegisterInput(ctx, input);
    return uniqueName(ctx, input.name, () =>
      registers.create(ctx, {}, registerColumns({ ...input, professionalId: input.professionalId ?? null })),
    );
  },
  async update({ ctx, id, input }: { ctx: Ctx; id: string; input: RegisterInput & { version: number } }) {
    await checkRegisterInput(ctx, input);
    return uniqueName(ctx, input.name, () =>
      registers.update(
        ctx,
        {},
        id,
        { version: input.version, next: registerColumns({ ...input, professionalId: input.professionalId ?? null }) },
        async (current) => {
          if (current.active && !input.active) await refuseIfOpen(ctx, id);
        },
      ),
    );
  },
  remove: ({ ctx, id }: { ctx: Ctx; id: string }) => registers.remove(ctx, {}, id, () => refuseIfOpen(ctx, id)),
  changes: ({ ctx, id, query }: { ctx: Ctx; id: string; query: PageQuery }) => registers.changes(ctx, {}, id, query),
};

// ── Settings ────────────────────────────────────────────────────────────────

const auditSettings = recordAudit('cash_settings');

export const cashSettingsService = {
  async get({ ctx }: { ctx: Ctx }): Promise<CashSettings> {
    const row = await repository.findSettings(ctx);
    return { cashNeedsOpenSession: row?.cashNeedsOpenSession ?? false, version: row?.version ?? 1 };
  },
  async save({ ctx, input }: { ctx: Ctx; input: { cashNeedsOpenSession: boolean; version: number } }) {
    const row = await repository.findSettings(ctx, true);
    const current = { cashNeedsOpenSession: row?.cashNeedsOpenSession ?? false, version: row?.version ?? 1 };
    if (current.version !== input.version) throw new AppError('version_conflict', { current });
    await repository.saveSettings(ctx, input.cashNeedsOpenSession);
    await auditSettings(ctx, ctx.accountId, 'updated', {
      before: current,
      after: { cashNeedsOpenSession: input.cashNeedsOpenSession, version: current.version + 1 },
    });
    return cashSettingsService.get({ ctx });
  },
};

// ── Sessions ────────────────────────────────────────────────────────────────

const auditSession = recordAudit('cash_session');
const money = (value: Big.BigSource) => new Big(value).toFixed(2);

/** The session's figures per method: in, out, expected (their sum) and, once closed, counted and difference. */
async function methodTotals(ctx: Ctx, session: repository.SessionRow, known?: KnownFigures) {
  const rows = known?.totals ?? (await repository.sessionTotals(ctx, session.id));
  const counts = known?.counts ?? (session.status === 'closed' ? await repository.countsOf(ctx, session.id) : []);
  const byMethod = new Map<PaymentMethod, { income: Big; outgo: Big; expected: Big }>();
  let movementCount = 0;
  for (const row of rows) {
    const entry = byMethod.get(row.method) ?? { income: new Big(0), outgo: new Big(0), expected: new Big(0) };
    entry.income = entry.income.plus(row.income);
    entry.outgo = entry.outgo.plus(row.outgo);
    entry.expected = entry.expected.plus(row.amount);
    byMethod.set(row.method, entry);
    movementCount += row.count;
  }
  for (const count of counts) {
    if (!byMethod.has(count.method))
      byMethod.set(count.method, { income: new Big(0), outgo: new Big(0), expected: new Big(0) });
  }
  const methods: CashMethodTotal[] = paymentMethods
    .filter((method) => byMethod.has(method))
    .map((method) => {
      const entry = byMethod.get(method) as { income: Big; outgo: Big; expected: Big };
      const count = counts.find((item) => item.method === method);
      return {
        method,
        income: money(entry.income),
        outgo: money(entry.outgo),
        expected: money(entry.expected),
        counted: count ? money(count.counted) : null,
        difference: count ? money(count.difference) : null,
      };
    });
  return { methods, movementCount, byKind: rows };
}

/** A session's figures already read in the same transaction (a closing's aggregate and counts). */
interface KnownFigures {
  totals: Awaited<ReturnType<typeof repository.sessionTotals>>;
  counts: { method: PaymentMethod; counted: string; difference: string }[];
}

async function presentSession(ctx: Ctx, row: repository.NamedSession, known?: KnownFigures): Promise<CashSession> {
  const { methods, movementCount } = await methodTotals(ctx, row, known);
  const optionalMoney = (value: string | null) => (value === null ? null : money(value));
  return {
    id: row.id,
    registerId: row.registerId,
    registerName: row.registerName,
    status: row.status,
    number: row.number,
    openedAt: row.openedAt.toISOString(),
    openedByName: row.openedByName,
    openingFloat: money(row.openingFloat),
    carriedBalance: money(row.carriedBalance),
    openingDifference: money(row.openingDifference),
    openingNotes: row.openingNotes,
    closedAt: row.closedAt?.toISOString() ?? null,
    closedByName: row.closedByName,
    closedOn: row.closedOn,
    expectedTotal: optionalMoney(row.expectedTotal),
    countedTotal: optionalMoney(row.countedTotal),
    differenceTotal: optionalMoney(row.differenceTotal),
    cashLeft: optionalMoney(row.cashLeft),
    explanation: row.explanation,
    movementCount,
    methods,
    version: row.version,
  };
}

async function getSession(ctx: Ctx, id: string, known?: KnownFigures): Promise<CashSession> {
  const row = await repository.findSession(ctx, id);
  if (!row) throw new AppError('cash_session_not_found');
  return presentSession(ctx, row, known);
}

/** The live register, or 404. */
async function requireRegister(ctx: Ctx, id: string) {
  const register = await repository.findRegister(ctx, id);
  if (!register) throw new AppError('cash_register_not_found');
  return register;
}

const cashLeftOf = (last: Awaited<ReturnType<typeof repository.lastClosing>>) => money(last?.cashLeft ?? 0);

const manualSign: Record<'income' | 'expense' | 'withdrawal', 1 | -1> = { income: 1, expense: -1, withdrawal: -1 };

export const cashSessionsService = {
  get: ({ ctx, id }: { ctx: Ctx; id: string }) => getSession(ctx, id),

  /** The register, its open session and what the next opening proposes. */
  async state({ ctx, id }: { ctx: Ctx; id: string }) {
    const register = await requireRegister(ctx, id);
    const open = await repository.findOpenSessionWithNames(ctx, id);
    const last = await repository.lastClosing(ctx, id);
    return {
      register: presentRegister(register),
      session: open ? await presentSession(ctx, open) : null,
      carriedBalance: cashLeftOf(last),
      lastClosing:
        last?.number && last.closedAt
          ? { id: last.id, number: last.number, closedAt: last.closedAt.toISOString() }
          : null,
    };
  },

  /**
   * Opens a session with the float counted: the carried balance is what the register's last
   * closing left; the difference is recorded. One open session per register, raced or not.
   */
  async open({
    ctx,
    id,
    input,
    at,
  }: {
    ctx: Ctx;
    id: string;
    input: z.output<typeof openCashSessionSchema>;
    /** When it opened: now, except the demo clinic's past days (seed/demo-cash-registers.ts). */
    at?: Date;
  }) {
    const register = await requireRegister(ctx, id);
    if (!register.active) throw new AppError('cash_register_inactive');
    const carried = cashLeftOf(await repository.lastClosing(ctx, id));
    const sessionId = newId();
    const openingFloat = money(input.openingFloat);
    const openingDifference = money(new Big(openingFloat).minus(carried));
    await guardUnique(
      ctx.tx,
      async () => {
        await repository.insertSession(ctx, {
          id: sessionId,
          registerId: id,
          ...(at ? { openedAt: at } : {}),
          openedBy: ctx.userId,
          openingFloat,
          carriedBalance: carried,
          openingDifference,
          openingNotes: input.notes ?? null,
        });
      },
      async (error) => {
        if (violatedConstraint(error) !== 'cash_sessions_one_open') throw error;
        const open = await repository.findOpenSession(ctx, id);
        throw new AppError('cash_session_already_open', { session: open?.id ?? null });
      },
    );
    if (new Big(openingFloat).gt(0)) {
      await repository.insertMovements(ctx, [
        {
          id: newId(),
          sessionId,
          registerId: id,
          kind: 'opening',
          method: 'cash_payment',
          amount: openingFloat,
          description: 'opening',
          ...(at ? { createdAt: at } : {}),
        },
      ]);
    }
    await auditSession(ctx, sessionId, 'opened', {
      after: { registerId: id, openingFloat, carriedBalance: carried, openingDifference, notes: input.notes ?? null },
    });
    return getSession(ctx, sessionId);
  },

  /** A manual income, expense or withdrawal to the bank, with its reason. */
  async addMovement({
    ctx,
    id,
    input,
    at,
  }: {
    ctx: Ctx;
    id: string;
    input: z.output<typeof createCashMovementSchema>;
    at?: Date;
  }) {
    const session = await repository.lockSession(ctx, id, 'share');
    if (!session) throw new AppError('cash_session_not_found');
    if (session.status === 'closed') throw new AppError('cash_session_already_closed');
    const movementId = newId();
    const amount = money(new Big(input.amount).times(manualSign[input.kind]));
    await repository.insertMovements(ctx, [
      {
        id: movementId,
        sessionId: id,
        registerId: session.registerId,
        kind: input.kind,
        method: input.method,
        amount,
        description: input.reason,
        ...(at ? { createdAt: at } : {}),
      },
    ]);
    await auditSession(ctx, id, 'movement_added', {
      after: { movementId, kind: input.kind, method: input.method, amount, reason: input.reason },
    });
    return getSession(ctx, id);
  },

  /**
   * Closes it with the amount counted per method: every method with movements must be counted,
   * a difference needs an explanation, the closing takes the next Z number (gapless: the
   * clinic's counter row is taken in this transaction).
   */
  async close({
    ctx,
    id,
    input,
    at,
  }: {
    ctx: Ctx;
    id: string;
    input: z.output<typeof closeCashSessionSchema>;
    at?: Date;
  }) {
    const session = await repository.lockSession(ctx, id, 'update');
    if (!session) throw new AppError('cash_session_not_found');
    if (session.status === 'closed') throw new AppError('cash_session_already_closed');
    if (session.version !== input.version)
      throw new AppError('version_conflict', { current: await getSession(ctx, id) });
    const totals = await repository.sessionTotals(ctx, id);
    const expected = new Map<PaymentMethod, Big>();
    for (const row of totals) expected.set(row.method, (expected.get(row.method) ?? new Big(0)).plus(row.amount));
    const counted = new Map(input.counted.map((count) => [count.method, new Big(count.amount)]));
    const missing = [...expected.keys()].filter((method) => !counted.has(method));
    if (missing.length > 0) {
      throw new AppError('validation_error', { fields: [{ path: 'counted', code: 'required' }], missing });
    }
    const counts = paymentMethods
      .filter((method) => expected.has(method) || counted.has(method))
      .map((method) => {
        const should = expected.get(method) ?? new Big(0);
        const was = counted.get(method) ?? new Big(0);
        return { method, expected: money(should), counted: money(was), difference: money(was.minus(should)) };
      });
    const sum = (pick: (count: (typeof counts)[number]) => string) =>
      counts.reduce((total, count) => total.plus(pick(count)), new Big(0));
    const differenceTotal = money(sum((count) => count.difference));
    const differs = counts.some((count) => !new Big(count.difference).eq(0));
    if (differs && !input.explanation) throw invalidFields([{ path: 'explanation', code: 'required' }]);
    const number = `Z-${String(await nextCounterValue(ctx, 'cash_closing')).padStart(6, '0')}`;
    const closedAt = at ?? new Date();
    const closedOn = clinicToday(ctx.timeZone, closedAt);
    const cashLeft = counts.find((count) => count.method === 'cash_payment')?.counted ?? '0.00';
    await repository.insertCounts(ctx, id, counts);
    await repository.closeSession(ctx, id, {
      number,
      closedAt,
      closedBy: ctx.userId,
      closedOn,
      expectedTotal: money(sum((count) => count.expected)),
      countedTotal: money(sum((count) => count.counted)),
      differenceTotal,
      cashLeft,
      explanation: input.explanation ?? null,
    });
    await auditSession(ctx, id, 'closed', {
      before: { status: 'open', version: session.version },
      after: { status: 'closed', number, closedOn, counts, differenceTotal, explanation: input.explanation ?? null },
    });
    // The movements cannot change any more: the answer reuses the aggregate read under the lock.
    return getSession(ctx, id, { totals, counts });
  },

  async list({ ctx, query }: { ctx: Ctx; query: CashSessionListQuery }) {
    const { rows, total } = await repository.pageSessions(ctx, query, query);
    const data: CashSessionListItem[] = rows.map((row) => ({
      id: row.id,
      registerId: row.registerId,
      registerName: row.registerName,
      status: row.status,
      number: row.number,
      openedAt: row.openedAt.toISOString(),
      openedById: row.openedBy,
      closedAt: row.closedAt?.toISOString() ?? null,
      closedOn: row.closedOn,
      closedByName: row.closedByName,
      openingFloat: money(row.openingFloat),
      expectedTotal: row.expectedTotal === null ? null : money(row.expectedTotal),
      countedTotal: row.countedTotal === null ? null : money(row.countedTotal),
      differenceTotal: row.differenceTotal === null ? null : money(row.differenceTotal),
      explanation: row.explanation,
    }));
    return { data, total, page: query.page, pageSize: query.pageSize };
  },

  async movements({ ctx, id, query }: { ctx: Ctx; id: string; query: PageQuery }) {
    if (!(await repository.findSession(ctx, id))) throw new AppError('cash_session_not_found');
    const { rows, total } = await repository.pageMovements(ctx, id, query);
    const data: CashMovement[] = rows.map(presentMovement);
    return { data, total, page: query.page, pageSize: query.pageSize };
  },

  /** What the Z report prints: the session, its totals by kind and method, every movement. */
  async printable({ ctx, id }: { ctx: Ctx; id: string }) {
    const row = await repository.findSession(ctx, id);
    if (!row) throw new AppError('cash_session_not_found');
    const session = await presentSession(ctx, row);
    const { byKind } = await methodTotals(ctx, row);
    const movements = await repository.allMovements(ctx, id);
    return { session, byKind, movements };
  },
};

function presentMovement(row: Awaited<ReturnType<typeof repository.pageMovements>>['rows'][number]): CashMovement {
  return {
    id: row.id,
    kind: row.kind,
    method: row.method,
    amount: money(row.amount),
    paymentId: row.paymentId,
    description: row.description,
    createdAt: row.createdAt.toISOString(),
    createdByName: row.createdByName,
  };
}
