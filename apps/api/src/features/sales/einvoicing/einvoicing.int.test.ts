import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { TestClinic } from '../../../../test/clinics.ts';
import { pdfText } from '../../../../test/pdf-text.ts';
import { insertCustomer } from '../../../../test/sales-factory.ts';
import { useTestClinic } from '../../../../test/test-clinic.ts';
import { availableBackends } from '../../../../test/test-database.ts';
import { startFakeAeat } from '../../../dev/fake-aeat.ts';
import { startFakeArca } from '../../../dev/fake-arca.ts';
import { cuitIsValid } from './arca/index.ts';
import { nifIsValid } from './verifactu/index.ts';
import { xsdErrors } from './verifactu/verifactu-test-data.ts';

/**
 * Issue 39 end to end: clinics under ARCA and Verifactu issue sales through the real job queue to
 * local services that speak the authorities' protocols (apps/api/src/dev/fake-*.ts) and fail as
 * they do. After any fault no document is authorised twice and none is lost.
 */

const arca = await startFakeArca();
const aeat = await startFakeAeat();
aeat.setWait(0);
const caFile = path.join(mkdtempSync(path.join(tmpdir(), 'aeat-ca-')), 'ca.pem');
writeFileSync(caFile, aeat.ca);
afterAll(async () => {
  await arca.close();
  await aeat.close();
});

const env = {
  ARCA_HOMOLOGATION_URL: arca.url,
  VERIFACTU_TEST_URL: aeat.endpoint,
  VERIFACTU_TEST_CA_FILE: caFile,
  EINVOICE_TIMEOUT_MS: '1500',
};

/** Fresh valid CUITs and NIFs (the fakes keep every clinic's numbering for the whole file). */
let serial = Math.floor(Math.random() * 1_000_000);
function nextCuit(): string {
  for (;;) {
    serial += 1;
    const body = `30${String(10_000_000 + (serial % 89_999_999)).padStart(8, '0')}`;
    if (cuitIsValid(`${body}0`)) return `${body}0`;
    for (let digit = 1; digit <= 9; digit += 1) if (cuitIsValid(`${body}${digit}`)) return `${body}${digit}`;
  }
}
function nextNif(): string {
  for (;;) {
    serial += 1;
    const body = `B${String(1_000_000 + (serial % 8_999_999))}`;
    for (const control of '0123456789ABCDEFGHIJ') if (nifIsValid(`${body}${control}`)) return `${body}${control}`;
  }
}

type Einvoice = {
  adapter: string;
  status: string;
  letter: string | null;
  voucherType: number | null;
  fiscalNumber: string | null;
  authorizationCode: string | null;
  authorizationDueDate: string | null;
  qrUrl: string | null;
  messages: { code: string; key: string | null; message: string }[];
};

