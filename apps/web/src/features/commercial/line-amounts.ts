import { normalizeDecimal } from '@odontia/shared/decimal-input';
import { documentTotals } from '@odontia/shared/document-totals';
import { useMemo } from 'react';

/** The four numbers every document line has (a purchase's, a sale's), as the user typed them. */
export interface TypedAmounts {
  quantity: string;
  unitPrice: string;
  discountRate: string;
  vatRate: string;
}

let lineCounter = 0;
/** A key for a new line of the form (React's key: lines have no id until saved). */
export function nextLineKey(): string {
  lineCounter += 1;
  return `line-${lineCounter}`;
}

/** "21.00" → "21": how a saved rate or quantity reads back in its input. */
export const trimZeros = (value: string) => value.replace(/\.00$/, '');

/** "1,5" → "1.5", "12.500,50" → "12500.50": what the arithmetic reads; null when it is not a number yet. */
const decimal = (text: string): string | null => normalizeDecimal(text);

/** A typed amount as the API reads it (a plain decimal), or as typed when it is none (the API says why). */
const plain = (text: string) => normalizeDecimal(text) ?? text;

/** A line's amounts for `lineAmounts`, or null while one of them is not a number yet. */
export function amountsOf(line: TypedAmounts) {
  const quantity = decimal(line.quantity);
  const unitPrice = decimal(line.unitPrice);
  const vatRate = decimal(line.vatRate);
  const discountRate = decimal(line.discountRate || '0');
  if (!quantity || !unitPrice || !vatRate || discountRate === null) return null;
  return { quantity, unitPrice, vatRate, discountRate };
}

/** The amounts as the API reads them: plain decimals ("12.500,50" → "12500.50"), no discount as 0. */
export const amountsToSend = (line: TypedAmounts): TypedAmounts => ({
  quantity: plain(line.quantity),
  unitPrice: plain(line.unitPrice),
  discountRate: plain(line.discountRate || '0'),
  vatRate: plain(line.vatRate),
});

/** The document's totals over the lines that are complete so far. */
export function useLinesTotals(lines: TypedAmounts[]) {
  return useMemo(() => documentTotals(lines.map(amountsOf).filter((line) => line !== null)), [lines]);
}
