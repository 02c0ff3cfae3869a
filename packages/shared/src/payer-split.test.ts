import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { type CoverageTerms, ruleFor, splitLine, splitLines } from './payer-split.ts';

const rule = (terms: Partial<CoverageTerms>): CoverageTerms => ({
  id: 'r1',
  mode: 'percentage',
  value: '50',
  limitKind: 'none',
  limitValue: null,
  authorizationRequired: false,
  ...terms,
});

describe('the split between the patient and the payer', () => {
  it('rounds the payer half-up to the cent and gives the patient the rest, always adding up to the line', () => {
    for (const total of ['0.01', '0.03', '10.05', '99.99', '100.01', '12345.67']) {
      for (const value of ['0', '1', '33.33', '50', '66.67', '99.99', '100']) {
        const result = splitLine({ total, quantity: '1', rule: rule({ value }) }, undefined);
        expect(new Big(result.payerAmount).plus(result.patientAmount).toFixed(2)).toBe(new Big(total).toFixed(2));
        expect(result.payerAmount).toBe(new Big(total).times(value).div(100).round(2, Big.roundHalfUp).toFixed(2));
      }
    }
    expect(splitLine({ total: '0.05', quantity: '1', rule: rule({ value: '50' }) }, undefined)).toMatchObject({
      payerAmount: '0.03',
      patientAmount: '0.02',
      rounding: 'payer_half_up',
    });
  });

  it('fixed amounts and copays per unit, never beyond the line', () => {
    expect(
      splitLine({ total: '30.00', quantity: '2', rule: rule({ mode: 'fixed', value: '20' }) }, undefined),
    ).toMatchObject({
      payerAmount: '30.00',
      patientAmount: '0.00',
    });
    expect(
      splitLine({ total: '30.00', quantity: '2', rule: rule({ mode: 'copay', value: '5.5' }) }, undefined),
    ).toMatchObject({
      payerAmount: '19.00',
      patientAmount: '11.00',
    });
    expect(
      splitLine({ total: '3.00', quantity: '1', rule: rule({ mode: 'copay', value: '5' }) }, undefined),
    ).toMatchObject({
      payerAmount: '0.00',
      patientAmount: '3.00',
    });
  });

  it('carries the annual limits from line to line', () => {
    const sessions = rule({ value: '100', limitKind: 'sessions', limitValue: '3' });
    const { lines } = splitLines(
      [
        { total: '10.00', quantity: '2', rule: sessions },
        { total: '10.00', quantity: '3', rule: sessions },
        { total: '10.00', quantity: '1', rule: sessions },
      ],
      { r1: { sessions: '0', amount: '0' } },
    );
    expect(lines.map((line) => [line.payerAmount, line.patientAmount, line.rounding])).toEqual([
      ['10.00', '0.00', 'exact'],
      ['3.33', '6.67', 'covered_share_half_up'],
      ['0.00', '10.00', 'not_covered'],
    ]);
  });

  it('finds the rule of the treatment, else of its group, else the rest', () => {
    const rules = [
      { id: 'a', treatmentId: 't1', treatmentGroup: null },
      { id: 'b', treatmentId: null, treatmentGroup: 'Prevención' },
      { id: 'c', treatmentId: null, treatmentGroup: null },
    ];
    expect(ruleFor(rules, { treatmentId: 't1', treatmentGroup: 'Prevención' })?.id).toBe('a');
    expect(ruleFor(rules, { treatmentId: 't2', treatmentGroup: ' prevención ' })?.id).toBe('b');
    expect(ruleFor(rules, { treatmentId: null, treatmentGroup: null })?.id).toBe('c');
    expect(ruleFor(rules.slice(0, 2), { treatmentId: null, treatmentGroup: 'Otra' })).toBeNull();
  });
});
