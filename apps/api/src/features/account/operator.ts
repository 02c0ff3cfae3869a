import { accountStateAt, dueDay } from '@odontia/shared/schemas/account';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { type ContractTerms, createAccountService } from './account.service.ts';

/**
 * Odontia's operator (issue 19): `npm run operator -- list | mark-paid <movement id or reference>
 * | extend <clinic id or exact name> <YYYY-MM-DD>`. It reads across clinics in the system context
 * and writes each clinic's changes in its own context, audited with no user and the address
 * `operator`. These functions are what the command runs; tests call them.
 */

export interface ClinicLine {
  id: string;
  clinicName: string;
  plan: string;
  dueDate: string | null;
  state: 'active' | 'grace' | 'read_only';
  pendingRenewal: string | null;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

export class OperatorError extends Error {}

/** Every clinic with its plan, due date, state and pending renewal order, soonest due first. */
export async function listClinics(db: Database, terms: ContractTerms, at = new Date()): Promise<ClinicLine[]> {
  const rows = await db.withSystem(async (tx) => {
    const { rows } = await tx.execute<{
      id: string;
      clinic_name: string;
      plan: string;
      plan_ends_at: string | null;
      renewal_requested_at: string | null;
      time_zone: string;
      pending: string | null;
    }>(sql`
      select a.id, a.clinic_name, a.plan, a.plan_ends_at, a.renewal_requested_at, a.time_zone,
        (select m.reference from account_movements m
          where m.account_id = a.id and m.kind = 'renewal_order' and m.status = 'pending'
          order by m.created_at desc limit 1) as pending
      from accounts a
      order by a.plan_ends_at asc nulls last, a.clinic_name`);
    return rows;
  });
  return rows.map((row) => ({
    id: row.id,
    clinicName: row.clinic_name,
    plan: row.plan,
    dueDate: dueDay(row.plan_ends_at, row.time_zone),
    state: accountStateAt({
      endsAt: row.plan_ends_at,
      renewalRequestedAt: row.renewal_requested_at,
      graceDays: terms.graceDays,
      enforced: terms.plans.length > 0,
      at,
    }),
    pendingRenewal: row.pending,
  }));
}

async function clinicOf(db: Database, where: ReturnType<typeof sql>) {
  return db.withSystem(async (tx) => {
    const { rows } = await tx.execute<{ id: string; clinic_name: string; time_zone: string }>(
      sql`select id, clinic_name, time_zone from accounts where ${where}`,
    );
    return rows;
  });
}

/** A renewal order paid (by its id or its reference): the payment recorded, the contract extended. */
export async function markPaid(db: Database, terms: ContractTerms, order: string) {
  const found = await db.withSystem(async (tx) => {
    const { rows } = await tx.execute<{ account_id: string; id: string }>(
      uuidPattern.test(order)
        ? sql`select account_id, id from account_movements where id = ${order}::uuid`
        : sql`select account_id, id from account_movements where reference = ${order}`,
    );
    return rows;
  });
  if (found.length !== 1 || !found[0]) throw new OperatorError(`no movement ${order}`);
  const { account_id: accountId, id } = found[0];
  const [clinic] = await clinicOf(db, sql`id = ${accountId}::uuid`);
  if (!clinic) throw new OperatorError(`no clinic ${accountId}`);
  const service = createAccountService(terms);
  try {
    return await db.withTenant(accountId, (tx) =>
      service.markRenewalPaid({ tx, accountId, timeZone: clinic.time_zone, userId: null, ip: 'operator' }, id),
    );
  } catch (error) {
    if (error instanceof AppError && error.code === 'account_movement_not_pending')
      throw new OperatorError(`movement ${order} is not a pending renewal order`);
    throw error;
  }
}

/** Moves a clinic's due date (by its id or exact name) to the end of `day`. */
export async function extendContract(db: Database, terms: ContractTerms, clinic: string, day: string) {
  const parsed = new Date(`${day}T00:00:00Z`);
  if (!dayPattern.test(day) || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== day)
    throw new OperatorError(`not a date (YYYY-MM-DD): ${day}`);
  const matches = await clinicOf(
    db,
    uuidPattern.test(clinic) ? sql`id = ${clinic}::uuid` : sql`clinic_name = ${clinic}`,
  );
  if (matches.length === 0) throw new OperatorError(`no clinic ${clinic}`);
  if (matches.length > 1) throw new OperatorError(`${matches.length} clinics are named ${clinic}: give its id`);
  const [{ id, time_zone: timeZone }] = matches as [(typeof matches)[number]];
  const service = createAccountService(terms);
  const endsAt = await db.withTenant(id, (tx) =>
    service.extend({ ctx: { tx, accountId: id, timeZone, userId: null, ip: 'operator' }, day }),
  );
  return { id, endsAt };
}

const usage = `Usage: npm run operator -- <command>
  list                                   clinics, plans, due dates and state
  mark-paid <movement id | reference>    a renewal order paid: extends the contract by its period
  extend <clinic id | name> <YYYY-MM-DD> moves the clinic's due date`;

/** Runs one command; answers the exit code. `out`/`err` receive whole lines. */
export async function runOperator(
  args: string[],
  {
    db,
    terms,
    out,
    err,
  }: { db: Database; terms: ContractTerms; out: (line: string) => void; err: (line: string) => void },
): Promise<number> {
  const [command, ...rest] = args;
  try {
    if (command === 'list' && rest.length === 0) {
      const clinics = await listClinics(db, terms);
      out(['id', 'clinic', 'plan', 'due date', 'state', 'pending renewal'].join('\t'));
      for (const line of clinics)
        out(
          [line.id, line.clinicName, line.plan, line.dueDate ?? '—', line.state, line.pendingRenewal ?? '—'].join('\t'),
        );
      if (terms.plans.length === 0) out('(no plans configured: due dates are not enforced)');
      return 0;
    }
    if (command === 'mark-paid' && rest.length === 1 && rest[0]) {
      const { order, payment, endsAt } = await markPaid(db, terms, rest[0]);
      out(`${order.reference} paid (payment ${payment.reference}); contract now ends ${endsAt.toISOString()}`);
      return 0;
    }
    if (command === 'extend' && rest.length === 2 && rest[0] && rest[1]) {
      const { id, endsAt } = await extendContract(db, terms, rest[0], rest[1]);
      out(`${id}: contract now ends ${endsAt.toISOString()}`);
      return 0;
    }
    err(usage);
    return 2;
  } catch (error) {
    if (error instanceof OperatorError) {
      err(error.message);
      return 1;
    }
    throw error;
  }
}
