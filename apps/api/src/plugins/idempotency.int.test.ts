import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { insertProvider, insertRegisteredPurchase } from '../../test/commercial.ts';
import { insertCustomer, insertIssuedSale } from '../../test/sales-factory.ts';
import { type TestResponse, useTestClinic } from '../../test/test-clinic.ts';
import { availableBackends } from '../../test/test-database.ts';

/**
 * Issue 35 (item 2): every write that creates or issues a document or moves money honours its
 * `Idempotency-Key` the same way (plugins/idempotency.ts, `idempotent` in plugins/routes.ts), one
 * family of routes per test: without a key 400 idempotency_key_required and nothing written; the
 * same key sent many times at once makes one document (one number) and every request gets the
 * first answer (status and body); a later retry gets it too; the key with another body is 409
 * idempotency_key_reused. On PostgreSQL the concurrent requests run in parallel transactions (the
 * key's row serialises them), on PGlite one after another.
 */
describe.each(availableBackends())('idempotent writes on %s', (backend) => {
  const t = useTestClinic(backend, { patient: true });
  const many = backend === 'postgres' ? 50 : 8;
  let keys = 0;
  const newKey = () => {
    keys += 1;
    return `idem-${Date.now()}-${keys}-${Math.random().toString(36).slice(2)}`;
  };

  const count = async (query: ReturnType<typeof sql>) => {
    const { rows } = await t.db.orm.execute<{ n: number }>(query);
    return Number(rows[0]?.n ?? 0);
  };

  /**
   * The contract of one idempotent write. `send(key, body)` posts; `written()` counts what it
   * writes (documents, reversals…); `other` is a body the key must refuse.
   */
  async function provesIdempotent({
    send,
    body,
    other,
    written,
    status,
    concurrency = many,
  }: {
    send: (key: string | null, body: object) => Promise<TestResponse>;
    body: object;
    other: object;
    written: () => Promise<number>;
    status: number;
    concurrency?: number;
  }) {
    const before = await written();
    const missing = await send(null, body);
    expect(missing.statusCode, missing.body).toBe(400);
    expect(missing.json().code).toBe('idempotency_key_required');
    const malformed = await send('short', body);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('idempotency_key_required');
    expect(await written()).toBe(before);

    const key = newKey();
    const answers = await Promise.all(Array.from({ length: concurrency }, () => send(key, body)));
    const [first] = answers;
    if (!first) throw new Error('no answer');
    expect(first.statusCode, first.body).toBe(status);
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(status);
      expect(answer.json()).toEqual(first.json());
    }
    expect(answers.filter((answer) => answer.headers['idempotent-replayed'] === 'true')).toHaveLength(concurrency - 1);
    expect(await written()).toBe(before + 1);

    for (let retry = 0; retry < 3; retry += 1) {
      const again = await send(key, body);
      expect(again.statusCode).toBe(status);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toEqual(first.json());
    }
    const reused = await send(key, other);
    expect(reused.statusCode).toBe(409);
    expect(reused.json().code).toBe('idempotency_key_reused');
    expect(await written()).toBe(before + 1);
    return first.json();
  }

  const post = (url: string) => (key: string | null, body: object) =>
    t.call('POST', url, { body, idempotencyKey: key });
  const put = (url: string) => (key: string | null, body: object) => t.call('PUT', url, { body, idempotencyKey: key });

  let posReady = false;
  async function pointOfSale() {
    if (posReady) return '0001';
    const created = await t.call('POST', '/api/points-of-sale', { body: { code: '0001', name: 'Caja 0001' } });
    expect(created.statusCode, created.body).toBe(201);
    posReady = true;
    return '0001';
  }

  const sale = async (patientId: string, overrides: Record<string, unknown> = {}) => ({
    documentType: 'invoice',
    patientId,
    pointOfService: await pointOfSale(),
    date: '2026-03-10',
    currency: 'argentine_peso',
    lines: [{ description: 'Limpieza dental', quantity: '1', unitPrice: '100', vatRate: '21', tooth: '16' }],
    ...overrides,
  });
  const salesOf = (patientId: string) =>
    count(
      sql`select count(*)::int as n from commercial_documents where side = 'sale' and patient_id = ${patientId}::uuid`,
    );

  it('POST /api/sales with issue: true: one invoice, one number, the same answer to all', async () => {
    const patientId = await t.newPatient();
    const body = await sale(patientId, { issue: true });
    const answer = await provesIdempotent({
      send: post('/api/sales'),
      body,
      other: { ...body, notes: 'otra' },
      written: () => salesOf(patientId),
      status: 201,
    });
    expect(answer.data).toMatchObject({ status: 'issued' });
    expect(answer.data.number).toBeTruthy();
    expect(
      await count(sql`select count(distinct sequence_number)::int as n from commercial_documents
                      where side = 'sale' and patient_id = ${patientId}::uuid and status = 'issued'`),
    ).toBe(1);
    const integrity = (await t.call('GET', '/api/sales/integrity')).json().data;
    expect(integrity.ok).toBe(true);
  });

  it('POST /api/sales/:id/issue and /correct: one issue, one note', async () => {
    const patientId = await t.newPatient();
    const draft = (await t.call('POST', '/api/sales', { body: await sale(patientId) })).json().data;
    const issuedCount = () =>
      count(sql`select count(*)::int as n from commercial_documents
                where patient_id = ${patientId}::uuid and status = 'issued'`);
    const issued = await provesIdempotent({
      send: post(`/api/sales/${draft.id}/issue`),
      body: { version: draft.version },
      other: { version: draft.version + 1 },
      written: issuedCount,
      status: 200,
    });
    expect(issued.data.number).toBeTruthy();

    await provesIdempotent({
      send: post(`/api/sales/${draft.id}/correct`),
      body: { documentType: 'debit_note' },
      other: { documentType: 'credit_note' },
      written: () =>
        count(sql`select count(*)::int as n from commercial_documents where related_document_id = ${draft.id}::uuid`),
      status: 201,
    });

    // A draft saved and issued in one step (PUT with issue: true, the form's "Emitir").
    const another = (await t.call('POST', '/api/sales', { body: await sale(patientId) })).json().data;
    const edited = { ...(await sale(patientId, { notes: 'Revisada' })), version: another.version, issue: true };
    const saved = await provesIdempotent({
      send: put(`/api/sales/${another.id}`),
      body: edited,
      other: { ...edited, notes: 'Otra' },
      written: issuedCount,
      status: 200,
    });
    expect(saved.data).toMatchObject({ status: 'issued', notes: 'Revisada' });
  });

  it('budgets: the answer, the conversion and invoicing an attendance make one each', async () => {
    const patientId = await t.newPatient();
    const budget = (
      await t.call('POST', '/api/sales', { body: await sale(patientId, { documentType: 'budget', issue: true }) })
    ).json().data;
    expect(budget.status).toBe('issued');
    await provesIdempotent({
      send: post(`/api/sales/${budget.id}/decision`),
      body: { decision: 'accepted', decidedOn: '2026-03-11' },
      other: { decision: 'rejected', decidedOn: '2026-03-11' },
      written: () => count(sql`select count(*)::int as n from budget_decisions where document_id = ${budget.id}::uuid`),
      status: 201,
    });
    await provesIdempotent({
      send: post(`/api/sales/${budget.id}/convert`),
      body: { documentType: 'proforma_invoice' },
      other: { documentType: 'invoice' },
      written: () =>
        count(sql`select count(*)::int as n from commercial_documents where related_document_id = ${budget.id}::uuid`),
      status: 201,
    });

    const attendance = await t.call('POST', `/api/patients/${patientId}/attendances`, {
      body: {
        date: '2026-03-10T10:30:00-03:00',
        attendanceType: 'dentistry',
        professionalId: t.clinic.userId,
        titleResume: 'Consulta',
        billable: true,
        attendanceFee: '40',
      },
    });
    expect(attendance.statusCode, attendance.body).toBe(201);
    const attendanceId = attendance.json().data.id as string;
    await provesIdempotent({
      send: post(`/api/patients/${patientId}/invoice-draft`),
      body: { attendanceIds: [attendanceId] },
      other: {},
      written: () =>
        count(sql`select count(*)::int as n from commercial_documents
                  where patient_id = ${patientId}::uuid and document_type = 'invoice'`),
      status: 201,
    });
  });

  it('purchases: typed and registered at once, and a draft registered, once each', async () => {
    const providerId = await insertProvider(t, { currency: 'argentine_peso' });
    const purchase = (number: string, overrides: Record<string, unknown> = {}) => ({
      providerId,
      documentType: 'invoice',
      pointOfService: '0001',
      documentNumber: number,
      date: '2026-03-10',
      currency: 'argentine_peso',
      lines: [{ description: 'Flete', quantity: '1', unitPrice: '100', vatRate: '21' }],
      ...overrides,
    });
    const purchasesOf = () =>
      count(sql`select count(*)::int as n from commercial_documents where provider_id = ${providerId}::uuid`);
    const body = purchase('77001', { register: true });
    const registered = await provesIdempotent({
      send: post('/api/purchases'),
      body,
      other: { ...body, notes: 'otra' },
      written: purchasesOf,
      status: 201,
    });
    expect(registered.data.status).toBe('registered');

    const draft = (await t.call('POST', '/api/purchases', { body: purchase('77002') })).json().data;
    await provesIdempotent({
      send: post(`/api/purchases/${draft.id}/register`),
      body: { version: draft.version },
      other: { version: draft.version + 1 },
      written: () =>
        count(sql`select count(*)::int as n from commercial_documents
                  where provider_id = ${providerId}::uuid and status = 'registered'`),
      status: 200,
    });
  });

  const events = async (action: string, entityId: string) =>
    (await t.auditEvents(action)).filter((event) => event.entityId === entityId).length;

  /**
   * A payment or a collection (`entity`, at `route`) of `party`: recorded, allocated to the
   * document `owedId` (`amount` of it, through `allocate`), paid and reversed, each once.
   */
  async function movesMoneyOnce({
    route,
    entity,
    party,
    owedId,
    allocate,
    amount,
    reason,
    written,
  }: {
    route: string;
    entity: 'payment' | 'collection';
    party: Record<string, string>;
    owedId: string;
    allocate: string;
    amount: string;
    reason: string;
    written: () => Promise<number>;
  }) {
    const body = {
      ...party,
      date: '2026-10-15',
      amount: '500.00',
      currency: 'argentine_peso',
      method: 'bank_transfer',
    };
    const created = await provesIdempotent({
      send: post(route),
      body: { ...body, status: 'pending' },
      other: { ...body, amount: '501.00' },
      written,
      status: 201,
    });
    const movement = created.data;
    const allocated = await provesIdempotent({
      send: post(`${route}/${movement.id}/${allocate}`),
      body: { version: movement.version, allocations: [{ documentId: owedId, amount }] },
      other: { version: movement.version, allocations: [{ documentId: owedId, amount: '90.00' }] },
      written: () => events(`${entity}_allocated`, movement.id),
      status: 200,
    });
    const paid = await provesIdempotent({
      send: post(`${route}/${movement.id}/paid`),
      body: { version: allocated.data.version, paidOn: '2026-10-16' },
      other: { version: allocated.data.version, paidOn: '2026-10-17' },
      written: () => events(`${entity}_marked_paid`, movement.id),
      status: 200,
    });
    await provesIdempotent({
      send: post(`${route}/${movement.id}/reverse`),
      body: { version: paid.data.version, reason },
      other: { version: paid.data.version, reason: 'Otro motivo' },
      written: () => events(`${entity}_reversed`, movement.id),
      status: 200,
    });
  }

  it('payments: recorded, allocated, paid and reversed once each', async () => {
    const providerId = await insertProvider(t);
    const owed = await insertRegisteredPurchase(t, { providerId, net: '100' });
    await movesMoneyOnce({
      route: '/api/payments',
      entity: 'payment',
      party: { providerId },
      owedId: owed.id,
      allocate: 'allocations',
      amount: '100.00',
      reason: 'Cheque rechazado',
      written: () => count(sql`select count(*)::int as n from payments where provider_id = ${providerId}::uuid`),
    });
  });

  it('collections: recorded, allocated, paid and reversed once each', async () => {
    const customerId = await insertCustomer(t);
    const owed = await insertIssuedSale(t, { customerId, net: '100' });
    await movesMoneyOnce({
      route: '/api/collections',
      entity: 'collection',
      party: { customerId },
      owedId: owed.id,
      allocate: 'allocate',
      amount: '121.00',
      reason: 'Transferencia devuelta',
      written: () =>
        count(
          sql`select count(*)::int as n from payments where side = 'customer' and customer_id = ${customerId}::uuid`,
        ),
    });
  });

  it('a write without a body contract: whatever body comes with it, the same key answers the same', async () => {
    // The right of access takes no body: junk sent with it is not part of the request, so a retry
    // replays (a body nested thousands of levels deep is refused before: 400, never a 500).
    const url = `/api/patients/${t.patientId}/access-exports`;
    const exports = () =>
      count(sql`select count(*)::int as n from access_exports where patient_id = ${t.patientId}::uuid`);
    const before = await exports();
    const key = newKey();
    const first = await t.call('POST', url, { body: { junk: [1, 2, 3] }, idempotencyKey: key });
    expect(first.statusCode, first.body).toBe(201);
    const again = await t.call('POST', url, { body: { other: 'junk' }, idempotencyKey: key });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const deep = await t.app.inject({
      method: 'POST',
      url,
      payload: `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
      headers: {
        authorization: `Bearer ${t.clinic.token}`,
        'content-type': 'application/json',
        'idempotency-key': newKey(),
      },
    });
    expect(deep.statusCode, deep.body).toBe(400);
    expect(deep.json().code).toBe('bad_request');
    expect(await exports()).toBe(before + 1);
  });

  it('documents the key as a required header of every idempotent write', async () => {
    const document = t.app.swagger() as {
      paths: Record<string, Record<string, { parameters?: { in: string; name: string; required?: boolean }[] }>>;
    };
    const requiredKey = (path: string, method = 'post') =>
      document.paths[path]?.[method]?.parameters?.find((p) => p.in === 'header' && p.name === 'idempotency-key')
        ?.required;
    expect(requiredKey('/api/sales/{id}', 'put')).toBe(true);
    expect(requiredKey('/api/purchases/{id}', 'put')).toBe(true);
    for (const path of [
      '/api/sales',
      '/api/sales/{id}/issue',
      '/api/sales/{id}/correct',
      '/api/sales/{id}/convert',
      '/api/sales/{id}/decision',
      '/api/patients/{patientId}/invoice-draft',
      '/api/purchases',
      '/api/purchases/{id}/register',
      '/api/payments',
      '/api/payments/{id}/allocations',
      '/api/payments/{id}/paid',
      '/api/payments/{id}/reverse',
      '/api/collections',
      '/api/collections/{id}/allocate',
      '/api/collections/{id}/paid',
      '/api/collections/{id}/reverse',
    ]) {
      expect(requiredKey(path), path).toBe(true);
    }
  });
});
