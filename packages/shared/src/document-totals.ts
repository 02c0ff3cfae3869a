import Big from 'big.js';
import type { Money } from './money.ts';

/**
 * The arithmetic of a commercial document's lines and totals (issue 17), the same in the form
 * and on the server, in decimals (big.js), never floats. Per line: subtotal1 = quantity × unit
 * price; discount = subtotal1 × discount rate; subtotal (the net) = subtotal1 − discount; VAT =
 * subtotal × VAT rate, each rounded half-up to cents on the line; total = subtotal + VAT. The
 * document sums the lines: subtotal1 (gross before discounts), discountTotal, subtotal2 (the
 * taxable net), VAT per rate and in all, total.
 */

export interface LineAmountsInput {
  quantity: string;
  unitPrice: Money;
  discountRate?: string | null;
  vatRate: string;
}

export interface LineAmounts {
  subtotal1: Money;
  discount: Money;
  subtotal: Money;
  vat: Money;
  total: Money;
}

export interface VatShare {
  rate: string;
  base: Money;
  vat: Money;
}

export interface DocumentTotals {
  subtotal1: Money;
  discountTotal: Money;
  subtotal2: Money;
  vatTotal: Money;
  total: Money;
  vatBreakdown: VatShare[];
}

const cents = (value: Big) => value.round(2, Big.roundHalfUp);

export function lineAmounts(line: LineAmountsInput): LineAmounts {
  const subtotal1 = cents(new Big(line.quantity).times(line.unitPrice));
  const discount = cents(subtotal1.times(line.discountRate || '0').div(100));
  const subtotal = subtotal1.minus(discount);
  const vat = cents(subtotal.times(line.vatRate).div(100));
  return {
    subtotal1: subtotal1.toFixed(2),
    discount: discount.toFixed(2),
    subtotal: subtotal.toFixed(2),
    vat: vat.toFixed(2),
    total: subtotal.plus(vat).toFixed(2),
  };
}

/** Rates as one key: '21', '21.0' and '21.00' are one rate ('21.00'). */
const rateKey = (rate: string) => new Big(rate).toFixed(2);

export function documentTotals(lines: readonly LineAmountsInput[]): DocumentTotals {
  let subtotal1 = new Big(0);
  let discountTotal = new Big(0);
  let subtotal2 = new Big(0);
  let vatTotal = new Big(0);
  const byRate = new Map<string, { base: Big; vat: Big }>();
  for (const line of lines) {
    const amounts = lineAmounts(line);
    subtotal1 = subtotal1.plus(amounts.subtotal1);
    discountTotal = discountTotal.plus(amounts.discount);
    subtotal2 = subtotal2.plus(amounts.subtotal);
    vatTotal = vatTotal.plus(amounts.vat);
    const key = rateKey(line.vatRate);
    const share = byRate.get(key) ?? { base: new Big(0), vat: new Big(0) };
    byRate.set(key, { base: share.base.plus(amounts.subtotal), vat: share.vat.plus(amounts.vat) });
  }
  return {
    subtotal1: subtotal1.toFixed(2),
    discountTotal: discountTotal.toFixed(2),
    subtotal2: subtotal2.toFixed(2),
    vatTotal: vatTotal.toFixed(2),
    total: subtotal2.plus(vatTotal).toFixed(2),
    vatBreakdown: [...byRate.entries()]
      .sort(([a], [b]) => Number(b) - Number(a))
      .map(([rate, share]) => ({ rate, base: share.base.toFixed(2), vat: share.vat.toFixed(2) })),
  };
}
