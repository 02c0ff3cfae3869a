import { randomUUID } from 'node:crypto';
import { cashRegisterRecord } from '@odontia/shared/routes/cash-registers';
import Big from 'big.js';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { insertProvider } from '../../../test/commercial.ts';
import { pdfText } from '../../../test/pdf-text.ts';
import { declaredRecord, describeRecordContract } from '../../../test/record-contract.ts';
import { insertCustomer } from '../../../test/sales-factory.ts';
import { expectFieldErrors, type TestClinicContext, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/** Cash registers (issue 40): one open session, movements of collections and payments, the closing, its finality. */

let nextName = 0;
const freshName = (prefix = 'Caja') => {
  nextName += 1;
  return `${prefix} ${nextName} ${randomUUID().slice(0, 4)}`;
};

const key = () => `test-${randomUUID()}`;

async function newRegister(t: TestClinicContext, token?: string) {
  const response = await t.call('POST', '/api/cash-registers', {
    body: { name: freshName('Recepción'), kind: 'front_desk' },
    ...(token ? { token } : {}),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.id as string;
}

async function openSession(t: TestClinicContext, registerId: string, openingFloat = '100.00') {
  const response = await t.call('POST', `/api/cash-registers/${registerId}/sessions`, { body: { openingFloat } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { id: string; version: number };
}

describe.each(availableBackends())('cash registers on %s', (backend) => {
  const t = useTestClinic(backend);

  describeRecordContract(t, {
    ...declaredRecord(cashRegisterRecord),
    table: 'cash_registers',
    body: () => ({ name: freshName('Recepción'), kind: 'front_desk' }),
    update: {
      body: () => ({ name: freshName('Renombrada'), kind: 'front_desk', active: false }),
      shows: { active: false },
      stale: () => ({ name: freshName('Otra'), kind: 'front_desk' }),
    },
    history: { before: { active: true }, after: { active: false } },
    softDelete: { auditBefore: { kind: 'front_desk' } },
    permissions: { read: 'commercial.read', write: 'settings.manage' },
  });

  it("a professional's register names an active user; names are unique", async () => {
    expectFieldErrors(
      await t.call('POST', '/api/cash-registers', { body: { name: freshName(), kind: 'professional' } }),
      [{ path: 'professionalId', code: 'required' }],
    );
    const mine = await t.call('POST', '/api/cash-registers', {
      body: { name: freshName('Dra.'), kind: 'professional', professionalId: t.clinic.userId },
    });
    expect(mine.statusCode, mine.body).toBe(201);
    expect(mine.json().data.professionalName).toBeTruthy();
    const name = freshName();
    await t.call('POST', '/api/cash-registers', { body: { name, kind: 'front_desk' } });
    const again = await t.call('POST', '/api/cash-registers', {
      body: { name: name.toUpperCase(), kind: 'front_desk' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('cash_register_exists');
  });

  it('opens one session per register, also under concurrency', async () => {
    const registerId = await newRegister(t);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.call('POST', `/api/cash-registers/${registerId}/sessions`, { body: { openingFloat: '50,00' } }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses, answers.map((a) => a.body).join('\n')).toEqual([201, 409, 409, 409, 409, 409]);
    for (const answer of answers.filter((a) => a.statusCode === 409))
      expect(answer.json().code).toBe('cash_session_already_open');
    const { rows } = await t.db.orm.execute<{ n: number }>(
      sql`select count(*)::int as n from cash_sessions where register_id = ${registerId}::uuid and status = 'open'`,
    );
    expect(rows[0]?.n).toBe(1);
    const open = (await t.call('GET', `/api/cash-sessions?status=open&registerId=${registerId}`)).json();
    expect(open.data).toEqual([expect.objectContaining({ registerId, status: 'open', openedById: t.clinic.userId })]);
  });

  it('collections and payments at the register are its movements; expected = Σ movements; closing stores the difference, numbered gapless', async () => {
    const registerId = await newRegister(t);
    const customerId = await insertCustomer(t);
    const providerId = await insertProvider(t);
    // No session: a collection naming the register is refused.
    const refused = await t.call('POST', '/api/collections', {
      body: {
        customerId,
        date: '2026-10-15',
        amount: '10.00',
        currency: 'argentine_peso',
        method: 'cash_payment',
        registerId,
      },
    });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().code).toBe('cash_session_not_open');
    const session = await openSession(t, registerId, '100.00');
    const collect = (body: Record<string, unknown>) =>
      t.call('POST', '/api/collections', {
        body: { customerId, date: '2026-10-15', currency: 'argentine_peso', registerId, ...body },
      });
    expect((await collect({ amount: '1.500,50', method: 'cash_payment' })).statusCode).toBe(201);
    const split = await collect({
      amount: '300.00',
      parts: [
        { method: 'cash_payment', amount: '100.00' },
        { method: 'credit_card', amount: '200.00', transactionNumber: 'A1' },
      ],
    });
    expect(split.statusCode, split.body).toBe(201);
    const paid = await t.call('POST', '/api/payments', {
      body: {
        providerId,
        date: '2026-10-15',
        amount: '40.00',
        currency: 'argentine_peso',
        method: 'cash_payment',
        registerId,
      },
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const expense = await t.call('POST', `/api/cash-sessions/${session.id}/movements`, {
      body: { kind: 'expense', amount: '10', reason: 'Café para la sala de espera' },
    });
    expect(expense.statusCode, expense.body).toBe(201);
    expectFieldErrors(
      await t.call('POST', `/api/cash-sessions/${session.id}/movements`, { body: { kind: 'income', amount: '5' } }),
      [{ path: 'reason', code: 'required' }],
    );

    const state = (await t.call('GET', `/api/cash-registers/${registerId}/state`)).json().data;
    const cash = state.session.methods.find((m: { method: string }) => m.method === 'cash_payment');
    const card = state.session.methods.find((m: { method: string }) => m.method === 'credit_card');
    // 100 float + 1500.50 + 100 − 40 − 10
    expect(cash.expected).toBe('1650.50');
    expect(card.expected).toBe('200.00');
    const { rows } = await t.db.orm.execute<{ method: string; total: string }>(
      sql`select method, sum(amount)::text as total from cash_movements where session_id = ${session.id}::uuid group by method order by method`,
    );
    expect(rows).toEqual([
      { method: 'cash_payment', total: '1650.50' },
      { method: 'credit_card', total: '200.00' },
    ]);

    // Every method with movements must be counted; a difference needs its explanation.
    const current = state.session.version as number;
    expectFieldErrors(
      await t.call('POST', `/api/cash-sessions/${session.id}/close`, {
        body: { version: current, counted: [{ method: 'cash_payment', amount: '1650.50' }] },
      }),
      [{ path: 'counted', code: 'required' }],
    );
    expectFieldErrors(
      await t.call('POST', `/api/cash-sessions/${session.id}/close`, {
        body: {
          version: current,
          counted: [
            { method: 'cash_payment', amount: '1.645,50' },
            { method: 'credit_card', amount: '200' },
          ],
        },
      }),
      [{ path: 'explanation', code: 'required' }],
    );
    const closed = await t.call('POST', `/api/cash-sessions/${session.id}/close`, {
      body: {
        version: current,
        counted: [
          { method: 'cash_payment', amount: '1.645,50' },
          { method: 'credit_card', amount: '200' },
        ],
        explanation: 'Faltan 5 € del cambio',
      },
    });
    expect(closed.statusCode, closed.body).toBe(200);
    const data = closed.json().data;
    expect(closed.json().code).toBe('cash_session_closed');
    expect(data).toMatchObject({
      status: 'closed',
      expectedTotal: '1850.50',
      countedTotal: '1845.50',
      differenceTotal: '-5.00',
      cashLeft: '1645.50',
      explanation: 'Faltan 5 € del cambio',
    });
    expect(data.number).toMatch(/^Z-\d{6}$/);
    expect(data.methods).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          method: 'cash_payment',
          expected: '1650.50',
          counted: '1645.50',
          difference: '-5.00',
        }),
        expect.objectContaining({ method: 'credit_card', expected: '200.00', counted: '200.00', difference: '0.00' }),
      ]),
    );
    expect((await t.auditEvents('cash_session_closed')).some((event) => event.entityId === session.id)).toBe(true);

    // The next opening proposes what was left and records the difference.
    const next = await t.call('POST', `/api/cash-registers/${registerId}/sessions`, {
      body: { openingFloat: '1640.50' },
    });
    expect(next.json().data).toMatchObject({ carriedBalance: '1645.50', openingDifference: '-5.00' });
    // A second closing takes the next number: gapless.
    const nextSession = next.json().data;
    const second = await t.call('POST', `/api/cash-sessions/${nextSession.id}/close`, {
      body: { version: nextSession.version, counted: [{ method: 'cash_payment', amount: '1640.50' }] },
    });
    expect(second.statusCode, second.body).toBe(200);
    const numbers = await t.db.orm.execute<{ number: string }>(
      sql`select number from cash_sessions where account_id = ${t.clinic.accountId}::uuid and number is not null order by number`,
    );
    const values = numbers.rows.map((row) => Number(row.number.slice(2)));
    expect(values).toEqual(values.map((_, index) => index + 1));

    // The Z report prints the closing.
    const pdf = await t.call('GET', `/api/cash-sessions/${session.id}/z-report.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain(data.number);
    expect(text).toContain('Faltan 5 € del cambio');
    expect(text).toContain('Cierre de caja');
  });

  it('a closed session never changes: the API answers 409 and the database refuses an UPDATE', async () => {
    const registerId = await newRegister(t);
    const session = await openSession(t, registerId, '20.00');
    const close = () =>
      t.call('POST', `/api/cash-sessions/${session.id}/close`, {
        body: { version: session.version, counted: [{ method: 'cash_payment', amount: '20' }] },
      });
    expect((await close()).statusCode).toBe(200);
    const again = await close();
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('cash_session_already_closed');
    const movement = await t.call('POST', `/api/cash-sessions/${session.id}/movements`, {
      body: { kind: 'income', amount: '5', reason: 'Tarde' },
    });
    expect(movement.statusCode).toBe(409);
    expect(movement.json().code).toBe('cash_session_already_closed');
    const asClinic = (statement: ReturnType<typeof sql>) =>
      t.db.withTenant(t.clinic.accountId, (tx) => tx.execute(statement));
    await expect(
      asClinic(sql`update cash_sessions set explanation = 'cambiada' where id = ${session.id}::uuid`),
    ).rejects.toThrow();
    await expect(
      asClinic(sql`update cash_movements set amount = 1 where session_id = ${session.id}::uuid`),
    ).rejects.toThrow();
    await expect(asClinic(sql`delete from cash_movements where session_id = ${session.id}::uuid`)).rejects.toThrow();
    await expect(asClinic(sql`delete from cash_sessions where id = ${session.id}::uuid`)).rejects.toThrow();
    await expect(
      asClinic(sql`update cash_session_counts set counted = 0 where session_id = ${session.id}::uuid`),
    ).rejects.toThrow();
    await expect(
      asClinic(sql`insert into cash_movements (account_id, id, session_id, register_id, kind, method, amount, description, created_by)
        values (${t.clinic.accountId}::uuid, ${randomUUID()}::uuid, ${session.id}::uuid, ${registerId}::uuid, 'income', 'cash_payment', 1, 'x', ${t.clinic.userId}::uuid)`),
    ).rejects.toThrow();
    const { rows } = await t.db.orm.execute<{ explanation: string | null }>(
      sql`select explanation from cash_sessions where id = ${session.id}::uuid`,
    );
    expect(rows[0]?.explanation).toBeNull();
  });

  it('a reversed collection gives its money back in the session open now, never in the closed one', async () => {
    const registerId = await newRegister(t);
    const customerId = await insertCustomer(t);
    const first = await openSession(t, registerId, '0');
    const collected = await t.call('POST', '/api/collections', {
      body: {
        customerId,
        date: '2026-10-15',
        amount: '80.00',
        currency: 'argentine_peso',
        method: 'cash_payment',
        registerId,
      },
    });
    const collection = collected.json().data;
    await t.call('POST', `/api/cash-sessions/${first.id}/close`, {
      body: { version: first.version, counted: [{ method: 'cash_payment', amount: '80' }] },
    });
    const reverse = () =>
      t.call('POST', `/api/collections/${collection.id}/reverse`, {
        body: { version: collection.version, reason: 'Error de importe' },
      });
    const refused = await reverse();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('cash_session_not_open');
    const second = await openSession(t, registerId, '80');
    expect((await reverse()).statusCode).toBe(200);
    const { rows } = await t.db.orm.execute<{ session_id: string; kind: string; amount: string }>(
      sql`select session_id, kind, amount::text from cash_movements where payment_id = ${collection.id}::uuid order by created_at`,
    );
    expect(rows).toEqual([
      { session_id: first.id, kind: 'collection', amount: '80.00' },
      { session_id: second.id, kind: 'collection_reversal', amount: '-80.00' },
    ]);
  });

  it('the clinic setting refuses a cash collection without an open register', async () => {
    const customerId = await insertCustomer(t);
    const settings = (await t.call('GET', '/api/settings/cash')).json().data;
    const on = await t.call('PUT', '/api/settings/cash', {
      body: { cashNeedsOpenSession: true, version: settings.version },
    });
    expect(on.statusCode, on.body).toBe(200);
    const stale = await t.call('PUT', '/api/settings/cash', {
      body: { cashNeedsOpenSession: false, version: settings.version },
    });
    expect(stale.statusCode).toBe(409);
    try {
      const body = { customerId, date: '2026-10-15', amount: '10.00', currency: 'argentine_peso' };
      const cash = await t.call('POST', '/api/collections', { body: { ...body, method: 'cash_payment' } });
      expect(cash.statusCode).toBe(409);
      expect(cash.json().code).toBe('cash_session_not_open');
      const card = await t.call('POST', '/api/collections', { body: { ...body, method: 'debit_card' } });
      expect(card.statusCode, card.body).toBe(201);
    } finally {
      const now = (await t.call('GET', '/api/settings/cash')).json().data;
      await t.call('PUT', '/api/settings/cash', { body: { cashNeedsOpenSession: false, version: now.version } });
    }
  });

  it('open, movement, close and a collection at the register are idempotent', async () => {
    const registerId = await newRegister(t);
    const customerId = await insertCustomer(t);
    const send = (url: string, body: object, idempotencyKey: string | null) =>
      t.call('POST', url, { body, idempotencyKey });
    const count = async (query: ReturnType<typeof sql>) =>
      (await t.db.orm.execute<{ n: number }>(query)).rows[0]?.n ?? 0;

    expect((await send(`/api/cash-registers/${registerId}/sessions`, { openingFloat: '10' }, null)).json().code).toBe(
      'idempotency_key_required',
    );
    const openKey = key();
    const opens = await Promise.all(
      [1, 2, 3].map(() => send(`/api/cash-registers/${registerId}/sessions`, { openingFloat: '10' }, openKey)),
    );
    expect(opens.map((o) => o.statusCode)).toEqual([201, 201, 201]);
    const session = opens[0]?.json().data;
    expect(new Set(opens.map((o) => o.json().data.id)).size).toBe(1);

    const movementKey = key();
    const moves = await Promise.all(
      [1, 2, 3].map(() =>
        send(
          `/api/cash-sessions/${session.id}/movements`,
          { kind: 'withdrawal', amount: '5', reason: 'Banco' },
          movementKey,
        ),
      ),
    );
    expect(moves.map((m) => m.statusCode)).toEqual([201, 201, 201]);
    expect(
      await count(
        sql`select count(*)::int as n from cash_movements where session_id = ${session.id}::uuid and kind = 'withdrawal'`,
      ),
    ).toBe(1);

    const collectKey = key();
    const body = {
      customerId,
      date: '2026-10-15',
      amount: '7.00',
      currency: 'argentine_peso',
      method: 'cash_payment',
      registerId,
    };
    const collections = await Promise.all([1, 2, 3].map(() => send('/api/collections', body, collectKey)));
    expect(collections.map((c) => c.statusCode)).toEqual([201, 201, 201]);
    expect(
      await count(
        sql`select count(*)::int as n from cash_movements where session_id = ${session.id}::uuid and kind = 'collection'`,
      ),
    ).toBe(1);

    const closeKey = key();
    const closeBody = { version: session.version, counted: [{ method: 'cash_payment', amount: '12' }] };
    const closes = await Promise.all(
      [1, 2, 3].map(() => send(`/api/cash-sessions/${session.id}/close`, closeBody, closeKey)),
    );
    expect(closes.map((c) => c.statusCode)).toEqual([200, 200, 200]);
    expect(new Set(closes.map((c) => c.json().data.number)).size).toBe(1);
  });

  it("another clinic's register and session answer 404; levels without the permission 403", async () => {
    const registerId = await newRegister(t);
    const session = await openSession(t, registerId, '0');
    const other = { token: t.other.token };
    const notFound = async (method: 'GET' | 'POST', url: string, body?: object, code = 'cash_session_not_found') => {
      const response = await t.call(method, url, { ...other, ...(body ? { body } : {}) });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(404);
      expect(response.json().code).toBe(code);
    };
    await notFound('GET', `/api/cash-registers/${registerId}/state`, undefined, 'cash_register_not_found');
    await notFound(
      'POST',
      `/api/cash-registers/${registerId}/sessions`,
      { openingFloat: '1' },
      'cash_register_not_found',
    );
    await notFound('GET', `/api/cash-sessions/${session.id}`);
    await notFound('GET', `/api/cash-sessions/${session.id}/movements`);
    await notFound('GET', `/api/cash-sessions/${session.id}/z-report.pdf`);
    await notFound('POST', `/api/cash-sessions/${session.id}/movements`, { kind: 'income', amount: '1', reason: 'x' });
    await notFound('POST', `/api/cash-sessions/${session.id}/close`, { version: 1, counted: [] });
    const theirList = await t.call('GET', '/api/cash-sessions?pageSize=100', other);
    expect(theirList.json().data.map((row: { id: string }) => row.id)).not.toContain(session.id);
    // Another clinic's register named by a collection: 404.
    const theirCustomer = await insertCustomer(t, {}, t.other);
    const cross = await t.call('POST', '/api/collections', {
      ...other,
      body: {
        customerId: theirCustomer,
        date: '2026-10-15',
        amount: '1.00',
        currency: 'argentine_peso',
        method: 'cash_payment',
        registerId,
      },
    });
    expect(cross.statusCode).toBe(404);
    expect(cross.json().code).toBe('cash_register_not_found');

    await t.asLevel('user', async () => {
      expect((await t.call('GET', `/api/cash-registers/${registerId}/state`)).statusCode).toBe(200);
      expect((await t.call('GET', '/api/settings/cash')).statusCode).toBe(200);
      expect(
        (await t.call('PUT', '/api/settings/cash', { body: { cashNeedsOpenSession: true, version: 1 } })).statusCode,
      ).toBe(403);
      expect(
        (await t.call('POST', '/api/cash-registers', { body: { name: freshName(), kind: 'front_desk' } })).statusCode,
      ).toBe(403);
    });
    await t.asLevel('customer', async () => {
      for (const [method, url] of [
        ['GET', `/api/cash-registers/${registerId}/state`],
        ['GET', '/api/cash-sessions'],
        ['GET', `/api/cash-sessions/${session.id}`],
        ['GET', `/api/cash-sessions/${session.id}/movements`],
        ['GET', `/api/cash-sessions/${session.id}/z-report.pdf`],
        ['POST', `/api/cash-registers/${registerId}/sessions`],
        ['POST', `/api/cash-sessions/${session.id}/movements`],
        ['POST', `/api/cash-sessions/${session.id}/close`],
        ['GET', '/api/settings/cash'],
      ] as const) {
        const response = await t.call(method, url, method === 'POST' ? { body: {} } : {});
        expect(response.statusCode, `${method} ${url}`).toBe(403);
      }
    });
  });
  it("the dashboard shows today's closings, what they counted, their differences and the registers open", async () => {
    const cash = async () => (await t.call('GET', '/api/dashboard')).json().data.financial.cash;
    const registerId = await newRegister(t);
    const before = await cash();
    const session = await openSession(t, registerId, '30.00');
    const during = await cash();
    expect(during.openSessions).toBe(before.openSessions + 1);
    const closed = await t.call('POST', `/api/cash-sessions/${session.id}/close`, {
      body: {
        version: session.version,
        counted: [{ method: 'cash_payment', amount: '27,50' }],
        explanation: 'Billete roto',
      },
    });
    expect(closed.statusCode, closed.body).toBe(200);
    const after = await cash();
    expect(after.closings).toBe(before.closings + 1);
    expect(after.openSessions).toBe(before.openSessions);
    expect(new Big(after.counted).minus(before.counted).toFixed(2)).toBe('27.50');
    expect(new Big(after.difference).minus(before.difference).toFixed(2)).toBe('-2.50');
    // The reports list the closing and its difference.
    const today = closed.json().data.closedOn as string;
    const closings = (await t.call('GET', `/api/reports/cash-closings?from=${today}&to=${today}&pageSize=100`)).json();
    expect(closings.data.rows).toEqual(
      expect.arrayContaining([expect.objectContaining({ number: closed.json().data.number, difference: '-2.50' })]),
    );
    const differences = (
      await t.call('GET', `/api/reports/cash-differences?from=${today}&to=${today}&pageSize=100`)
    ).json();
    expect(differences.data.rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          number: closed.json().data.number,
          method: 'cash_payment',
          explanation: 'Billete roto',
        }),
      ]),
    );
    const csv = await t.call('GET', `/api/reports/cash-differences?from=${today}&to=${today}&format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Billete roto');
  });
});
