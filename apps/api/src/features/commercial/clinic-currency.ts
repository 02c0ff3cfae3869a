import type { Currency } from '@odontia/shared/enums';
import { eq, sql } from 'drizzle-orm';
import type { TxContext as Ctx } from '../../context.ts';
import { accounts } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';

/**
 * Issue 35: every commercial document and money movement (sales, budgets, purchases, payments,
 * collections) is in the clinic's currency; nothing ever adds two currencies. The database says
 * it too (`commercial_documents_currency_fk`, `payments_currency_fk` → accounts(id,
 * system_currency), migration 0028); this says it first, with a code the form can show.
 */

export async function clinicCurrency(ctx: Ctx): Promise<Currency> {
  const [row] = await ctx.tx
    .select({ currency: accounts.systemCurrency })
    .from(accounts)
    .where(eq(accounts.id, ctx.accountId));
  if (!row) throw new AppError('clinic_not_found');
  return row.currency as Currency;
}

/** 409 currency_not_clinic (details.clinicCurrency) unless `currency` is the clinic's. */
export async function requireClinicCurrency(ctx: Ctx, currency: string): Promise<void> {
  const clinic = await clinicCurrency(ctx);
  if (currency !== clinic) throw new AppError('currency_not_clinic', { currency, clinicCurrency: clinic });
}

/** Whether the clinic has any commercial document or payment (its currency may no longer change). */
export async function hasMoneyRows(ctx: Ctx): Promise<boolean> {
  const { rows } = await ctx.tx.execute<{ found: boolean }>(sql`
    select exists (select 1 from commercial_documents where account_id = ${ctx.accountId}::uuid)
        or exists (select 1 from payments where account_id = ${ctx.accountId}::uuid) as found`);
  return Boolean(rows[0]?.found);
}
