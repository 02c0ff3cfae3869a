import { describe, expect, it } from 'vitest';
import { itemAmount, resultingMark, splitShares, suggestTreatment } from './treatment-plans.ts';

describe('treatment plans', () => {
  it('computes an item amount with its discount, half-up to the cent', () => {
    expect(itemAmount('100.05', 1, '0')).toBe('100.05');
    expect(itemAmount('90', 3, '10')).toBe('243.00');
    expect(itemAmount('0.05', 1, '50')).toBe('0.03');
  });

  it('splits an amount into parts that add up to it exactly', () => {
    for (const [amount, shares] of [
      ['100.05', ['40', '60']],
      ['999999999.99', ['33.33', '33.33', '33.34']],
      ['0.07', ['25', '25', '25', '25']],
    ] as const) {
      const parts = splitShares(amount, shares);
      const sum = parts.reduce((total, part) => total + Math.round(Number(part) * 100), 0);
      expect(sum, amount).toBe(Math.round(Number(amount) * 100));
      expect(parts.every((part) => Number(part) >= 0)).toBe(true);
    }
  });

  it('suggests a treatment by code first, then by a word of its name, else none', () => {
    const list = [
      { code: 'X1', name: 'Extracción quirúrgica de cordal' },
      { code: 'EMP', name: 'Empaste' },
      { code: null, name: 'Exodoncia simple' },
    ];
    expect(suggestTreatment('caries', list)?.code).toBe('EMP');
    expect(suggestTreatment('to_extract', list)?.name).toBe('Extracción quirúrgica de cordal');
    expect(suggestTreatment('impacted', list)?.code).toBe('X1');
    expect(suggestTreatment('filling', list)).toBeNull();
    expect(suggestTreatment('fractured', [{ code: 'Z', name: 'Limpieza' }])).toBeNull();
  });

  it('charts what a treatment leaves on its tooth', () => {
    expect(resultingMark({ code: 'EMP', name: 'Empaste' }, 36, 'mesial')).toEqual({
      tooth: 36,
      zone: 'mesial',
      status: 'filling',
    });
    expect(resultingMark({ code: null, name: 'Restauración compuesta' }, 36, null)).toMatchObject({
      zone: 'occlusal',
      status: 'filling',
    });
    expect(resultingMark({ code: 'X', name: 'Extracción simple' }, 48, null)).toEqual({
      tooth: 48,
      zone: null,
      status: 'extracted',
    });
    expect(resultingMark({ code: 'COR', name: 'Corona' }, 46, 'occlusal')).toMatchObject({
      zone: null,
      status: 'crown',
    });
    expect(resultingMark({ code: 'LIM', name: 'Limpieza' }, 11, null)).toBeNull();
    expect(resultingMark({ code: 'EXT', name: 'Extracción' }, null, 'q4')).toBeNull();
  });
});
