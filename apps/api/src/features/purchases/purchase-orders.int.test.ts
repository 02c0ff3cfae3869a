import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { pdfText } from '../../../test/pdf-text.ts';
import { createSupply } from '../../../test/supplies.ts';
import { expectAnswer, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { newId } from '../../lib/ids.ts';

interface Order {
  id: string;
  version: number;
  status: string;
  pointOfService: string | null;
  documentNumber: string | null;
  relatedDocumentId: string | null;
  lines: { id: string; quantity: string; sourceLineId: string | null; description: string }[];
  order: {
    status: string;
    lines: { lineId: string; ordered: string; received: string; pending: string }[];
    receipts: { id: string; status: string }[];
    sends: { to: string; sentAt: string; sentByName: string | null }[];
  } | null;
}

/** Purchase orders (issue 35): the clinic's numbering, the PDF, the e-mail, receptions. */
describe.each(availableBackends())('purchase orders on %s', (backend) => {
  const t = useTestClinic(backend);
  let counter = 0;

  async function newProvider(accountId = t.clinic.accountId, email: string | null = 'ventas@dentalsur.test') {
    counter += 1;
    const id = newId();
    await t.db.withTenant(accountId, (tx) =>
      tx.execute(sql`
        insert into providers (account_id, id, fantasy_name, bussines_name, nif, currency, payment_term_days, active, email)
        values (${accountId}::uuid, ${id}::uuid, ${`Dental Sur ${counter}`}, 'Dental Sur S.A.',
                ${`B${String(20000000 + counter)}`}, 'euro', 30, true, ${email})`),
    );
    return id;
  }

  function newSupply() {
    counter += 1;
    return createSupply(t, { name: `Guantes nitrilo ${counter}` });
  }

  const stockOf = async (itemId: string) =>
    (await t.call('GET', `/api/supplies/${itemId}`)).json().data.totalStock as number;

  async function draftOrder(providerId: string, lines?: object[]) {
    const response = await t.call('POST', '/api/purchases', {
      body: {
        providerId,
        documentType: 'purchase_order',
        date: '2026-03-10',
        deliveryDate: '2026-03-20',
        currency: 'argentine_peso',
        notes: 'Entregar por la mañana',
        lines: lines ?? [{ description: 'Anestesia carpule', quantity: '3', unitPrice: '1500', vatRate: '21' }],
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as Order;
  }

  async function register(id: string, version: number) {
    const response = await t.call('POST', `/api/purchases/${id}/register`, { body: { version } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as Order;
  }

  const getPurchase = async (id: string) => (await t.call('GET', `/api/purchases/${id}`)).json().data as Order;

  async function receive(id: string, body: object) {
    return t.call('POST', `/api/purchases/${id}/receive`, { body });
  }

  /** A receipt draft gets the provider's number and is registered. */
  async function registerReceipt(receipt: Pick<Order, 'id'>, register = true) {
    const full = (await t.call('GET', `/api/purchases/${receipt.id}`)).json().data;
    counter += 1;
    return t.call('PUT', `/api/purchases/${receipt.id}`, {
      body: {
        providerId: full.providerId,
        documentType: full.documentType,
        pointOfService: '0003',
        documentNumber: String(counter),
        date: full.date,
        currency: full.currency,
        relatedDocumentId: full.relatedDocumentId,
        lines: full.lines.map((line: Record<string, unknown>) => ({
          itemId: line.itemId,
          description: line.description,
          quantity: line.quantity,
          unitPrice: line.unitPrice,
          discountRate: line.discountRate,
          vatRate: line.vatRate,
          sourceLineId: line.sourceLineId,
        })),
        version: full.version,
        register,
      },
    });
  }

  it('numbers orders per clinic when registered: no number typed, concurrent registrations contiguous', async () => {
    const providerId = await newProvider();
    const drafts = [];
    for (let i = 0; i < 6; i += 1) drafts.push(await draftOrder(providerId));
    expect(drafts[0]?.documentNumber).toBeNull();
    const registered = await Promise.all(drafts.map((draft) => register(draft.id, draft.version)));
    const numbers = registered.map((order) => `${order.pointOfService}-${order.documentNumber}`).sort();
    expect(numbers).toEqual([1, 2, 3, 4, 5, 6].map((n) => `OC-${String(n).padStart(8, '0')}`));
    // Another clinic starts at its own first number.
    const otherProvider = await newProvider(t.other.accountId);
    const response = await t.call('POST', '/api/purchases', {
      token: t.other.token,
      body: {
        providerId: otherProvider,
        documentType: 'purchase_order',
        date: '2026-03-10',
        currency: 'argentine_peso',
        register: true,
        lines: [{ description: 'Fresas', quantity: '1', unitPrice: '10', vatRate: '21' }],
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data.documentNumber).toBe('00000001');
    // The provider's other papers still need their number.
    const invoice = await t.call('POST', '/api/purchases', {
      body: {
        providerId,
        documentType: 'invoice',
        date: '2026-03-10',
        currency: 'argentine_peso',
        lines: [{ description: 'Flete', quantity: '1', unitPrice: '10', vatRate: '21' }],
      },
    });
    expect(invoice.statusCode).toBe(400);
    expect(invoice.json().details.fields.map((field: { path: string }) => field.path)).toEqual(
      expect.arrayContaining(['pointOfService', 'documentNumber']),
    );
  });

  it('prints the order as a PDF in the reader language, with provider, lines, totals, delivery date and notes', async () => {
    const providerId = await newProvider();
    const draft = await draftOrder(providerId);
    const order = await register(draft.id, draft.version);
    const response = await t.call('GET', `/api/purchases/${order.id}/pdf`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/pdf');
    const text = pdfText(response.rawPayload);
    expect(text).toContain('Orden de compra OC-');
    expect(text).toContain('Dental Sur');
    expect(text).toContain('Anestesia carpule');
    expect(text).toContain('Entrega solicitada');
    expect(text).toContain('Entrega solicitada: 20 mar 2026');
    expect(text).toContain('Entregar por la mañana');
    expect(text).toMatch(/Total estimado\s+\$\s?5\.445,00/);
    const draftPdf = pdfText(
      (await t.call('GET', `/api/purchases/${(await draftOrder(providerId)).id}/pdf`)).rawPayload,
    );
    expect(draftPdf).toContain('BORRADOR');
  });

  it('e-mails a registered order with its PDF once per Idempotency-Key, records and audits it; 409 without e-mail', async () => {
    const providerId = await newProvider();
    const draft = await draftOrder(providerId);
    const early = await t.call('POST', `/api/purchases/${draft.id}/send`, {});
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('purchase_order_draft');
    const order = await register(draft.id, draft.version);
    const before = t.mailer.sent.length;
    const key = `send-${newId()}`;
    const first = await t.call('POST', `/api/purchases/${order.id}/send`, { idempotencyKey: key });
    expectAnswer(first, 200, { code: 'purchase_order_sent', to: 'ventas@dentalsur.test' });
    const again = await t.call('POST', `/api/purchases/${order.id}/send`, { idempotencyKey: key });
    expect(again.statusCode).toBe(200);
    expect(t.mailer.sent.length).toBe(before + 1);
    const mail = t.mailer.lastTo('ventas@dentalsur.test');
    expect(mail?.subject).toContain('Orden de compra OC-');
    expect(mail?.attachments?.[0]?.contentType).toBe('application/pdf');
    expect(pdfText(mail?.attachments?.[0]?.content as Buffer)).toContain('Anestesia carpule');
    const shown = await getPurchase(order.id);
    expect(shown.order?.sends).toEqual([expect.objectContaining({ to: 'ventas@dentalsur.test' })]);
    expect((await t.auditEvents('purchase_order_sent')).filter((row) => row.entityId === order.id)).toHaveLength(1);

    const silent = await newProvider(t.clinic.accountId, null);
    const other = await draftOrder(silent);
    await register(other.id, other.version);
    const refused = await t.call('POST', `/api/purchases/${other.id}/send`, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('provider_without_email');

    t.mailer.failing = true;
    try {
      const failed = await t.call('POST', `/api/purchases/${order.id}/send`, {});
      expect(failed.json().code).toBe('error_sending_email');
    } finally {
      t.mailer.failing = false;
    }
    expect((await getPurchase(order.id)).order?.sends).toHaveLength(1);
  });

  it('receives an order partially into a delivery note, then the rest into an invoice; never more than pending', async () => {
    const providerId = await newProvider();
    const itemId = await newSupply();
    const draft = await draftOrder(providerId, [
      { itemId, description: 'Guantes', quantity: '10', unitPrice: '100', vatRate: '21' },
      { description: 'Flete', quantity: '1', unitPrice: '500', vatRate: '21' },
    ]);
    const order = await register(draft.id, draft.version);
    expect(order.order?.status).toBe('pending');
    const [gloves, freight] = order.lines as [Order['lines'][number], Order['lines'][number]];

    const tooMuch = await receive(order.id, {
      documentType: 'delivery_note',
      lines: [{ sourceLineId: gloves.id, quantity: '11' }],
    });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json()).toMatchObject({ code: 'order_over_received', details: { line: { pending: '10.00' } } });

    const partial = await receive(order.id, {
      documentType: 'delivery_note',
      lines: [{ sourceLineId: gloves.id, quantity: '4' }],
    });
    expect(partial.statusCode, partial.body).toBe(201);
    const note = partial.json().data as Order & { documentType: string };
    expect(note).toMatchObject({ documentType: 'delivery_note', status: 'draft', relatedDocumentId: order.id });
    expect(note.lines).toEqual([expect.objectContaining({ sourceLineId: gloves.id, quantity: '4.00' })]);
    // A draft receives nothing yet, and is not registered without the provider's number.
    expect((await getPurchase(order.id)).order?.lines[0]?.received).toBe('0.00');
    const unnumbered = await t.call('POST', `/api/purchases/${note.id}/register`, { body: { version: note.version } });
    expect(unnumbered.statusCode).toBe(400);
    expect(unnumbered.json().details.fields.map((field: { path: string }) => field.path)).toEqual([
      'pointOfService',
      'documentNumber',
    ]);
    const registered = await registerReceipt(note);
    expect(registered.statusCode, registered.body).toBe(200);
    expect(await stockOf(itemId)).toBe(4);

    let shown = await getPurchase(order.id);
    expect(shown.order?.status).toBe('partially_received');
    expect(shown.order?.lines).toEqual([
      expect.objectContaining({ lineId: gloves.id, ordered: '10.00', received: '4.00', pending: '6.00' }),
      expect.objectContaining({ lineId: freight.id, ordered: '1.00', received: '0.00', pending: '1.00' }),
    ]);

    // Two drafts of everything pending: the first registered wins, the second is refused.
    const rest = (await receive(order.id, { documentType: 'invoice' })).json().data as Order;
    const twin = (await receive(order.id, { documentType: 'delivery_note' })).json().data as Order;
    expect(rest.lines.map((line) => line.quantity)).toEqual(['6.00', '1.00']);
    // The twin is numbered (saved) while nothing else is registered, then registered too late.
    const numbered = await registerReceipt(twin, false);
    expect(numbered.statusCode, numbered.body).toBe(200);
    expect((await registerReceipt(rest)).statusCode).toBe(200);
    const late = await t.call('POST', `/api/purchases/${twin.id}/register`, {
      body: { version: numbered.json().data.version },
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('order_over_received');
    expect(await stockOf(itemId)).toBe(10);

    shown = await getPurchase(order.id);
    expect(shown.order?.status).toBe('received');
    expect(shown.order?.lines.map((line) => line.pending)).toEqual(['0.00', '0.00']);
    expect(shown.order?.receipts.filter((receipt) => receipt.status === 'registered')).toHaveLength(2);
    const nothing = await receive(order.id, { documentType: 'invoice' });
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().code).toBe('nothing_to_receive');
  });

  it('registers one of two concurrent receipts of the same pending units, never both', async () => {
    const providerId = await newProvider();
    const draft = await draftOrder(providerId);
    const order = await register(draft.id, draft.version);
    const drafts = [];
    for (let i = 0; i < 2; i += 1) {
      const made = (await receive(order.id, { documentType: 'delivery_note' })).json().data as Order;
      const numbered = await registerReceipt(made, false);
      expect(numbered.statusCode, numbered.body).toBe(200);
      drafts.push(numbered.json().data as Order);
    }
    const answers = await Promise.all(
      drafts.map((receipt) =>
        t.call('POST', `/api/purchases/${receipt.id}/register`, { body: { version: receipt.version } }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.statusCode === 409)?.json().code).toBe('order_over_received');
    expect((await getPurchase(order.id)).order?.lines[0]).toMatchObject({ received: '3.00', pending: '0.00' });
  });

  it('refuses receiving a draft order, a non-order, and foreign order lines; the database enforces the link', async () => {
    const providerId = await newProvider();
    const draft = await draftOrder(providerId);
    expect((await receive(draft.id, { documentType: 'invoice' })).json().code).toBe('purchase_order_draft');
    const order = await register(draft.id, draft.version);
    const otherProvider = await newProvider();
    const otherDraft = await draftOrder(otherProvider);
    const otherOrder = await register(otherDraft.id, otherDraft.version);

    // A line that names another order's line.
    const wrong = await t.call('POST', '/api/purchases', {
      body: {
        providerId,
        documentType: 'delivery_note',
        pointOfService: '0001',
        documentNumber: '77',
        date: '2026-03-12',
        currency: 'argentine_peso',
        relatedDocumentId: order.id,
        lines: [
          {
            description: 'X',
            quantity: '1',
            unitPrice: '1',
            vatRate: '21',
            sourceLineId: otherOrder.lines[0]?.id,
          },
        ],
      },
    });
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().code).toBe('order_line_invalid');

    // Around the service: a delivery note of one provider cannot claim another provider's order line.
    const note = (await receive(order.id, { documentType: 'delivery_note' })).json().data as Order;
    await expect(
      t.db.withTenant(t.clinic.accountId, (tx) =>
        tx.execute(sql`
          update document_lines set source_line_id = ${otherOrder.lines[0]?.id}::uuid
          where account_id = ${t.clinic.accountId}::uuid and document_id = ${note.id}::uuid`),
      ),
    ).rejects.toThrow();
  });

  it("answers 404 for another clinic's order (get, PDF, send, receive)", async () => {
    const providerId = await newProvider();
    const draft = await draftOrder(providerId);
    const order = await register(draft.id, draft.version);
    const token = t.other.token;
    expect((await t.call('GET', `/api/purchases/${order.id}`, { token })).statusCode).toBe(404);
    expect((await t.call('GET', `/api/purchases/${order.id}/pdf`, { token })).statusCode).toBe(404);
    expect((await t.call('POST', `/api/purchases/${order.id}/send`, { token })).statusCode).toBe(404);
    expect(
      (await t.call('POST', `/api/purchases/${order.id}/receive`, { token, body: { documentType: 'invoice' } }))
        .statusCode,
    ).toBe(404);
  });
});
