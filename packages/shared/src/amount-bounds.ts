import Big from 'big.js';
import type { z } from 'zod';
import { documentTotals, type LineAmountsInput, lineAmounts } from './document-totals.ts';
import { maxMoneyAmount, tooBigIssue } from './validation.ts';

/**
 * Totals computed from typed amounts stay within what the database keeps (numeric(14,2), see
 * `maxMoneyAmount`): a price of twelve digits is a valid amount, but twice it, or it with VAT, is
 * not. The contracts say `too_big` with the bound on the field that makes the total, never a 500.
 */

const above = (value: string) => new Big(value).gt(maxMoneyAmount);
/** A plain decimal: a field that failed its own check leaves its typed text, which the totals skip. */
const decimal = /^\d+(\.\d+)?$/;
const numeric = (...values: unknown[]) => values.every((value) => decimal.test(String(value ?? '0')));

/** The `lines` of a document: too_big on a line's unit price when its amounts pass the bound, on `lines` when the document's total does. */
export function refineLineTotals(lines: readonly LineAmountsInput[], ctx: z.RefinementCtx): void {
  if (!lines.every((line) => numeric(line.quantity, line.unitPrice, line.discountRate, line.vatRate))) return;
  let each = true;
  lines.forEach((line, index) => {
    const amounts = lineAmounts(line);
    if (above(amounts.subtotal1) || above(amounts.total)) {
      tooBigIssue(ctx, maxMoneyAmount, [index, 'unitPrice']);
      each = false;
    }
  });
  if (!each) return;
  const totals = documentTotals(lines);
  if (above(totals.subtotal1) || above(totals.total)) tooBigIssue(ctx, maxMoneyAmount);
}

/** An attendance's lines (price × quantity each) and its total billable (fee + lines): too_big on the price, or on the fee. */
export function refineAttendanceTotals(
  value: { attendanceFee: string; lines: readonly { price: string; quantity: number }[] },
  ctx: z.RefinementCtx,
): void {
  if (!Array.isArray(value.lines)) return;
  if (!numeric(value.attendanceFee, ...value.lines.flatMap((line) => [line.price, line.quantity]))) return;
  let total = new Big(value.attendanceFee);
  let each = true;
  value.lines.forEach((line, index) => {
    const lineTotal = new Big(line.price).times(line.quantity);
    if (lineTotal.gt(maxMoneyAmount)) {
      tooBigIssue(ctx, maxMoneyAmount, ['lines', index, 'price']);
      each = false;
    }
    total = total.plus(lineTotal);
  });
  if (each && total.gt(maxMoneyAmount)) tooBigIssue(ctx, maxMoneyAmount, ['attendanceFee']);
}
