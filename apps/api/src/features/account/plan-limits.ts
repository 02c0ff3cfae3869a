import type { Plan } from '@odontia/shared/schemas/account';
import { sql } from 'drizzle-orm';
import type { SystemTx, TenantTx } from '../../db/tenancy.ts';
import { AppError } from '../../lib/app-error.ts';

/**
 * The limits of the clinic's plan (issue 19), enforced where they are used up: files on upload
 * (features/files) and active staff users on invitation and activation (features/users). A
 * self-hosted installation (no plans), a plan not listed or a null limit: no limit.
 */

/** A clinic's transaction, or the system's naming the clinic (an invitation looks across clinics). */
type Ctx = { tx: TenantTx | SystemTx; accountId: string };

/** Bytes as MB with one decimal, as the account page shows them. */
export const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

export async function planLimitsOf(ctx: Ctx, plans: Plan[]): Promise<Plan['limits'] | null> {
  if (plans.length === 0) return null;
  const { rows } = await ctx.tx.execute<{ plan: string }>(
    sql`select plan from accounts where id = ${ctx.accountId}::uuid`,
  );
  return plans.find((plan) => plan.id === rows[0]?.plan)?.limits ?? null;
}

/** The clinic's active staff users (what the plan's `professionals` counts: every level but customer). */
export async function activeStaff(ctx: Ctx): Promise<number> {
  const { rows } = await ctx.tx.execute<{ n: number }>(sql`
    select count(*)::int as n from users u
    where u.account_id = ${ctx.accountId}::uuid and u.active and u.level <> 'customer'`);
  return Number(rows[0]?.n ?? 0);
}

/** The bytes of the clinic's live files (what the plan's storage counts). */
export async function storedBytes(ctx: Ctx): Promise<number> {
  const { rows } = await ctx.tx.execute<{ bytes: string }>(sql`
    select coalesce(sum(size_bytes), 0)::text as bytes from patient_files
    where account_id = ${ctx.accountId}::uuid and deleted_at is null`);
  return Number(rows[0]?.bytes ?? 0);
}

/**
 * 409 plan_users_full when one more active staff user would pass the plan's `professionals`
 * (a customer-level user is not staff and never counts).
 */
export async function requireStaffRoom(ctx: Ctx, plans: Plan[]): Promise<void> {
  const limit = (await planLimitsOf(ctx, plans))?.professionals;
  if (!limit) return;
  if ((await activeStaff(ctx)) >= limit) throw new AppError('plan_users_full', { limit });
}

/** 409 plan_storage_full when `adding` more bytes would pass the plan's storage (0: already full). */
export async function requireStorageFor(ctx: Ctx, plans: Plan[], adding: number): Promise<void> {
  const limitMb = (await planLimitsOf(ctx, plans))?.storageMb;
  if (!limitMb) return;
  const used = await storedBytes(ctx);
  const full = adding === 0 ? used >= limitMb * 1024 * 1024 : used + adding > limitMb * 1024 * 1024;
  if (full) throw new AppError('plan_storage_full', { limitMb, usedMb: mb(used) });
}
