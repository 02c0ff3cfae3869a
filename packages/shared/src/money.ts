import Big from 'big.js';

/**
 * Money is a decimal string in JSON ("1234.50") and a decimal in code, never a JS float
 * (ARCHITECTURE §4). Rounding is half-up to cents, as a till does.
 */

export type Money = string;

/** `amount` with `taxRate` percent added, rounded half-up to cents: priceWithTax('10.00', '21') = '12.10'. */
export function priceWithTax(amount: Money, taxRate: string): Money {
  return new Big(amount).times(new Big(100).plus(taxRate)).div(100).round(2, Big.roundHalfUp).toFixed(2);
}

/** `amount` rounded half-up to cents, as a string with two decimals. */
export function toCents(amount: string | number): Money {
  return new Big(amount).round(2, Big.roundHalfUp).toFixed(2);
}

/** Sum of decimal strings, exact. */
export function sumMoney(amounts: readonly Money[]): Money {
  return amounts.reduce((total, amount) => total.plus(amount), new Big(0)).toFixed(2);
}

/** Product of a price and a quantity, rounded half-up to cents. */
export function lineTotal(price: Money, quantity: string | number): Money {
  return new Big(price).times(quantity).round(2, Big.roundHalfUp).toFixed(2);
}

/** The amount with its sign turned: negated('80.00') = '-80.00'. */
export function negated(amount: Money): Money {
  return new Big(amount).neg().toFixed(2);
}
