import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeArca, startFakeArca } from '../../../../dev/fake-arca.ts';
import { ArcaRefused, ArcaUnreachable } from './soap.ts';
import { type ArcaCredentials, login, memoryTicketStore } from './wsaa.ts';
import { type ArcaVoucher, arcaClient } from './wsfe.ts';

const CUIT = '20123456786';
const RECEIVER_CUIT = '33693450239';

let fake: FakeArca;
let credentials: ArcaCredentials;

beforeAll(async () => {
  fake = await startFakeArca();
  credentials = { cuit: CUIT, ...fake.issueCertificate(CUIT) };
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.reset();
});

function today(days = 0): string {
  return new Date(Date.now() - 3 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
}

/** An invoice A of 121.00 (100 + 21% VAT) to a registered payer. */
function invoiceA(cbteNro: number, overrides: Partial<ArcaVoucher> = {}): ArcaVoucher {
  return {
    ptoVta: 1,
    cbteTipo: 1,
    concepto: 2,
    docTipo: 80,
    docNro: RECEIVER_CUIT,
    condicionIvaReceptorId: 1,
    cbteNro,
    cbteFch: today(),
    impTotal: '121.00',
    impTotConc: '0.00',
    impNeto: '100.00',
    impOpEx: '0.00',
    impIva: '21.00',
    impTrib: '0.00',
    monId: 'PES',
    monCotiz: '1',
    fchServDesde: today(),
    fchServHasta: today(),
    fchVtoPago: today(),
    iva: [{ id: 5, baseImp: '100.00', importe: '21.00' }],
    ...overrides,
  };
}

function client(options: { timeoutMs?: number; creds?: ArcaCredentials } = {}) {
  return arcaClient({
    endpoints: fake.endpoints,
    credentials: options.creds ?? credentials,
    tickets: memoryTicketStore(),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
}

async function refusal(promise: Promise<unknown>): Promise<ArcaRefused> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ArcaRefused);
  return error as ArcaRefused;
}

describe('WSAA', () => {
  it('logs in once and reuses the ticket', async () => {
    const arca = client();
    expect(await arca.lastAuthorized(1, 1)).toBe(0);
    expect(await arca.lastAuthorized(1, 6)).toBe(0);
    expect(fake.state().logins).toBe(1);
  });

  it('a second login while the ticket is valid is refused as ARCA does', async () => {
    await login(fake.endpoints, credentials);
    const error = await refusal(login(fake.endpoints, credentials));
    expect(error.code).toBe('coe.alreadyAuthenticated');
  });

  it('an expired ticket is dropped and renewed once', async () => {
    const arca = client();
    await arca.lastAuthorized(1, 1);
    fake.expireTickets();
    expect(await arca.lastAuthorized(1, 1)).toBe(0);
    expect(fake.state().logins).toBe(2);
    expect(fake.state().requests.FECompUltimoAutorizado).toBe(3);
  });

  it('expired, untrusted certificates and a wrong key are refused with stable codes', async () => {
    const expired = { cuit: CUIT, ...fake.issueCertificate(CUIT, { expired: true }) };
    expect((await refusal(login(fake.endpoints, expired))).code).toBe('cms.cert.expired');
    const untrusted = { cuit: CUIT, ...fake.issueCertificate(CUIT, { untrusted: true }) };
    expect((await refusal(login(fake.endpoints, untrusted))).code).toBe('cms.cert.untrusted');
    const other = fake.issueCertificate(CUIT);
    const wrongKey = { ...credentials, privateKeyPem: other.privateKeyPem };
    expect((await refusal(client({ creds: wrongKey }).lastAuthorized(1, 1))).code).toBe('cms.sign.invalid');
    expect(fake.state().logins).toBe(0);
  });

  it('a TRA from the future is refused', async () => {
    const error = await refusal(login(fake.endpoints, credentials, 'wsfe', { now: new Date(Date.now() + 3_600_000) }));
    expect(error.code).toBe('xml.generationTime.invalid');
  });
});

describe('WSFEv1', () => {
  it('authorises one voucher, then three in one request', async () => {
    const arca = client();
    const one = await arca.authorize([invoiceA(1)]);
    expect(one.result).toBe('A');
    expect(one.vouchers[0]).toMatchObject({ cbteNro: 1, result: 'A', observations: [], errors: [] });
    expect(one.vouchers[0]?.cae).toMatch(/^\d{14}$/);
    expect(one.vouchers[0]?.caeDueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const three = await arca.authorize([invoiceA(2), invoiceA(3), invoiceA(4)]);
    expect(three.result).toBe('A');
    expect(three.vouchers.map((v) => [v.cbteNro, v.result])).toEqual([
      [2, 'A'],
      [3, 'A'],
      [4, 'A'],
    ]);
    expect(await arca.lastAuthorized(1, 1)).toBe(4);
    const consulted = await arca.consult(1, 1, 3);
    expect(consulted).toMatchObject({
      cbteNro: 3,
      result: 'A',
      cae: three.vouchers[1]?.cae,
      impTotal: '121.00',
      docTipo: 80,
      docNro: RECEIVER_CUIT,
    });
    expect(await arca.consult(1, 1, 99)).toBeNull();
  });

  it('rejects with observations; the following vouchers of the request as not correlative', async () => {
    const arca = client();
    const answer = await arca.authorize([invoiceA(1), invoiceA(2, { impTotal: '120.00' }), invoiceA(3)]);
    expect(answer.result).toBe('P');
    expect(answer.vouchers.map((v) => v.result)).toEqual(['A', 'R', 'R']);
    expect(answer.vouchers[1]?.observations.map((o) => o.code)).toEqual(['10048']);
    expect(answer.vouchers[2]?.observations.map((o) => o.code)).toEqual(['10016']);
    expect(answer.vouchers[1]?.cae).toBeNull();
    expect(await arca.lastAuthorized(1, 1)).toBe(1);
  });

  it('validates like ARCA: number, receiver, RG 5616 condition, letter C without VAT, notes', async () => {
    const arca = client();
    const codes = async (voucher: ArcaVoucher) =>
      (await arca.authorize([voucher])).vouchers[0]?.observations.map((o) => o.code);
    expect(await codes(invoiceA(5))).toEqual(['10016']);
    expect(await codes(invoiceA(1, { docTipo: 96, docNro: '30111222' }))).toEqual(['10013']);
    expect(await codes(invoiceA(1, { docNro: '20123456780' }))).toEqual(['10015']);
    expect(await codes(invoiceA(1, { condicionIvaReceptorId: 5 }))).toEqual(['10243']);
    expect(await codes(invoiceA(1, { cbteTipo: 11 }))).toEqual(['10071']);
    expect(await codes(invoiceA(1, { cbteTipo: 3 }))).toEqual(['10151']);
    expect(await codes(invoiceA(1, { cbteFch: today(-30) }))).toEqual(['10016']);
    const b = await arca.authorize([
      invoiceA(1, {
        cbteTipo: 6,
        docTipo: 99,
        docNro: '0',
        condicionIvaReceptorId: 5,
        impTotal: '12100000.00',
        impNeto: '10000000.00',
        impIva: '2100000.00',
        iva: [{ id: 5, baseImp: '10000000.00', importe: '2100000.00' }],
      }),
    ]);
    expect(b.vouchers[0]?.observations.map((o) => o.code)).toEqual(['10015']);
    const c = await arca.authorize([
      invoiceA(1, {
        cbteTipo: 11,
        docTipo: 99,
        docNro: '0',
        condicionIvaReceptorId: 5,
        impTotal: '100.00',
        impNeto: '100.00',
        impIva: '0.00',
        iva: [],
      }),
    ]);
    expect(c.vouchers[0]?.result).toBe('A');
  });

  it('a rejection fault answers the given code', async () => {
    fake.fail('reject', { code: '10015', message: 'DocNro invalido' });
    const answer = await client().authorize([invoiceA(1)]);
    expect(answer.result).toBe('R');
    expect(answer.vouchers[0]?.observations).toEqual([{ code: '10015', message: 'DocNro invalido' }]);
  });

  it('an answer lost after authorising is ArcaUnreachable; asking first shows the voucher was authorised', async () => {
    const arca = client({ timeoutMs: 500 });
    await arca.lastAuthorized(1, 1);
    fake.fail('timeout');
    await expect(arca.authorize([invoiceA(1)])).rejects.toBeInstanceOf(ArcaUnreachable);
    expect(await arca.lastAuthorized(1, 1)).toBe(1);
    const found = await arca.consult(1, 1, 1);
    expect(found?.result).toBe('A');
    expect(found?.cae).toMatch(/^\d{14}$/);
    // Sending the very same voucher again is reprocessed: the CAE it already had.
    const again = await arca.authorize([invoiceA(1)]);
    expect(again.vouchers[0]?.cae).toBe(found?.cae);
  });

  it('a request processed twice answers the same CAE (reprocess)', async () => {
    fake.fail('duplicate');
    const answer = await client().authorize([invoiceA(1)]);
    expect(answer.vouchers[0]?.result).toBe('A');
    expect(fake.state().series[0]?.vouchers).toHaveLength(1);
    expect(fake.state().series[0]?.vouchers[0]?.cae).toBe(answer.vouchers[0]?.cae);
  });

  it('the service down is ArcaUnreachable', async () => {
    const arca = client();
    fake.fail('down');
    await expect(arca.lastAuthorized(1, 1)).rejects.toBeInstanceOf(ArcaUnreachable);
    fake.fail('down');
    await expect(arca.authorize([invoiceA(1)])).rejects.toBeInstanceOf(ArcaUnreachable);
    expect(fake.state().series).toEqual([]);
  });

  it('nothing listening is ArcaUnreachable', async () => {
    const arca = arcaClient({
      endpoints: {
        wsaaUrl: 'http://127.0.0.1:1/ws/services/LoginCms',
        wsfeUrl: 'http://127.0.0.1:1/wsfev1/service.asmx',
      },
      credentials,
      tickets: memoryTicketStore(),
    });
    await expect(arca.lastAuthorized(1, 1)).rejects.toBeInstanceOf(ArcaUnreachable);
  });

  it('20 vouchers authorised one after another get 1..20 and distinct CAEs', async () => {
    const arca = client();
    const caes: string[] = [];
    for (let n = 1; n <= 20; n++) {
      const next = (await arca.lastAuthorized(1, 6)) + 1;
      const answer = await arca.authorize([
        invoiceA(next, { cbteTipo: 6, docTipo: 96, docNro: String(30_000_000 + n), condicionIvaReceptorId: 5 }),
      ]);
      expect(answer.vouchers[0]?.result).toBe('A');
      caes.push(answer.vouchers[0]?.cae ?? '');
    }
    expect(fake.state().series[0]?.vouchers.map((v) => v.cbteNro)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(new Set(caes).size).toBe(20);
  });

  it('checks the connection', async () => {
    expect(await client().checkConnection()).toEqual({
      appServer: 'OK',
      dbServer: 'OK',
      authServer: 'OK',
      pointsOfSale: [{ number: 1, blocked: false }],
    });
  });
});
