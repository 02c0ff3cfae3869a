import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { useTestClinic } from '../../../../test/test-clinic.ts';
import { configureEinvoicing, type EinvoiceAdapter, type EinvoiceAnswer, registerEinvoiceAdapter } from './adapters.ts';
import { runEinvoiceSubmission } from './einvoice.job.ts';

/**
 * The e-invoicing submission of an issued sale: queued pending with its job, accepted by the local
 * adapter, rejected with the authority's reason, and a retry that asks first whether the last try
 * arrived (it never submits twice).
 */
describe('e-invoicing of issued sales', () => {
  const t = useTestClinic(undefined, { patient: true });

  afterEach(() => configureEinvoicing('local'));

  async function issueInvoice() {
    const pos = await t.call('POST', '/api/points-of-sale', { body: { code: '9', name: 'Caja 9' } });
    expect([201, 409]).toContain(pos.statusCode);
    const answer = await t.call('POST', '/api/sales', {
      body: {
        documentType: 'invoice',
        patientId: t.patientId,
        pointOfService: '9',
        date: '2026-03-10',
        currency: 'argentine_peso',
        lines: [{ description: 'Endodoncia', quantity: '1', unitPrice: '250', vatRate: '0' }],
        issue: true,
      },
    });
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json().data as { id: string; contentHash: string };
  }

  const submission = async (id: string) =>
    (await t.call('GET', `/api/sales/${id}`)).json().data.einvoice as {
      status: string;
      attempts: number;
      authorizationCode: string | null;
      lastError: string | null;
    };

  it('queues a pending submission and its job; the local adapter accepts it', async () => {
    const sale = await issueInvoice();
    const { rows } = await t.db.orm.execute<{ kind: string; key: string }>(
      sql`select kind, key from jobs where key = ${sale.id}`,
    );
    expect(rows).toEqual([{ kind: 'einvoice.submit', key: sale.id }]);
    expect(await submission(sale.id)).toMatchObject({ status: 'pending', attempts: 0 });
    await t.app.jobs.runDue();
    expect(await submission(sale.id)).toMatchObject({
      status: 'accepted',
      attempts: 1,
      authorizationCode: `LOCAL-${sale.contentHash.slice(0, 12).toUpperCase()}`,
    });
  });

  it('records a rejection with its reason', async () => {
    registerEinvoiceAdapter({
      name: 'refusing',
      submit: async () => ({ status: 'rejected', reason: 'CUIT del receptor inválido' }),
      query: async () => null,
    });
    configureEinvoicing('refusing');
    const sale = await issueInvoice();
    await t.app.jobs.runDue();
    expect(await submission(sale.id)).toMatchObject({ status: 'rejected', lastError: 'CUIT del receptor inválido' });
  });

  it('asks before a retry and never submits twice', async () => {
    const answered = new Map<string, EinvoiceAnswer>();
    let submits = 0;
    const flaky: EinvoiceAdapter = {
      name: 'flaky',
      async submit(document, key) {
        submits += 1;
        // The authority takes it, and the answer is lost on the way back.
        answered.set(key, { status: 'accepted', authorizationCode: `CAE-${document.documentNumber}` });
        throw new Error('connection reset');
      },
      async query(key) {
        return answered.get(key) ?? null;
      },
    };
    registerEinvoiceAdapter(flaky);
    configureEinvoicing('flaky');
    const sale = await issueInvoice();
    await t.app.jobs.runDue();
    expect(submits).toBe(1);
    expect(await submission(sale.id)).toMatchObject({ status: 'pending' });
    // The queue's second attempt (after its back-off), run here at once.
    await t.db.withTenant(t.clinic.accountId, (tx) =>
      runEinvoiceSubmission({ tx, accountId: t.clinic.accountId }, sale.id, 2),
    );
    expect(submits).toBe(1);
    expect(await submission(sale.id)).toMatchObject({
      status: 'accepted',
      authorizationCode: expect.stringMatching(/^CAE-/),
    });
  });
});
