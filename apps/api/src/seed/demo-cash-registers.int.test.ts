import { describe, expect, it } from 'vitest';
import { useAppPerTest } from '../../test/test-app.ts';
import { demoPassword, demoUsers, seedDemoClinic } from './demo.ts';

/** The demo clinic's registers (issue 40), read back through the API. */
describe('demo cash registers', () => {
  const startApp = useAppPerTest();

  it('has the front desk and a professional register, past closings (one explained difference) and today open', {
    timeout: 240_000,
  }, async () => {
    const app = await startApp();
    expect(await seedDemoClinic(app.db, { dataDir: app.env.DATA_DIR })).toBe('created');
    const administrator = demoUsers.find((user) => user.level === 'administrator');
    const signIn = await app.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      payload: { email: administrator?.email, password: demoPassword },
    });
    const headers = { authorization: `Bearer ${signIn.json().data.token}` };
    const get = async (url: string) => {
      const response = await app.app.inject({ method: 'GET', url, headers });
      expect(response.statusCode, url).toBe(200);
      return response.json();
    };
    const registers = (await get('/api/cash-registers')).data as { id: string; name: string; kind: string }[];
    expect(registers.map((row) => [row.name, row.kind]).sort()).toEqual([
      ['Consultorio 2', 'professional'],
      ['Recepción', 'front_desk'],
    ]);
    const closings = (await get('/api/cash-sessions?status=closed')).data as {
      number: string;
      differenceTotal: string;
      explanation: string | null;
    }[];
    expect(closings).toHaveLength(4);
    expect(closings.map((row) => row.number).sort()).toEqual(['Z-000001', 'Z-000002', 'Z-000003', 'Z-000004']);
    const differing = closings.filter((row) => row.differenceTotal !== '0.00');
    expect(differing).toEqual([expect.objectContaining({ differenceTotal: '-500.00' })]);
    expect(differing[0]?.explanation).toContain('Faltan $ 500');
    const frontDesk = registers.find((row) => row.kind === 'front_desk');
    const state = (await get(`/api/cash-registers/${frontDesk?.id}/state`)).data;
    expect(state.session).toMatchObject({ status: 'open' });
    // The float proposed the cash the last closing left (33.000 + 27.000 − 6.000).
    expect(state.session.carriedBalance).toBe('54000.00');
    expect(state.session.openingDifference).toBe('0.00');
    const cash = state.session.methods.find((row: { method: string }) => row.method === 'cash_payment');
    expect(cash.expected).toBe('72000.00');
    const movements = (await get(`/api/cash-sessions/${state.session.id}/movements`)).data as { kind: string }[];
    expect(movements.filter((row) => row.kind === 'collection')).toHaveLength(2);
  });
});