describe.each(availableBackends())('electronic invoicing on %s', (backend) => {
  const t = useTestClinic(backend, { patient: true, env });

  async function fiscalData(clinic: TestClinic, data: Record<string, unknown>) {
    const { version } = (await t.call('GET', '/api/settings/fiscal', { token: clinic.token })).json().data;
    const saved = await t.call('PUT', '/api/settings/fiscal', {
      token: clinic.token,
      body: {
        legalName: 'Sonrisas S.R.L.',
        tradeName: null,
        address: 'Av. Corrientes 1234',
        city: 'CABA',
        ...data,
        version,
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
  }

  async function currency(clinic: TestClinic, value: 'argentine_peso' | 'euro') {
    await t.db.withSystem((tx) =>
      tx.execute(sql`update accounts set system_currency = ${value} where id = ${clinic.accountId}::uuid`),
    );
  }

  async function pointOfSale(clinic: TestClinic, code = '0001') {
    const created = await t.call('POST', '/api/points-of-sale', {
      token: clinic.token,
      body: { code, name: `Caja ${code}`, active: true },
    });
    expect(created.statusCode, created.body).toBe(201);
  }

  async function settings(clinic: TestClinic) {
    return (await t.call('GET', '/api/settings/einvoicing', { token: clinic.token })).json().data;
  }

  async function useRegime(clinic: TestClinic, regime: 'arca' | 'verifactu', certificate: Record<string, string>) {
    const uploaded = await t.call('PUT', '/api/settings/einvoicing/certificate', {
      token: clinic.token,
      body: certificate,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(uploaded.body).not.toContain('PRIVATE KEY');
    const { version } = await settings(clinic);
    const saved = await t.call('PUT', '/api/settings/einvoicing', {
      token: clinic.token,
      body: { regime, environment: 'homologation', pointsOfSale: [], version },
    });
    expect(saved.statusCode, saved.body).toBe(200);
  }

  /** A new Argentine clinic (responsable inscripto) under ARCA homologation, point of sale 0001. */
  async function arcaClinic() {
    const clinic = await t.newClinic();
    const cuit = nextCuit();
    await fiscalData(clinic, {
      country: 'AR',
      taxIdKind: 'cuit',
      taxId: cuit,
      fiscalCondition: 'ar_responsable_inscripto',
    });
    await pointOfSale(clinic);
    await currency(clinic, 'argentine_peso');
    await useRegime(clinic, 'arca', arca.issueCertificate(cuit));
    return { clinic, cuit, patient: await t.newPatient(clinic.token) };
  }

  async function spanishClinic() {
    const clinic = await t.newClinic();
    const nif = nextNif();
    await fiscalData(clinic, { country: 'ES', taxIdKind: 'nif', taxId: nif, fiscalCondition: 'es_regimen_general' });
    await pointOfSale(clinic);
    await currency(clinic, 'euro');
    await useRegime(clinic, 'verifactu', aeat.issueCertificate(nif));
    return { clinic, nif, patient: await t.newPatient(clinic.token) };
  }

  const line = (unitPrice = '100', vatRate = '21') => ({
    description: 'Corona de zirconio',
    quantity: '1',
    unitPrice,
    vatRate,
    tooth: '16',
  });

  async function issue(clinic: TestClinic, body: Record<string, unknown>) {
    return t.call('POST', '/api/sales', {
      token: clinic.token,
      body: {
        documentType: 'invoice',
        pointOfService: '0001',
        date: new Date().toISOString().slice(0, 10),
        lines: [line()],
        issue: true,
        ...body,
      },
    });
  }

  async function issued(clinic: TestClinic, body: Record<string, unknown>) {
    const answer = await issue(clinic, body);
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json().data as { id: string; number: string; einvoice: Einvoice; currency: string };
  }

  /** Runs every queued e-invoicing job now, retries included (their backoff skipped). */
  async function sendAll(rounds = 8) {
    for (let round = 0; round < rounds; round += 1) {
      await t.db.withSystem((tx) =>
        tx.execute(sql`update jobs set run_at = now() where kind = 'einvoice.submit' and state = 'queued'`),
      );
      if ((await t.app.jobs.runDue()) === 0) return;
    }
  }

  const einvoiceOf = async (clinic: TestClinic, id: string) =>
    (await t.call('GET', `/api/sales/${id}`, { token: clinic.token })).json().data.einvoice as Einvoice;

  const arcaVouchers = (cuit: string) => arca.state().series.filter((series) => series.cuit === cuit);

  it('authorises a Factura B to a patient and a Factura A to a company: CAE, number, QR, PDF; a credit note of each', async () => {
    const { clinic, cuit, patient } = await arcaClinic();
    const company = await insertCustomer(
      t,
      {
        kind: 'company',
        name: 'Laboratorio Austral S.A.',
        taxIdKind: 'cuit',
        taxId: nextCuit(),
        fiscalCondition: 'ar_responsable_inscripto',
      },
      clinic,
    );
    const b = await issued(clinic, { patientId: patient, currency: 'argentine_peso' });
    expect(b.einvoice).toMatchObject({
      adapter: 'arca',
      status: 'pending',
      letter: 'B',
      voucherType: 6,
      authorizationCode: null,
    });
    // Never called authorised before ARCA said so.
    expect(pdfText((await t.call('GET', `/api/sales/${b.id}/pdf`, { token: clinic.token })).rawPayload)).toContain(
      'Pendiente de autorización de ARCA',
    );
    const a = await issued(clinic, { customerId: company, patientId: null, currency: 'argentine_peso' });
    expect(a.einvoice).toMatchObject({ letter: 'A', voucherType: 1 });
    await sendAll();
    const authorisedB = await einvoiceOf(clinic, b.id);
    expect(authorisedB).toMatchObject({ status: 'accepted', fiscalNumber: '00001-00000001' });
    expect(authorisedB.authorizationCode).toMatch(/^\d{14}$/);
    expect(authorisedB.authorizationDueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const qr = new URL(authorisedB.qrUrl ?? '');
    expect(qr.origin + qr.pathname).toBe('https://www.arca.gob.ar/fe/qr/');
    const payload = JSON.parse(Buffer.from(qr.searchParams.get('p') ?? '', 'base64').toString('utf8'));
    expect(payload).toMatchObject({
      ver: 1,
      cuit: Number(cuit),
      ptoVta: 1,
      tipoCmp: 6,
      nroCmp: 1,
      importe: 121,
      moneda: 'PES',
      ctz: 1,
      tipoCodAut: 'E',
      codAut: Number(authorisedB.authorizationCode),
    });
    const authorisedA = await einvoiceOf(clinic, a.id);
    expect(authorisedA).toMatchObject({ status: 'accepted', letter: 'A', fiscalNumber: '00001-00000001' });
    const paper = pdfText((await t.call('GET', `/api/sales/${a.id}/pdf`, { token: clinic.token })).rawPayload);
    expect(paper, paper).toContain('Factura A');
    expect(paper).toContain(`CAE: ${authorisedA.authorizationCode}`);
    expect(paper).toContain('Comprobante autorizado por ARCA');
    expect(paper).not.toContain('Pendiente de autorización');
    // Homologation is ARCA's test environment: its CAEs are no tax documents either, and the paper says so.
    expect(paper).toContain('Entorno de homologación (pruebas) de la autoridad: sin validez fiscal');
    // ARCA holds each once, with our amounts.
    expect(
      arcaVouchers(cuit)
        .map((series) => [series.cbteTipo, series.last])
        .sort(),
    ).toEqual([
      [1, 1],
      [6, 1],
    ]);

    // A credit note of the Factura A: Nota de Crédito A (3), associated to it.
    const draft = await t.call('POST', `/api/sales/${a.id}/correct`, {
      token: clinic.token,
      body: { documentType: 'credit_note' },
    });
    expect(draft.statusCode, draft.body).toBe(201);
    const { id, version } = draft.json().data;
    const note = await t.call('POST', `/api/sales/${id}/issue`, { token: clinic.token, body: { version } });
    expect(note.statusCode, note.body).toBe(200);
    expect(note.json().data.einvoice).toMatchObject({ letter: 'A', voucherType: 3 });
    await sendAll();
    expect(await einvoiceOf(clinic, id)).toMatchObject({ status: 'accepted', fiscalNumber: '00001-00000001' });
    expect((await t.auditEvents('sale_einvoice_accepted', clinic)).length).toBe(3);
  });

  it('refuses at issue a Factura A without the customer’s CUIT, and keeps nothing', async () => {
    const { clinic } = await arcaClinic();
    const company = await insertCustomer(
      t,
      {
        kind: 'company',
        name: 'Sin CUIT S.A.',
        taxIdKind: null,
        taxId: null,
        fiscalCondition: 'ar_responsable_inscripto',
      },
      clinic,
    );
    const refused = await issue(clinic, { customerId: company, patientId: null, currency: 'argentine_peso' });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().code).toBe('einvoice_customer_tax_id_required');
    const list = (await t.call('GET', '/api/sales', { token: clinic.token })).json();
    expect(list.data.filter((row: { status: string }) => row.status === 'issued')).toHaveLength(0);
  });

  it('authorises 20 concurrent issues on one point of sale in issue order, none twice', async () => {
    const { clinic, cuit, patient } = await arcaClinic();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => issue(clinic, { patientId: patient, currency: 'argentine_peso' })),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(201);
    await sendAll(30);
    const sales = await Promise.all(
      answers.map(async (answer) => {
        const { id, number } = answer.json().data;
        return { number, einvoice: await einvoiceOf(clinic, id) };
      }),
    );
    sales.sort((x, y) => x.number.localeCompare(y.number));
    expect(sales.map((sale) => sale.einvoice.status)).toEqual(Array(20).fill('accepted'));
    // Our order is ARCA's order: 1…20, each CAE once.
    expect(sales.map((sale) => sale.einvoice.fiscalNumber)).toEqual(
      Array.from({ length: 20 }, (_, index) => `00001-${String(index + 1).padStart(8, '0')}`),
    );
    expect(new Set(sales.map((sale) => sale.einvoice.authorizationCode)).size).toBe(20);
    expect(arcaVouchers(cuit)[0]?.vouchers).toHaveLength(20);
  });

  it('asks ARCA before retrying: an answer lost, the service down, a rejection and a retry; nothing twice, nothing lost', async () => {
    const { clinic, cuit, patient } = await arcaClinic();
    // Lost answer: ARCA authorised it, we never heard.
    arca.fail('timeout', { holdMs: 3000 });
    const lost = await issued(clinic, { patientId: patient, currency: 'argentine_peso' });
    await t.app.jobs.runDue();
    expect(await einvoiceOf(clinic, lost.id)).toMatchObject({ status: 'sending', authorizationCode: null });
    expect(arcaVouchers(cuit)[0]?.last).toBe(1);
    await sendAll();
    const found = await einvoiceOf(clinic, lost.id);
    expect(found).toMatchObject({ status: 'accepted', fiscalNumber: '00001-00000001' });
    expect(found.authorizationCode).toBe(arcaVouchers(cuit)[0]?.vouchers[0]?.cae);
    expect(arcaVouchers(cuit)[0]?.vouchers).toHaveLength(1);

    // Down three times: contingency, then authorised once it answers.
    arca.fail('down', { count: 3 });
    const waiting = await issued(clinic, { patientId: patient, currency: 'argentine_peso' });
    for (let round = 0; round < 3; round += 1) {
      await t.db.withSystem((tx) =>
        tx.execute(sql`update jobs set run_at = now() where kind = 'einvoice.submit' and state = 'queued'`),
      );
      await t.app.jobs.runDue();
    }
    expect((await einvoiceOf(clinic, waiting.id)).status).toBe('contingency');
    expect((await settings(clinic)).queue.contingency).toBe(1);
    await sendAll();
    expect(await einvoiceOf(clinic, waiting.id)).toMatchObject({ status: 'accepted', fiscalNumber: '00001-00000002' });

    // Rejected: the reason kept with our key; ARCA took no number; sent again, it gets it.
    arca.fail('reject', { code: '10015', message: 'El campo DocNro es invalido' });
    const refused = await issued(clinic, { patientId: patient, currency: 'argentine_peso' });
    await sendAll();
    const rejected = await einvoiceOf(clinic, refused.id);
    expect(rejected).toMatchObject({ status: 'rejected', fiscalNumber: null, authorizationCode: null });
    expect(rejected.messages[0]).toMatchObject({ code: '10015', key: 'receiver_document_invalid' });
    expect(
      pdfText((await t.call('GET', `/api/sales/${refused.id}/pdf`, { token: clinic.token })).rawPayload),
    ).toContain('Rechazado por ARCA');
    expect(arcaVouchers(cuit)[0]?.last).toBe(2);
    const retried = await t.call('POST', `/api/sales/${refused.id}/einvoice/retry`, { token: clinic.token });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toMatchObject({ code: 'einvoice_retry_queued', data: { einvoice: { status: 'pending' } } });
    await sendAll();
    expect(await einvoiceOf(clinic, refused.id)).toMatchObject({ status: 'accepted', fiscalNumber: '00001-00000003' });
    const again = await t.call('POST', `/api/sales/${refused.id}/einvoice/retry`, { token: clinic.token });
    expect(again.json().code).toBe('einvoice_not_retryable');
    expect(arcaVouchers(cuit)[0]?.vouchers.map((voucher) => voucher.cbteNro)).toEqual([1, 2, 3]);

    // The request processed twice by ARCA (answered with the same CAE): on record once, held once.
    arca.fail('duplicate');
    const twice = await issued(clinic, { patientId: patient, currency: 'argentine_peso' });
    await sendAll();
    const once = await einvoiceOf(clinic, twice.id);
    expect(once).toMatchObject({ status: 'accepted', fiscalNumber: '00001-00000004' });
    expect(once.authorizationCode).toBe(arcaVouchers(cuit)[0]?.vouchers[3]?.cae);
    expect(arcaVouchers(cuit)[0]?.vouchers.map((voucher) => voucher.cbteNro)).toEqual([1, 2, 3, 4]);
  });

  it('logs in again when the ticket expired, shares the ticket, and reports vouchers ARCA has that we do not', async () => {
    const { clinic, cuit, patient } = await arcaClinic();
    await issued(clinic, { patientId: patient, currency: 'argentine_peso' });
    await sendAll();
    const logins = arca.state().logins;
    await issued(clinic, { patientId: patient, currency: 'argentine_peso' });
    await sendAll();
    expect(arca.state().logins).toBe(logins);
    arca.expireTickets();
    const late = await issued(clinic, { patientId: patient, currency: 'argentine_peso' });
    await sendAll();
    expect(await einvoiceOf(clinic, late.id)).toMatchObject({ status: 'accepted', fiscalNumber: '00001-00000003' });
    expect(arca.state().logins).toBe(logins + 1);

    // Two vouchers authorised on the same point of sale by another system.
    const other = (await import('./arca/index.ts')).arcaClient({
      endpoints: arca.endpoints,
      credentials: { cuit, ...arca.issueCertificate(cuit) },
      tickets: (await import('./arca/index.ts')).memoryTicketStore(),
    });
    const outside = await other.lastAuthorized(1, 6);
    expect(outside).toBe(3);
    arca.expireTickets();
    const voucher = (n: number) => ({
      ptoVta: 1,
      cbteTipo: 6,
      concepto: 2 as const,
      docTipo: 99,
      docNro: '0',
      condicionIvaReceptorId: 5,
      cbteNro: n,
      cbteFch: new Date().toISOString().slice(0, 10).replaceAll('-', ''),
      impTotal: '121.00',
      impTotConc: '0.00',
      impNeto: '100.00',
      impOpEx: '0.00',
      impIva: '21.00',
      impTrib: '0.00',
      monId: 'PES',
      monCotiz: '1',
      fchServDesde: new Date().toISOString().slice(0, 10).replaceAll('-', ''),
      fchServHasta: new Date().toISOString().slice(0, 10).replaceAll('-', ''),
      fchVtoPago: new Date().toISOString().slice(0, 10).replaceAll('-', ''),
      iva: [{ id: 5, baseImp: '100.00', importe: '21.00' }],
    });
    expect((await other.authorize([voucher(4), voucher(5)])).result).toBe('A');
    const next = await issued(clinic, { patientId: patient, currency: 'argentine_peso' });
    await sendAll();
    expect(await einvoiceOf(clinic, next.id)).toMatchObject({ status: 'accepted', fiscalNumber: '00001-00000006' });
    const series = (await settings(clinic)).series.find((row: { voucherType: number }) => row.voucherType === 6);
    expect(series).toMatchObject({
      pointOfSale: 1,
      lastNumber: 6,
      authorityLastNumber: 5,
      difference: { ours: 3, authority: 5 },
    });
  });

  it('keeps the certificate sealed, refuses unusable ones, tests the connection and stays the clinic’s own', async () => {
    const { clinic, cuit } = await arcaClinic();
    const stored = await t.db.withSystem((tx) =>
      tx.execute<{ certificate_sealed: string; private_key_sealed: string }>(
        sql`select certificate_sealed, private_key_sealed from einvoice_settings where account_id = ${clinic.accountId}::uuid`,
      ),
    );
    expect(stored.rows[0]?.private_key_sealed).toMatch(/^v1\./);
    expect(JSON.stringify(await settings(clinic))).not.toContain('PRIVATE');
    const expired = await t.call('PUT', '/api/settings/einvoicing/certificate', {
      token: clinic.token,
      body: arca.issueCertificate(cuit, { expired: true }),
    });
    expect(expired.json()).toMatchObject({ code: 'einvoice_certificate_invalid', details: { reason: 'expired' } });
    const another = arca.issueCertificate(cuit);
    const mismatch = await t.call('PUT', '/api/settings/einvoicing/certificate', {
      token: clinic.token,
      body: { certificatePem: another.certificatePem, privateKeyPem: arca.issueCertificate(cuit).privateKeyPem },
    });
    expect(mismatch.json()).toMatchObject({
      code: 'einvoice_certificate_invalid',
      details: { reason: 'key_mismatch' },
    });
    const foreign = await t.call('PUT', '/api/settings/einvoicing/certificate', {
      token: clinic.token,
      body: arca.issueCertificate(nextCuit()),
    });
    expect(foreign.json()).toMatchObject({
      code: 'einvoice_certificate_invalid',
      details: { reason: 'tax_id_mismatch' },
    });
    const ok = await t.call('POST', '/api/settings/einvoicing/test', { token: clinic.token });
    expect(ok.json().data).toMatchObject({ regime: 'arca', ok: true, code: 'einvoice_connection_ok' });
    // A certificate ARCA does not trust: uploaded (we cannot know), refused by WSAA at the test.
    const untrusted = await t.call('PUT', '/api/settings/einvoicing/certificate', {
      token: clinic.token,
      body: arca.issueCertificate(cuit, { untrusted: true }),
    });
    expect(untrusted.statusCode, untrusted.body).toBe(200);
    const refused = await t.call('POST', '/api/settings/einvoicing/test', { token: clinic.token });
    expect(refused.json().data).toMatchObject({ ok: false, code: 'einvoice_authority_refused' });
    expect(refused.json().data.detail).toContain('cms.cert.untrusted');

    // Levels and clinics.
    const asUser = await t.asLevel(
      'user',
      () => t.call('GET', '/api/settings/einvoicing', { token: clinic.token }),
      clinic,
    );
    expect(asUser.statusCode).toBe(403);
    expect((await settings(t.other)).regime).toBe('local');
    const sale = await issued(clinic, { patientId: await t.newPatient(clinic.token), currency: 'argentine_peso' });
    const foreignRetry = await t.call('POST', `/api/sales/${sale.id}/einvoice/retry`, { token: t.other.token });
    expect(foreignRetry.statusCode).toBe(404);
    // ARCA needs an Argentine clinic.
    const { version } = await settings(t.other);
    const wrong = await t.call('PUT', '/api/settings/einvoicing', {
      token: t.other.token,
      body: { regime: 'arca', environment: 'homologation', pointsOfSale: [], version },
    });
    expect(wrong.json().code).toBe('einvoice_regime_invalid');
    expect((await t.auditEvents('einvoice_certificate_updated', clinic)).length).toBeGreaterThanOrEqual(2);
  });

  it('registers Verifactu records chained by their huella, valid against the AEAT schema; a lost answer is asked for; a rejection is corrected by subsanación', async () => {
    const { clinic, nif, patient } = await spanishClinic();
    const company = await insertCustomer(
      t,
      {
        kind: 'company',
        name: 'Mutua Levante S.A.',
        taxIdKind: 'nif',
        taxId: nextNif(),
        fiscalCondition: 'es_regimen_general',
      },
      clinic,
    );
    const connection = await t.call('POST', '/api/settings/einvoicing/test', { token: clinic.token });
    expect(connection.json().data).toMatchObject({ regime: 'verifactu', ok: true, code: 'einvoice_connection_ok' });
    // Without the patient's NIF a ticket (F2) may total 400 € at most: above it, refused at issue.
    const large = await issue(clinic, { patientId: patient, currency: 'euro', lines: [line('450', '0')] });
    expect(large.json()).toMatchObject({ code: 'einvoice_customer_tax_id_required', details: { limit: '400.00' } });
    const ticket = await issued(clinic, { patientId: patient, currency: 'euro', lines: [line('50', '0')] });
    const full = await issued(clinic, { customerId: company, patientId: null, currency: 'euro' });
    expect(ticket.einvoice).toMatchObject({ adapter: 'verifactu', status: 'pending' });
    // The QR and the legend from the start: the record exists from the issue on.
    expect(ticket.einvoice.qrUrl).toContain(`nif=${nif}`);
    await sendAll();
    const registered = await einvoiceOf(clinic, full.id);
    expect(registered).toMatchObject({ status: 'accepted', fiscalNumber: 'F0001-00000002' });
    expect(registered.authorizationCode).toBeTruthy();
    const held = aeat.state()[nif]?.records ?? [];
    expect(held.map((record) => record.estado)).toEqual(['Correcta', 'Correcta']);
    const records = await t.db.withSystem((tx) =>
      tx.execute<{ record_xml: string; record_hash: string }>(sql`
        select record_xml, record_hash from einvoice_submissions where account_id = ${clinic.accountId}::uuid order by queue_order`),
    );
    for (const row of records.rows) {
      const body = (await import('./verifactu/index.ts')).regFactuBody({ nif, nombre: 'Sonrisas S.R.L.' }, [
        row.record_xml,
      ]);
      expect(xsdErrors(body)).toBe('');
    }
    expect(records.rows[1]?.record_xml).toContain(records.rows[0]?.record_hash);
    const paper = pdfText((await t.call('GET', `/api/sales/${full.id}/pdf`, { token: clinic.token })).rawPayload);
    expect(paper).toContain('VERI*FACTU');
    expect(paper).toContain('Factura verificable en la sede electrónica de la AEAT');

    // Lost answer: registered at the AEAT, asked for, not sent twice.
    aeat.fail('timeout');
    const lost = await issued(clinic, { patientId: patient, currency: 'euro', lines: [line('30', '0')] });
    await t.app.jobs.runDue();
    expect((await einvoiceOf(clinic, lost.id)).status).toBe('sending');
    await sendAll();
    expect((await einvoiceOf(clinic, lost.id)).status).toBe('accepted');
    expect(aeat.state()[nif]?.records).toHaveLength(3);

    // Rejected (the AEAT's 1100): kept with its code; the subsanación is accepted.
    aeat.fail('reject', { code: '1100' });
    const refused = await issued(clinic, { patientId: patient, currency: 'euro', lines: [line('40', '0')] });
    await sendAll();
    const rejected = await einvoiceOf(clinic, refused.id);
    expect(rejected).toMatchObject({ status: 'rejected' });
    expect(rejected.messages[0]).toMatchObject({ code: '1100' });
    expect((await t.call('POST', `/api/sales/${refused.id}/einvoice/retry`, { token: clinic.token })).statusCode).toBe(
      200,
    );
    await sendAll();
    expect((await einvoiceOf(clinic, refused.id)).status).toBe('accepted');
    const subsanado = await t.db.withSystem((tx) =>
      tx.execute<{ record_xml: string }>(sql`
        select record_xml from einvoice_submissions where account_id = ${clinic.accountId}::uuid and document_id = ${refused.id}::uuid`),
    );
    expect(subsanado.rows[0]?.record_xml).toContain('<sum1:Subsanacion>S</sum1:Subsanacion>');
    expect(
      xsdErrors(
        (await import('./verifactu/index.ts')).regFactuBody({ nif, nombre: 'x' }, [
          subsanado.rows[0]?.record_xml ?? '',
        ]),
      ),
    ).toBe('');
  });

  it('a credit note of an invoice issued before the clinic chose ARCA is not sent: ARCA never had the invoice', async () => {
    const { clinic, cuit, patient } = await arcaClinic();
    const regime = async (value: 'local' | 'arca') => {
      const { version } = await settings(clinic);
      const saved = await t.call('PUT', '/api/settings/einvoicing', {
        token: clinic.token,
        body: { regime: value, environment: 'homologation', pointsOfSale: [], version },
      });
      expect(saved.statusCode, saved.body).toBe(200);
    };
    await regime('local');
    const before = await issued(clinic, { patientId: patient, currency: 'argentine_peso' });
    expect(before.einvoice.status).toBe('local');
    await regime('arca');
    const draft = await t.call('POST', `/api/sales/${before.id}/correct`, {
      token: clinic.token,
      body: { documentType: 'credit_note' },
    });
    const { id, version } = draft.json().data;
    const note = await t.call('POST', `/api/sales/${id}/issue`, { token: clinic.token, body: { version } });
    expect(note.json().data.einvoice).toMatchObject({ adapter: 'arca', status: 'not_sent' });
    await sendAll();
    expect(arcaVouchers(cuit)).toHaveLength(0);
  });

  it('a local clinic’s documents say they have no fiscal validity and are never sent', async () => {
    await pointOfSale(t.clinic);
    const sale = await issued(t.clinic, { patientId: t.patientId, currency: 'argentine_peso' });
    expect(sale.einvoice).toMatchObject({ adapter: 'local', status: 'local', authorizationCode: null, qrUrl: null });
    expect(await t.call('POST', `/api/sales/${sale.id}/einvoice/retry`).then((r) => r.json().code)).toBe(
      'einvoice_not_retryable',
    );
  });
});
