import { describe, expect, it } from 'vitest';
import { documentTotals, lineAmounts } from './document-totals.ts';

describe('document arithmetic', () => {
  it('rounds VAT half-up on each line', () => {
    // 3 × 0.35 = 1.05; 21 % of 1.05 = 0.2205 → 0.22; 10.5 % of 1.05 = 0.11025 → 0.11
    expect(lineAmounts({ quantity: '3', unitPrice: '0.35', vatRate: '21' })).toEqual({
      subtotal1: '1.05',
      discount: '0.00',
      subtotal: '1.05',
      vat: '0.22',
      total: '1.27',
    });
    // 0.05 × 21 % = 0.0105 → 0.01; 0.50 × 21 % = 0.105 → 0.11 (half-up, not to even)
    expect(lineAmounts({ quantity: '1', unitPrice: '0.50', vatRate: '21' }).vat).toBe('0.11');
  });

  it('applies the discount before VAT', () => {
    expect(lineAmounts({ quantity: '2', unitPrice: '100.00', discountRate: '12.5', vatRate: '21' })).toEqual({
      subtotal1: '200.00',
      discount: '25.00',
      subtotal: '175.00',
      vat: '36.75',
      total: '211.75',
    });
  });

  it('sums the lines and breaks VAT down by rate', () => {
    const totals = documentTotals([
      { quantity: '2', unitPrice: '1000.00', vatRate: '21' },
      { quantity: '1', unitPrice: '500.00', discountRate: '10', vatRate: '10.5' },
      { quantity: '1', unitPrice: '99.99', vatRate: '21.00' },
      { quantity: '1', unitPrice: '50.00', vatRate: '0' },
    ]);
    expect(totals).toEqual({
      subtotal1: '2649.99',
      discountTotal: '50.00',
      subtotal2: '2599.99',
      vatTotal: '488.25',
      total: '3088.24',
      vatBreakdown: [
        { rate: '21.00', base: '2099.99', vat: '441.00' },
        { rate: '10.50', base: '450.00', vat: '47.25' },
        { rate: '0.00', base: '50.00', vat: '0.00' },
      ],
    });
  });
});
