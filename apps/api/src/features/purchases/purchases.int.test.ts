import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestClinic } from '../../../test/clinics.ts';
import { expectHiddenFromOtherClinic, insertProvider } from '../../../test/commercial.ts';
import { counter } from '../../../test/counter.ts';
import { dayFigureMismatches } from '../../../test/day-figures.ts';
import { createSupply } from '../../../test/supplies.ts';
import { expectAnswer, expectRefusedAsClinic, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/** Purchases (issue 17): drafts, registering, stock and costs, SKU memory, the ledger, isolation, permissions. */
describe.each(availableBackends())('purchases on %s', (backend) => {
  const t = useTestClinic(backend);

  const next = counter();

  /** A provider in euros with a Spanish-style NIF (no tax id kind, no address). */
  function newProvider(clinic: TestClinic = t.clinic, overrides: { active?: boolean; term?: number } = {}) {
    const n = next();
    return insertProvider(
      t,
      {
        fantasyName: `Dental Sur ${n}`,
        bussinesName: 'Dental Sur S.A.',
        nif: `B${String(10000000 + n)}`,
        taxIdKind: null,
        commercialAddress: null,
        currency: 'euro',
        paymentTermDays: overrides.term ?? 30,
        active: overrides.active ?? true,
      },
      clinic,
    );
  }

  const newSupply = (token = t.clinic.token, totalStock = 0) =>
    createSupply(t, { name: `Composite A2 ${next()}`, totalStock }, token);

  const stockOf = async (itemId: string) => {
    const response = await t.call('GET', `/api/supplies/${itemId}`);
    return response.json().data as { totalStock: number; lastCost: string | null; averageCost: string | null };
  };

  const purchase = (providerId: string, overrides: Record<string, unknown> = {}) => ({
    providerId,
    documentType: 'invoice',
    pointOfService: '0001',
    documentNumber: String(next()),
    date: '2026-03-10',
    currency: 'argentine_peso',
    lines: [{ description: 'Flete', quantity: '1', unitPrice: '100', vatRate: '21' }],
    ...overrides,
  });

  async function post(body: object, token = t.clinic.token) {
    return t.created<{
      id: string;
      version: number;
      status: string;
      total: string;
      openAmount: string;
      [key: string]: unknown;
    }>('/api/purchases', { token, body });
  }

  // The ledger invariant after every scenario: for every provider, party_balances = Σ ledger =
  // Σ open amounts of its registered documents − Σ unallocated of its live payments.
  afterEach(async () => {
    expect(await dayFigureMismatches(t)).toEqual([]);
    const { rows } = await t.db.orm.execute(sql`
      with ledger as (
        select account_id, party_id, sum(credit) - sum(debit) as balance from ledger_entries
        where party_kind = 'provider' group by 1, 2),
      open as (
        select account_id, provider_id as party_id, sum(open_amount) as open from commercial_documents
        where side = 'purchase' and status = 'registered' and deleted_at is null group by 1, 2),
      unallocated as (
        select account_id, provider_id as party_id, sum(amount - allocated_amount) as free from payments
        where side = 'provider' and reversed_at is null group by 1, 2)
      select b.party_id, b.credits - b.debits as stored, l.balance, coalesce(o.open, 0) - coalesce(u.free, 0) as documents
      from party_balances b
      left join ledger l on l.account_id = b.account_id and l.party_id = b.party_id
      left join open o on o.account_id = b.account_id and o.party_id = b.party_id
      left join unallocated u on u.account_id = b.account_id and u.party_id = b.party_id
      where b.party_kind = 'provider'
        and (b.credits - b.debits <> coalesce(l.balance, 0)
             or b.credits - b.debits <> coalesce(o.open, 0) - coalesce(u.free, 0))`);
    expect(rows).toEqual([]);
    const { rows: orphans } = await t.db.orm.execute(sql`
      select d.id from commercial_documents d
      where d.side = 'purchase' and d.status = 'registered' and d.open_amount <> 0
        and not exists (select 1 from party_balances b where b.account_id = d.account_id and b.party_id = d.provider_id)`);
    expect(orphans).toEqual([]);
  });

  it('validates each field with its code, hostile text included (400, never a 500)', async () => {
    const providerId = await newProvider();
    const itemId = await newSupply();
    const cases: [Record<string, unknown>, { path: string; code: string }][] = [
      [{ lines: [] }, { path: 'lines', code: 'required' }],
      [
        { lines: [{ itemId, description: 'Composite', quantity: '1.5', unitPrice: '10', vatRate: '21' }] },
        { path: 'lines.0.quantity', code: 'whole_quantity_required' },
      ],
      [{ documentType: 'credit_note' }, { path: 'relatedDocumentId', code: 'related_document_required' }],
      [{ dueDate: '2026-03-01' }, { path: 'dueDate', code: 'due_before_date' }],
      [{ documentNumber: '12 34' }, { path: 'documentNumber', code: 'invalid_format' }],
      [
        { lines: [{ description: 'x', quantity: 'abc', unitPrice: '10', vatRate: '21' }] },
        { path: 'lines.0.quantity', code: 'invalid_number' },
      ],
      [{ notes: 'bad \u0000 byte' }, { path: 'notes', code: 'invalid_text' }],
      [{ date: '2026-02-30' }, { path: 'date', code: 'invalid_date' }],
    ];
    for (const [overrides, field] of cases) {
      const response = await t.call('POST', '/api/purchases', { body: purchase(providerId, overrides) });
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(response.json().details.fields, JSON.stringify(overrides)).toContainEqual(
        expect.objectContaining({ path: field.path }),
      );
      const codes = (response.json().details.fields as { path: string; code: string }[])
        .filter((f) => f.path === field.path)
        .map((f) => f.code);
      expect(codes.length, JSON.stringify(overrides)).toBeGreaterThan(0);
      if (field.code !== 'invalid_text') expect(codes).toContain(field.code);
    }
    const broken = await t.call('POST', '/api/purchases', {
      body: JSON.stringify(purchase(providerId, { notes: 'broken \ud800 surrogate' })),
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.statusCode).toBe(400);
  });

  it('answers 404 for a missing or other clinic provider and 409 provider_inactive for a deactivated one', async () => {
    const otherProvider = await newProvider(t.other);
    expect((await t.call('POST', '/api/purchases', { body: purchase(otherProvider) })).json().code).toBe(
      'provider_not_found',
    );
    const inactive = await newProvider(t.clinic, { active: false });
    const refused = await t.call('POST', '/api/purchases', { body: purchase(inactive) });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('provider_inactive');
  });

  it('keeps the provider number unique per type and point of sale (409 naming the existing one)', async () => {
    const providerId = await newProvider();
    const first = await post(purchase(providerId, { documentNumber: '1234' }));
    expect(first.documentNumber).toBe('00001234');
    const again = await t.call('POST', '/api/purchases', {
      body: purchase(providerId, { documentNumber: '00001234' }),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'purchase_number_exists', details: { document: { id: first.id } } });
    // Another type, point of sale or provider may use the number.
    await post(purchase(providerId, { documentNumber: '1234', documentType: 'delivery_note' }));
    await post(purchase(providerId, { documentNumber: '1234', pointOfService: '0002' }));
    await post(purchase(await newProvider(), { documentNumber: '1234' }));
  });

  it('edits and deletes a draft; a registered one answers 409 document_final and the database refuses it too', async () => {
    const providerId = await newProvider(t.clinic, { term: 15 });
    const draft = await post(purchase(providerId));
    expect(draft).toMatchObject({ status: 'draft', dueDate: '2026-03-25', total: '121.00', openAmount: '0.00' });
    const stale = await t.call('PUT', `/api/purchases/${draft.id}`, {
      body: { ...purchase(providerId), version: draft.version + 5 },
    });
    expect(stale.json().code).toBe('version_conflict');
    const edited = await t.call('PUT', `/api/purchases/${draft.id}`, {
      body: {
        ...purchase(providerId, {
          documentNumber: draft.documentNumber,
          lines: [
            { description: 'Guantes', quantity: '2', unitPrice: '50', discountRate: '10', vatRate: '21' },
            { description: 'Flete', quantity: '1', unitPrice: '10', vatRate: '10.5' },
          ],
        }),
        version: draft.version,
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({
      subtotal1: '110.00',
      discountTotal: '10.00',
      subtotal2: '100.00',
      vatTotal: '19.95',
      total: '119.95',
      vatBreakdown: [
        { rate: '21.00', base: '90.00', vat: '18.90' },
        { rate: '10.50', base: '10.00', vat: '1.05' },
      ],
    });
    expect(edited.json().data.lines).toHaveLength(2);
    const updatedEvent = (await t.auditEvents('purchase_updated')).find((row) => row.entityId === draft.id);
    expect(updatedEvent?.before).toMatchObject({ total: '121.00' });

    const toDelete = await post(purchase(providerId));
    const userDelete = await t.asLevel('user', () => t.call('DELETE', `/api/purchases/${toDelete.id}`));
    expect(userDelete.statusCode).toBe(403);
    expect((await t.call('DELETE', `/api/purchases/${toDelete.id}`)).json().code).toBe('purchase_deleted');
    expect((await t.call('GET', `/api/purchases/${toDelete.id}`)).statusCode).toBe(404);
    expect((await t.auditEvents('purchase_deleted')).some((row) => row.entityId === toDelete.id)).toBe(true);

    const registered = await t.call('POST', `/api/purchases/${draft.id}/register`, {
      body: { version: edited.json().data.version },
    });
    expectAnswer(registered, 200, {
      code: 'purchase_registered',
      data: {
        status: 'registered',
        openAmount: '119.95',
        issuerSnapshot: { name: expect.stringMatching(/^Dental Sur/) },
      },
    });
    const version = registered.json().data.version;
    const put = await t.call('PUT', `/api/purchases/${draft.id}`, { body: { ...purchase(providerId), version } });
    expect(put.json().code).toBe('document_final');
    expect((await t.call('DELETE', `/api/purchases/${draft.id}`)).json().code).toBe('document_final');
    expect((await t.call('POST', `/api/purchases/${draft.id}/register`, { body: { version } })).json().code).toBe(
      'document_final',
    );
    await expectRefusedAsClinic(t, sql`update commercial_documents set total = 1 where id = ${draft.id}::uuid`);
    await expectRefusedAsClinic(t, sql`delete from document_lines where document_id = ${draft.id}::uuid`);
    expect((await t.auditEvents('purchase_registered')).some((row) => row.entityId === draft.id)).toBe(true);
  });

  it('moves stock in with a delivery note, not again with its invoice (once), out with a returns credit note', async () => {
    const providerId = await newProvider();
    const composite = await newSupply();
    const gloves = await newSupply();
    const note = await post(
      purchase(providerId, {
        documentType: 'delivery_note',
        register: true,
        lines: [
          {
            itemId: composite,
            description: 'Composite',
            skuProvider: 'CMP-A2',
            quantity: '10',
            unitPrice: '12',
            vatRate: '21',
          },
          { itemId: gloves, description: 'Guantes', quantity: '5', unitPrice: '8', vatRate: '21' },
        ],
      }),
    );
    expect(note).toMatchObject({ status: 'registered', movedStock: true, openAmount: '0.00' });
    expect(await stockOf(composite)).toMatchObject({ totalStock: 10, lastCost: '12.00', averageCost: '12.00' });
    expect((await stockOf(gloves)).totalStock).toBe(5);

    const invoiceBody = purchase(providerId, {
      relatedDocumentId: note.id,
      register: true,
      lines: [
        { itemId: composite, description: 'Composite', quantity: '10', unitPrice: '12', vatRate: '21' },
        { itemId: gloves, description: 'Guantes', quantity: '5', unitPrice: '8', vatRate: '21' },
      ],
    });
    const invoice = await post(invoiceBody);
    expect(invoice).toMatchObject({ movedStock: false, total: '193.60', openAmount: '193.60' });
    expect((await stockOf(composite)).totalStock).toBe(10);
    const twice = await t.call('POST', '/api/purchases', { body: { ...invoiceBody, documentNumber: '999999' } });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({
      code: 'delivery_note_already_invoiced',
      details: { document: { id: invoice.id } },
    });
    const noteView = (await t.call('GET', `/api/purchases/${note.id}`)).json().data;
    expect(noteView.relatedFrom.map((row: { id: string }) => row.id)).toEqual([invoice.id]);

    // A credit note for one returned unit: stock out, applied to the invoice.
    const credit = await post(
      purchase(providerId, {
        documentType: 'credit_note',
        relatedDocumentId: invoice.id,
        returnsGoods: true,
        register: true,
        lines: [{ itemId: composite, description: 'Composite', quantity: '1', unitPrice: '12', vatRate: '21' }],
      }),
    );
    expect(credit).toMatchObject({ movedStock: true, total: '14.52', openAmount: '0.00' });
    expect(await stockOf(composite)).toMatchObject({ totalStock: 9, averageCost: '12.00' });
    const invoiceView = (await t.call('GET', `/api/purchases/${invoice.id}`)).json().data;
    expect(invoiceView.openAmount).toBe('179.08');
    expect(invoiceView.allocations).toEqual([
      expect.objectContaining({ creditDocumentId: credit.id, amount: '14.52', reversed: false }),
    ]);

    // Returning more than the stock holds answers insufficient_stock and changes nothing.
    const tooMany = await t.call('POST', '/api/purchases', {
      body: purchase(providerId, {
        documentType: 'credit_note',
        relatedDocumentId: invoice.id,
        returnsGoods: true,
        register: true,
        lines: [{ itemId: gloves, description: 'Guantes', quantity: '50', unitPrice: '8', vatRate: '21' }],
      }),
    });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().code).toBe('insufficient_stock');
    expect((await stockOf(gloves)).totalStock).toBe(5);

    // A credit note larger than what the invoice still owes leaves the rest on account.
    const big = await post(
      purchase(providerId, {
        documentType: 'credit_note',
        relatedDocumentId: invoice.id,
        register: true,
        lines: [{ description: 'Bonificación', quantity: '1', unitPrice: '200', vatRate: '0' }],
      }),
    );
    expect(big.openAmount).toBe('-20.92');
    expect((await t.call('GET', `/api/purchases/${invoice.id}`)).json().data.openAmount).toBe('0.00');
  });

  it('refuses a related document that does not fit', async () => {
    const providerId = await newProvider();
    const draftInvoice = await post(purchase(providerId));
    const onDraft = await t.call('POST', '/api/purchases', {
      body: purchase(providerId, { documentType: 'credit_note', relatedDocumentId: draftInvoice.id }),
    });
    expect(onDraft.json()).toMatchObject({ code: 'related_document_invalid' });
    const otherProvider = await post(purchase(await newProvider(), { register: true }));
    const foreign = await t.call('POST', '/api/purchases', {
      body: purchase(providerId, { documentType: 'debit_note', relatedDocumentId: otherProvider.id }),
    });
    expect(foreign.json()).toMatchObject({ code: 'related_document_invalid' });
  });

  it('keeps a weighted average cost and the last cost', async () => {
    const providerId = await newProvider();
    const itemId = await newSupply(t.clinic.token, 0);
    const line = (quantity: string, unitPrice: string, discountRate = '0') => ({
      itemId,
      description: 'Anestesia',
      quantity,
      unitPrice,
      discountRate,
      vatRate: '21',
    });
    await post(purchase(providerId, { register: true, lines: [line('10', '10')] }));
    expect(await stockOf(itemId)).toMatchObject({ totalStock: 10, averageCost: '10.00', lastCost: '10.00' });
    // 10 at 10 + 5 at (20 − 10 %) = 18 → (100 + 90) / 15 = 12.67
    await post(purchase(providerId, { documentType: 'delivery_note', register: true, lines: [line('5', '20', '10')] }));
    expect(await stockOf(itemId)).toMatchObject({ totalStock: 15, averageCost: '12.67', lastCost: '18.00' });
  });

  it("remembers the provider's SKU for an item", async () => {
    const providerId = await newProvider();
    const itemId = await newSupply();
    const sku = `SKU-${next()}`;
    const unknown = await t.call('GET', `/api/purchases/provider-sku?providerId=${providerId}&sku=${sku}`);
    expect(unknown.json()).toEqual({ data: null });
    await post(
      purchase(providerId, {
        documentType: 'delivery_note',
        register: true,
        lines: [{ itemId, description: 'Fresas', skuProvider: sku, quantity: '3', unitPrice: '7.5', vatRate: '21' }],
      }),
    );
    const known = await t.call('GET', `/api/purchases/provider-sku?providerId=${providerId}&sku=${sku.toLowerCase()} `);
    expect(known.json()).toMatchObject({ data: { itemId, itemKind: 'supply', lastUnitCost: '7.50' } });
    const elsewhere = await t.call('GET', `/api/purchases/provider-sku?providerId=${await newProvider()}&sku=${sku}`);
    expect(elsewhere.json()).toEqual({ data: null });
  });

  it('lists with search, filters, sort and pages', async () => {
    const providerId = await newProvider();
    const a = await post(
      purchase(providerId, { documentNumber: '777001', date: '2026-01-05', notes: 'Pedido urgente' }),
    );
    const b = await post(purchase(providerId, { documentNumber: '777002', date: '2026-01-20', register: true }));
    const byProvider = (await t.call('GET', `/api/purchases?providerId=${providerId}&sort=date`)).json();
    expect(byProvider.data.map((row: { id: string }) => row.id)).toEqual([a.id, b.id]);
    expect(byProvider.data[0]).toMatchObject({ providerName: expect.stringMatching(/^Dental Sur/), status: 'draft' });
    const registered = (await t.call('GET', `/api/purchases?providerId=${providerId}&status=registered`)).json();
    expect(registered.data.map((row: { id: string }) => row.id)).toEqual([b.id]);
    const searched = (await t.call('GET', '/api/purchases?q=urgente')).json();
    expect(searched.data.map((row: { id: string }) => row.id)).toContain(a.id);
    const byNumber = (await t.call('GET', '/api/purchases?q=00777002')).json();
    expect(byNumber.data.map((row: { id: string }) => row.id)).toEqual([b.id]);
    const ranged = (
      await t.call('GET', `/api/purchases?providerId=${providerId}&from=2026-01-10&to=2026-01-31`)
    ).json();
    expect(ranged.data.map((row: { id: string }) => row.id)).toEqual([b.id]);
    const paged = (await t.call('GET', `/api/purchases?providerId=${providerId}&pageSize=1&page=2&sort=-date`)).json();
    expect(paged).toMatchObject({ total: 2, page: 2, data: [{ id: a.id }] });
    // The provider's name finds its documents (drafts too).
    const provider = byProvider.data[0].providerName as string;
    const byName = (await t.call('GET', `/api/purchases?q=${encodeURIComponent(provider)}`)).json();
    expect(byName.data.map((row: { id: string }) => row.id).sort()).toEqual([a.id, b.id].sort());
  });

  it("answers 404 for another clinic's purchase and never lists it", async () => {
    const providerId = await newProvider();
    const mine = await post(purchase(providerId));
    await expectHiddenFromOtherClinic(t, '/api/purchases', mine.id, [
      ['GET', `/api/purchases/${mine.id}`, undefined],
      ['PUT', `/api/purchases/${mine.id}`, { ...purchase(providerId), version: mine.version }],
      ['POST', `/api/purchases/${mine.id}/register`, { version: mine.version }],
      ['DELETE', `/api/purchases/${mine.id}`, undefined],
    ]);
  });

  it('lets each level read, write and delete as the permission matrix says', async () => {
    const providerId = await newProvider();
    await t.asLevel('user', async () => {
      expect((await t.call('GET', '/api/purchases')).statusCode).toBe(200);
      const draft = await post(purchase(providerId));
      expect((await t.call('DELETE', `/api/purchases/${draft.id}`)).statusCode).toBe(403);
    });
    await t.asLevel('supervisor', async () => {
      const draft = await post(purchase(providerId));
      expect((await t.call('DELETE', `/api/purchases/${draft.id}`)).statusCode).toBe(200);
    });
    await t.asLevel('customer', async () => {
      expect((await t.call('GET', '/api/purchases')).statusCode).toBe(403);
      expect((await t.call('POST', '/api/purchases', { body: purchase(providerId) })).statusCode).toBe(403);
    });
  });

  it('audits create and register with what was written', async () => {
    const providerId = await newProvider();
    const created = await post(purchase(providerId, { register: true }));
    const event = (await t.auditEvents('purchase_created')).find((row) => row.entityId === created.id);
    expect(event).toMatchObject({ entity: 'purchase', userId: t.clinic.userId });
    expect(event?.after).toMatchObject({ total: '121.00', status: 'draft' });
    const registered = (await t.auditEvents('purchase_registered')).find((row) => row.entityId === created.id);
    expect(registered?.after).toMatchObject({ status: 'registered', openAmount: '121.00' });
  });
});
