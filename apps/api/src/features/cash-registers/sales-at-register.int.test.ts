import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { customerLedgerMismatches } from '../../../test/commercial.ts';
import { useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/**
 * A sale issued on cash or cards takes its money at a cash register (issue 40 follow-up): the
 * collection the issue creates is a movement of the register's open session; with the clinic's
 * setting on, a cash sale without an open register is refused and nothing of it is written.
 */
describe.each(availableBackends())('sales at the register on %s', (backend) => {
  const t = useTestClinic(backend, { patient: true });

  let posReady = false;
  async function pointOfSale() {
    if (posReady) return;
    const created = await t.call('POST', '/api/points-of-sale', { body: { code: '0001', name: 'Recepción' } });
    expect(created.statusCode, created.body).toBe(201);
    posReady = true;
  }

  async function openRegister() {
    const register = await t.call('POST', '/api/cash-registers', {
      body: { name: `Recepción ${randomUUID().slice(0, 8)}`, kind: 'front_desk' },
    });
    expect(register.statusCode, register.body).toBe(201);
    const registerId = register.json().data.id as string;
    const session = await t.call('POST', `/api/cash-registers/${registerId}/sessions`, { body: { openingFloat: '0' } });
    expect(session.statusCode, session.body).toBe(201);
    return { registerId, sessionId: session.json().data.id as string };
  }

  const sale = (overrides: Record<string, unknown> = {}) => ({
    documentType: 'invoice',
    patientId: t.patientId,
    pointOfService: '0001',
    date: '2026-03-10',
    currency: 'argentine_peso',
    lines: [{ description: 'Limpieza dental', quantity: '1', unitPrice: '100', vatRate: '21' }],
    issue: true,
    ...overrides,
  });

  const movementsOf = async (sessionId: string) =>
    (
      await t.db.orm.execute<{ kind: string; method: string; amount: string; payment_id: string }>(
        sql`select kind, method, amount::text, payment_id from cash_movements
            where session_id = ${sessionId}::uuid order by amount`,
      )
    ).rows;

  const countOf = async (query: ReturnType<typeof sql>) =>
    (await t.db.orm.execute<{ n: number }>(query)).rows[0]?.n ?? 0;

  async function withSetting<T>(on: boolean, run: () => Promise<T>): Promise<T> {
    const settings = (await t.call('GET', '/api/settings/cash')).json().data;
    const set = await t.call('PUT', '/api/settings/cash', {
      body: { cashNeedsOpenSession: on, version: settings.version },
    });
    expect(set.statusCode, set.body).toBe(200);
    try {
      return await run();
    } finally {
      const now = (await t.call('GET', '/api/settings/cash')).json().data;
      await t.call('PUT', '/api/settings/cash', { body: { cashNeedsOpenSession: false, version: now.version } });
    }
  }

  it('a sale paid in cash and one by card at a register are two movements of its open session', async () => {
    await pointOfSale();
    const { registerId, sessionId } = await openRegister();
    const cash = await t.created('/api/sales', { body: sale({ conditionSale: 'cash', registerId }) });
    expect(cash).toMatchObject({ status: 'issued', openAmount: '0.00' });
    // A draft issued later through /issue also names the register.
    const draft = await t.created('/api/sales', {
      body: sale({ conditionSale: 'cards', paymentMethod: 'debit_card', issue: false }),
    });
    const issued = await t.call('POST', `/api/sales/${draft.id}/issue`, {
      body: { version: draft.version, registerId },
    });
    expect(issued.statusCode, issued.body).toBe(200);
    expect(issued.json().data).toMatchObject({ status: 'issued', openAmount: '0.00' });
    const movements = await movementsOf(sessionId);
    expect(movements.map(({ kind, method, amount }) => ({ kind, method, amount }))).toEqual([
      { kind: 'collection', method: 'cash_payment', amount: '121.00' },
      { kind: 'collection', method: 'debit_card', amount: '121.00' },
    ]);
    const { rows } = await t.db.orm.execute<{ document_id: string; payment_id: string }>(
      sql`select document_id, payment_id from payment_allocations where document_id in (${cash.id}::uuid, ${draft.id}::uuid)`,
    );
    expect(new Set(rows.map((row) => row.payment_id))).toEqual(new Set(movements.map((m) => m.payment_id)));
    const session = (await t.call('GET', `/api/cash-sessions/${sessionId}`)).json().data;
    expect(session).toMatchObject({ status: 'open' });
    // The collection shows the register it went into, and the closing once the session closes.
    const paymentId = movements[0]?.payment_id as string;
    const collection = async () => (await t.call('GET', `/api/collections/${paymentId}`)).json().data;
    expect((await collection()).registerMovements).toEqual([
      expect.objectContaining({ sessionId, registerId, closingNumber: null, reversal: false, amount: '121.00' }),
    ]);
    const list = (await t.call('GET', '/api/collections')).json().data;
    expect(list[0]).not.toHaveProperty('registerMovements');
    const closed = await t.call('POST', `/api/cash-sessions/${sessionId}/close`, {
      body: {
        version: session.version,
        counted: [
          { method: 'cash_payment', amount: '120' },
          { method: 'debit_card', amount: '121' },
        ],
        explanation: 'Faltante de un peso',
      },
    });
    expect(closed.statusCode, closed.body).toBe(200);
    const zNumber = closed.json().data.number as string;
    expect(zNumber).toMatch(/^Z-\d{6}$/);
    expect((await collection()).registerMovements).toEqual([
      expect.objectContaining({ registerId, registerName: expect.any(String), closingNumber: zNumber }),
    ]);
    // Reversed after the closing: given back in the session open now, both shown.
    const reopened = await t.call('POST', `/api/cash-registers/${registerId}/sessions`, {
      body: { openingFloat: '0' },
    });
    expect(reopened.statusCode, reopened.body).toBe(201);
    const current = await collection();
    const reversed = await t.call('POST', `/api/collections/${paymentId}/reverse`, {
      body: { version: current.version, reason: 'Cobro duplicado' },
    });
    expect(reversed.statusCode, reversed.body).toBe(200);
    expect(reversed.json().data.registerMovements).toEqual([
      expect.objectContaining({ closingNumber: zNumber, reversal: false, amount: '121.00' }),
      expect.objectContaining({
        sessionId: reopened.json().data.id,
        closingNumber: null,
        reversal: true,
        amount: '121.00',
      }),
    ]);
    // A sale on current account collects nothing: the register is not touched.
    const reopenedId = reopened.json().data.id as string;
    await t.created('/api/sales', { body: sale({ conditionSale: 'current_account', registerId }) });
    expect(await movementsOf(reopenedId)).toHaveLength(1);
    expect(await customerLedgerMismatches(t)).toEqual([]);
  });

  it('a register without an open session or of another clinic refuses the sale, nothing written', async () => {
    await pointOfSale();
    const register = await t.call('POST', '/api/cash-registers', {
      body: { name: `Cerrada ${randomUUID().slice(0, 8)}`, kind: 'front_desk' },
    });
    const registerId = register.json().data.id as string;
    const before = await countOf(sql`select count(*)::int as n from commercial_documents`);
    const closed = await t.call('POST', '/api/sales', { body: sale({ conditionSale: 'cash', registerId }) });
    expect(closed.statusCode, closed.body).toBe(409);
    expect(closed.json().code).toBe('cash_session_not_open');
    const theirs = await t.call('POST', '/api/cash-registers', {
      token: t.other.token,
      body: { name: `Ajena ${randomUUID().slice(0, 8)}`, kind: 'front_desk' },
    });
    expect(theirs.statusCode, theirs.body).toBe(201);
    const foreign = await t.call('POST', '/api/sales', {
      body: sale({ conditionSale: 'cash', registerId: theirs.json().data.id }),
    });
    expect(foreign.statusCode, foreign.body).toBe(404);
    expect(await countOf(sql`select count(*)::int as n from commercial_documents`)).toBe(before);
  });

  it('with the setting on, a cash sale without a register is refused and nothing of it written; by card it passes', async () => {
    await pointOfSale();
    await withSetting(true, async () => {
      const documents = () => countOf(sql`select count(*)::int as n from commercial_documents`);
      const payments = () => countOf(sql`select count(*)::int as n from payments`);
      const before = { documents: await documents(), payments: await payments() };
      const refused = await t.call('POST', '/api/sales', { body: sale({ conditionSale: 'cash' }) });
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().code).toBe('cash_session_not_open');
      // A draft issued without a register: refused, the draft stays a draft with its version.
      const draft = await t.created('/api/sales', { body: sale({ conditionSale: 'cash', issue: false }) });
      const issue = await t.call('POST', `/api/sales/${draft.id}/issue`, { body: { version: draft.version } });
      expect(issue.statusCode, issue.body).toBe(409);
      expect(issue.json().code).toBe('cash_session_not_open');
      const still = (await t.call('GET', `/api/sales/${draft.id}`)).json().data;
      expect(still).toMatchObject({ status: 'draft', version: draft.version, number: null });
      expect(await payments()).toBe(before.payments);
      expect(await documents()).toBe(before.documents + 1);
      const card = await t.call('POST', '/api/sales', {
        body: sale({ conditionSale: 'cards', paymentMethod: 'credit_card' }),
      });
      expect(card.statusCode, card.body).toBe(201);
      const { registerId, sessionId } = await openRegister();
      const atRegister = await t.call('POST', `/api/sales/${draft.id}/issue`, {
        body: { version: draft.version, registerId },
      });
      expect(atRegister.statusCode, atRegister.body).toBe(200);
      expect(await movementsOf(sessionId)).toEqual([
        expect.objectContaining({ method: 'cash_payment', amount: '121.00' }),
      ]);
    });
  });

  it('issuing a sale at the register is idempotent: one sale, one collection, one movement', async () => {
    await pointOfSale();
    const { registerId, sessionId } = await openRegister();
    const idempotencyKey = `test-${randomUUID()}`;
    const body = sale({ conditionSale: 'cash', registerId, notes: `idempotente ${idempotencyKey}` });
    const answers = await Promise.all([1, 2, 3].map(() => t.call('POST', '/api/sales', { body, idempotencyKey })));
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((answer) => answer.json().data.id)).size).toBe(1);
    expect(await movementsOf(sessionId)).toHaveLength(1);
    const draft = await t.created('/api/sales', { body: sale({ conditionSale: 'cash', issue: false }) });
    const issueKey = `test-${randomUUID()}`;
    const issues = await Promise.all(
      [1, 2].map(() =>
        t.call('POST', `/api/sales/${draft.id}/issue`, {
          body: { version: draft.version, registerId },
          idempotencyKey: issueKey,
        }),
      ),
    );
    expect(issues.map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect(await movementsOf(sessionId)).toHaveLength(2);
    expect((await t.call('POST', '/api/sales', { body, idempotencyKey: null })).json().code).toBe(
      'idempotency_key_required',
    );
  });

  it('the cash reports take a register filter: its closings and differences only, also exported', async () => {
    const close = async (registerId: string, sessionId: string) => {
      const session = (await t.call('GET', `/api/cash-sessions/${sessionId}`)).json().data;
      const closed = await t.call('POST', `/api/cash-sessions/${sessionId}/close`, {
        body: {
          version: session.version,
          counted: [{ method: 'cash_payment', amount: '5' }],
          explanation: `Diferencia de ${registerId.slice(0, 4)}`,
        },
      });
      expect(closed.statusCode, closed.body).toBe(200);
      return closed.json().data as { number: string; closedOn: string };
    };
    const first = await openRegister();
    const second = await openRegister();
    const one = await close(first.registerId, first.sessionId);
    const two = await close(second.registerId, second.sessionId);
    const day = one.closedOn;
    const report = async (id: string, filter: string) => {
      const answer = await t.call('GET', `/api/reports/${id}?from=${day}&to=${two.closedOn}&pageSize=100${filter}`);
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json().data.rows as { number: string }[];
    };
    for (const id of ['cash-closings', 'cash-differences']) {
      const all = (await report(id, '')).map((row) => row.number);
      expect(all).toEqual(expect.arrayContaining([one.number, two.number]));
      expect((await report(id, `&registerId=${first.registerId}`)).map((row) => row.number)).toEqual([one.number]);
      expect((await report(id, `&registerId=${second.registerId}`)).map((row) => row.number)).toEqual([two.number]);
      // Another clinic's register (or none such): nothing, never a 500; a malformed id: 400.
      expect(await report(id, `&registerId=${randomUUID()}`)).toEqual([]);
      const bad = await t.call('GET', `/api/reports/${id}?from=${day}&to=${day}&registerId=caja-1`);
      expect(bad.statusCode).toBe(400);
    }
    const csv = await t.call(
      'GET',
      `/api/reports/cash-differences?from=${day}&to=${two.closedOn}&format=csv&registerId=${second.registerId}`,
    );
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(two.number);
    expect(csv.body).not.toContain(one.number);
    const catalogue = (await t.call('GET', '/api/reports')).json().data as { id: string; filters: string[] }[];
    expect(catalogue.find((entry) => entry.id === 'cash-closings')?.filters).toEqual(['registerId']);
    expect(catalogue.find((entry) => entry.id === 'cash-differences')?.filters).toEqual(['method', 'registerId']);
  });
});
