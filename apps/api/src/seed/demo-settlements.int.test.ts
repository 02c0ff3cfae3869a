import { describe, expect, it } from 'vitest';
import { useDemoClinic } from '../../test/demo-clinic.ts';

describe('demo clinic settlements', () => {
  const { get } = useDemoClinic();

  it('has two professionals on rules, last month settled for both and one of them paid', async () => {
    const rules = (await get('/api/settlement-rules?pageSize=100')).json().data as {
      professionalName: string;
      scope: string;
      method: string;
      basis: string;
      deductLabCost: boolean;
    }[];
    const sosa = rules.filter((rule) => rule.professionalName === 'Martín Sosa');
    const gomez = rules.filter((rule) => rule.professionalName === 'Laura Gómez');
    expect(sosa.some((rule) => rule.scope === 'treatment' && rule.method === 'fixed' && rule.deductLabCost)).toBe(true);
    expect(gomez).toEqual([expect.objectContaining({ scope: 'default', method: 'percentage', basis: 'collected' })]);

    const settlements = (await get('/api/settlements')).json().data as {
      id: string;
      professionalName: string;
      status: string;
      total: string;
      lineCount: number;
    }[];
    expect(settlements.map((row) => row.professionalName).sort()).toEqual(['Laura Gómez', 'Martín Sosa']);
    expect(settlements.find((row) => row.professionalName === 'Martín Sosa')?.status).toBe('paid');
    expect(settlements.find((row) => row.professionalName === 'Laura Gómez')?.status).toBe('pending');
    for (const row of settlements) {
      const detail = (await get(`/api/settlements/${row.id}`)).json().data as {
        total: string;
        lines: { amount: string }[];
      };
      const sum = detail.lines.reduce((total, line) => total + Math.round(Number(line.amount) * 100), 0);
      expect(sum).toBe(Math.round(Number(detail.total) * 100));
      expect(detail.lines.length).toBe(row.lineCount);
    }
  });
});
