import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAeat, startFakeAeat } from '../../../../dev/fake-aeat.ts';
import { buildAlta, buildAnulacion, type ChainLink } from './records.ts';
import { type VerifactuClient, VerifactuRefused, VerifactuUnreachable, verifactuClient } from './soap.ts';
import { altaF1, ISSUER, SISTEMA, xsdErrors } from './verifactu-test-data.ts';

let fake: FakeAeat;
let client: VerifactuClient;

beforeAll(async () => {
  fake = await startFakeAeat();
  client = verifactuClient({
    endpoint: fake.endpoint,
    ca: fake.ca,
    timeoutMs: 1500,
    ...fake.issueCertificate(ISSUER.nif),
  });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

/** n chained altas F2025/0001… on 2025-03-10, starting after `previous`. */
function chain(n: number, previous: ChainLink | null = null, from = 1) {
  const records: string[] = [];
  let link = previous;
  for (let i = from; i < from + n; i++) {
    const numSerie = `F2025/${String(i).padStart(4, '0')}`;
    const built = buildAlta(altaF1({ numSerie, previous: link, generatedAt: new Date() }));
    records.push(built.xml);
    link = { issuerNif: ISSUER.nif, numSerie, fecha: '2025-03-10', huella: built.huella };
  }
  return { records, last: link as ChainLink };
}

describe('Verifactu client against the fake AEAT', () => {
  it('happy batch of 3: Correcto, CSV, wait time; query returns what is held', async () => {
    fake.setWait(90);
    const { records, last } = chain(3);
    const answer = await client.submit(ISSUER, records);
    expect(answer.estadoEnvio).toBe('Correcto');
    expect(answer.csv).toMatch(/^A-/);
    expect(answer.tiempoEsperaEnvio).toBe(90);
    expect(answer.lines.map((l) => [l.numSerie, l.fecha, l.operacion, l.estado])).toEqual([
      ['F2025/0001', '2025-03-10', 'Alta', 'Correcto'],
      ['F2025/0002', '2025-03-10', 'Alta', 'Correcto'],
      ['F2025/0003', '2025-03-10', 'Alta', 'Correcto'],
    ]);
    expect(await client.query(ISSUER, { numSerie: 'F2025/0003', fecha: '2025-03-10' })).toEqual({
      estado: 'Correcto',
      huella: last.huella,
    });
    expect(await client.query(ISSUER, { numSerie: 'F2025/0099', fecha: '2025-03-10' })).toEqual({
      estado: null,
      huella: null,
    });
    expect(await client.checkConnection(ISSUER)).toEqual({ ok: true });
  });

  it('a rejected line: ParcialmenteCorrecto with its code', async () => {
    fake.fail('reject', { code: '1104' });
    const answer = await client.submit(ISSUER, chain(2).records);
    expect(answer.estadoEnvio).toBe('ParcialmenteCorrecto');
    expect(answer.lines[0]).toMatchObject({ estado: 'Incorrecto', codigoError: '1104' });
    // The next record chains to the rejected one, as the system generated them: its chain holds.
    expect(answer.lines[1]).toMatchObject({ estado: 'Correcto', codigoError: null });
  });

  it('timeout: VerifactuUnreachable, yet the records are registered', async () => {
    fake.fail('timeout');
    const { records, last } = chain(1);
    await expect(client.submit(ISSUER, records)).rejects.toBeInstanceOf(VerifactuUnreachable);
    expect(await client.query(ISSUER, { numSerie: 'F2025/0001', fecha: '2025-03-10' })).toEqual({
      estado: 'Correcto',
      huella: last.huella,
    });
  });

  it('down: VerifactuUnreachable and nothing registered', async () => {
    fake.fail('down');
    await expect(client.submit(ISSUER, chain(2).records)).rejects.toBeInstanceOf(VerifactuUnreachable);
    expect(fake.state()[ISSUER.nif]).toBeUndefined();
    expect((await client.submit(ISSUER, chain(2).records)).estadoEnvio).toBe('Correcto');
  });

  it('duplicate: the request processed twice answers 3000 with what is held', async () => {
    fake.fail('duplicate');
    const answer = await client.submit(ISSUER, chain(1).records);
    expect(answer.estadoEnvio).toBe('Incorrecto');
    expect(answer.lines[0]).toMatchObject({
      estado: 'Incorrecto',
      codigoError: '3000',
      duplicado: { estado: 'Correcta' },
    });
    expect(fake.state()[ISSUER.nif]?.records).toHaveLength(1);
  });

  it('wrong chain huella and wrong own huella are flagged (AEAT 2003 / 2000); anulación of unknown invoice refused', async () => {
    const first = chain(1);
    await client.submit(ISSUER, first.records);
    const broken = chain(1, { ...first.last, huella: 'A'.repeat(64) }, 2);
    const tampered = buildAlta(altaF1({ numSerie: 'F2025/0003', previous: null })).xml.replace(
      '<sum1:ImporteTotal>121.00</sum1:ImporteTotal>',
      '<sum1:ImporteTotal>999.00</sum1:ImporteTotal>',
    );
    const unknown = buildAnulacion({
      issuerNif: ISSUER.nif,
      numSerie: 'F2025/0404',
      fecha: '2025-03-10',
      previous: first.last,
      generatedAt: new Date(),
      timeZone: 'Europe/Madrid',
      sistema: SISTEMA,
    });
    const answer = await client.submit(ISSUER, [...broken.records, tampered, unknown.xml]);
    expect(answer.estadoEnvio).toBe('ParcialmenteCorrecto');
    expect(answer.lines.map((l) => [l.estado, l.codigoError])).toEqual([
      ['AceptadoConErrores', '2003'],
      ['AceptadoConErrores', '2000'],
      ['Incorrecto', '3002'],
    ]);
  });

  it('anulación of a registered invoice; the query then shows Anulada', async () => {
    const { records, last } = chain(1);
    await client.submit(ISSUER, records);
    const anulacion = buildAnulacion({
      issuerNif: ISSUER.nif,
      numSerie: 'F2025/0001',
      fecha: '2025-03-10',
      previous: last,
      generatedAt: new Date(),
      timeZone: 'Europe/Madrid',
      sistema: SISTEMA,
    });
    const answer = await client.submit(ISSUER, [anulacion.xml]);
    expect(answer.lines[0]).toMatchObject({ operacion: 'Anulacion', estado: 'Correcto' });
    expect((await client.query(ISSUER, { numSerie: 'F2025/0001', fecha: '2025-03-10' })).estado).toBe('Anulada');
  });

  it('a certificate of another NIF gets the SOAP fault 4112', async () => {
    const other = verifactuClient({ endpoint: fake.endpoint, ca: fake.ca, ...fake.issueCertificate('A58818501') });
    await expect(other.submit(ISSUER, chain(1).records)).rejects.toMatchObject({
      name: 'VerifactuRefused',
      code: '4112',
    });
  });

  it('expired and untrusted client certificates are refused', async () => {
    const expired = verifactuClient({
      endpoint: fake.endpoint,
      ca: fake.ca,
      ...fake.issueCertificate(ISSUER.nif, { expired: true }),
    });
    await expect(expired.checkConnection(ISSUER)).rejects.toBeInstanceOf(VerifactuRefused);
    const stranger = await startFakeAeat();
    try {
      const untrusted = verifactuClient({
        endpoint: fake.endpoint,
        ca: fake.ca,
        ...stranger.issueCertificate(ISSUER.nif),
      });
      await expect(untrusted.submit(ISSUER, chain(1).records)).rejects.toBeInstanceOf(VerifactuRefused);
    } finally {
      await stranger.close();
    }
    expect(fake.state()[ISSUER.nif]).toBeUndefined();
  });

  it("the fake's answers validate against RespuestaSuministro.xsd", async () => {
    const { records } = chain(2);
    const response = await fetchRaw(records);
    const body =
      /<tikR:RespuestaRegFactuSistemaFacturacion[\s\S]*<\/tikR:RespuestaRegFactuSistemaFacturacion>/.exec(
        response,
      )?.[0] ?? '';
    expect(xsdErrors(body, 'RespuestaSuministro.xsd')).toBe('');
  });

  it('1,000 records in one request', async () => {
    const { records } = chain(1000);
    const started = Date.now();
    const answer = await verifactuClient({
      endpoint: fake.endpoint,
      ca: fake.ca,
      ...fake.issueCertificate(ISSUER.nif),
    }).submit(ISSUER, records);
    expect(answer.estadoEnvio).toBe('Correcto');
    expect(answer.lines).toHaveLength(1000);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

async function fetchRaw(records: string[]): Promise<string> {
  const https = await import('node:https');
  const { submissionEnvelope } = await import('./soap.ts');
  const cert = fake.issueCertificate(ISSUER.nif);
  return new Promise((resolve, reject) => {
    const req = https.request(
      fake.endpoint,
      {
        method: 'POST',
        ca: fake.ca,
        cert: cert.certificatePem,
        key: cert.privateKeyPem,
        headers: { 'content-type': 'text/xml' },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve(text));
      },
    );
    req.on('error', reject);
    req.end(submissionEnvelope(ISSUER, records));
  });
}
