import { describe, expect, it } from 'vitest';
import { huellaAlta, huellaAnulacion } from './huella.ts';
import { nifIsValid } from './nif.ts';
import { verifactuQrUrl } from './qr.ts';
import { buildAlta, buildAnulacion, isoWithOffset } from './records.ts';
import {
  consultaBody,
  parseSubmissionAnswer,
  regFactuBody,
  submissionEnvelope,
  VerifactuRefused,
  verifactuEndpoint,
} from './soap.ts';
import { altaF1, HUELLA_EXAMPLES, ISSUER, SISTEMA, xsdErrors } from './verifactu-test-data.ts';

describe('huella (AEAT worked examples, spec v0.1.2 §6)', () => {
  for (const ex of HUELLA_EXAMPLES.alta) {
    it(ex.case, () => {
      expect(
        huellaAlta({
          idEmisorFactura: ex.IDEmisorFactura,
          numSerieFactura: ex.NumSerieFactura,
          fechaExpedicionFactura: ex.FechaExpedicionFactura,
          tipoFactura: ex.TipoFactura,
          cuotaTotal: ex.CuotaTotal,
          importeTotal: ex.ImporteTotal,
          huellaAnterior: ex.Huella,
          fechaHoraHusoGenRegistro: ex.FechaHoraHusoGenRegistro,
        }),
      ).toBe(ex.expected);
    });
  }
  for (const ex of HUELLA_EXAMPLES.anulacion) {
    it(ex.case, () => {
      expect(
        huellaAnulacion({
          idEmisorFacturaAnulada: ex.IDEmisorFacturaAnulada,
          numSerieFacturaAnulada: ex.NumSerieFacturaAnulada,
          fechaExpedicionFacturaAnulada: ex.FechaExpedicionFacturaAnulada,
          huellaAnterior: ex.Huella,
          fechaHoraHusoGenRegistro: ex.FechaHoraHusoGenRegistro,
        }),
      ).toBe(ex.expected);
    });
  }

  it('trims values, as the spec says (" 12345678/G33 " hashes like "12345678/G33")', () => {
    const ex = HUELLA_EXAMPLES.alta[0];
    const fields = {
      idEmisorFactura: ex.IDEmisorFactura,
      numSerieFactura: ` ${ex.NumSerieFactura} `,
      fechaExpedicionFactura: ex.FechaExpedicionFactura,
      tipoFactura: ex.TipoFactura,
      cuotaTotal: ex.CuotaTotal,
      importeTotal: ex.ImporteTotal,
      huellaAnterior: '',
      fechaHoraHusoGenRegistro: ex.FechaHoraHusoGenRegistro,
    };
    expect(huellaAlta(fields)).toBe(ex.expected);
    expect(huellaAlta({ ...fields, importeTotal: '123.46' })).not.toBe(ex.expected);
  });

  it('buildAlta/buildAnulacion reproduce the chain of the three examples', () => {
    const [first, second] = HUELLA_EXAMPLES.alta;
    const base = altaF1({
      issuerNif: '89890001K',
      numSerie: '12345678/G33',
      fecha: '2024-01-01',
      cuotaTotal: '12.35',
      importeTotal: '123.45',
      generatedAt: new Date('2024-01-01T18:20:30Z'),
    });
    const a1 = buildAlta(base);
    expect(a1.fechaHoraHusoGenRegistro).toBe('2024-01-01T19:20:30+01:00');
    expect(a1.huella).toBe(first.expected);
    const link = { issuerNif: '89890001K', numSerie: '12345678/G33', fecha: '2024-01-01', huella: a1.huella };
    const a2 = buildAlta({
      ...base,
      numSerie: '12345679/G34',
      previous: link,
      generatedAt: new Date('2024-01-01T18:20:35Z'),
    });
    expect(a2.huella).toBe(second.expected);
    const an = buildAnulacion({
      issuerNif: '89890001K',
      numSerie: '12345679/G34',
      fecha: '2024-01-01',
      previous: { ...link, numSerie: '12345679/G34', huella: a2.huella },
      generatedAt: new Date('2024-01-01T18:20:40Z'),
      timeZone: 'Europe/Madrid',
      sistema: SISTEMA,
    });
    expect(an.huella).toBe(HUELLA_EXAMPLES.anulacion[0].expected);
    expect(an.xml).toContain(`<sum1:Huella>${an.huella}</sum1:Huella>`);
  });

  it('FechaHoraHusoGenRegistro carries the zone offset (summer time, Canary Islands)', () => {
    expect(isoWithOffset(new Date('2025-07-01T10:00:00.987Z'), 'Europe/Madrid')).toBe('2025-07-01T12:00:00+02:00');
    expect(isoWithOffset(new Date('2025-01-15T10:00:00Z'), 'Atlantic/Canary')).toBe('2025-01-15T10:00:00+00:00');
  });
});

describe('XML validates against the official XSD (xmllint)', () => {
  it('rejects an invalid document (the check can fail)', () => {
    const bad = regFactuBody(ISSUER, [buildAlta(altaF1()).xml]).replace('<sum1:TipoFactura>F1</sum1:TipoFactura>', '');
    expect(xsdErrors(bad)).toMatch(/fails to validate/);
  });

  it('alta F1 with recipient', () => {
    const alta = buildAlta(altaF1());
    expect(alta.xml).toContain('Tratamiento de ortodoncia &amp; revisión');
    expect(xsdErrors(regFactuBody(ISSUER, [alta.xml]))).toBe('');
  });

  it('F2 simplified, no recipient, exempt line', () => {
    const alta = buildAlta(
      altaF1({
        tipoFactura: 'F2',
        destinatario: undefined,
        desglose: [{ impuesto: '01', claveRegimen: '01', exenta: 'E1', baseImponible: '60.00' }],
        cuotaTotal: '0.00',
        importeTotal: '60.00',
      }),
    );
    expect(alta.xml).not.toContain('Destinatarios');
    expect(xsdErrors(regFactuBody(ISSUER, [alta.xml]))).toBe('');
  });

  it('R1 rectificativa (por diferencias) and R5 por sustitución, chained', () => {
    const first = buildAlta(altaF1());
    const previous = { issuerNif: ISSUER.nif, numSerie: 'F2025/0001', fecha: '2025-03-10', huella: first.huella };
    const r1 = buildAlta(
      altaF1({
        numSerie: 'R2025/0001',
        tipoFactura: 'R1',
        tipoRectificativa: 'I',
        rectificadas: [{ issuerNif: ISSUER.nif, numSerie: 'F2025/0001', fecha: '2025-03-10' }],
        desglose: [
          {
            impuesto: '01',
            claveRegimen: '01',
            calificacion: 'S1',
            tipoImpositivo: '21',
            baseImponible: '-50.00',
            cuota: '-10.50',
          },
        ],
        cuotaTotal: '-10.50',
        importeTotal: '-60.50',
        previous,
      }),
    );
    const r5 = buildAlta(
      altaF1({
        numSerie: 'R2025/0002',
        tipoFactura: 'R5',
        tipoRectificativa: 'S',
        destinatario: undefined,
        importeRectificacion: { base: '100.00', cuota: '21.00' },
        previous: { ...previous, numSerie: 'R2025/0001', huella: r1.huella },
      }),
    );
    expect(r1.xml).toContain('<sum1:RegistroAnterior>');
    expect(xsdErrors(regFactuBody(ISSUER, [r1.xml, r5.xml]))).toBe('');
    expect(() => buildAlta(altaF1({ tipoFactura: 'R1' }))).toThrow(/tipoRectificativa/);
  });

  it('subsanación with RechazoPrevio, recipient identified abroad', () => {
    const alta = buildAlta(
      altaF1({
        subsanacion: true,
        rechazoPrevio: 'X',
        destinatario: { nombre: 'John Smith', idOtro: { codigoPais: 'GB', idType: '03', id: 'P1234567' } },
      }),
    );
    expect(alta.xml).toMatch(/<sum1:Subsanacion>S<\/sum1:Subsanacion><sum1:RechazoPrevio>X<\/sum1:RechazoPrevio>/);
    expect(xsdErrors(regFactuBody(ISSUER, [alta.xml]))).toBe('');
  });

  it('anulación and a 3-record envelope', () => {
    const alta = buildAlta(altaF1());
    const link = { issuerNif: ISSUER.nif, numSerie: 'F2025/0001', fecha: '2025-03-10', huella: alta.huella };
    const second = buildAlta(altaF1({ numSerie: 'F2025/0002', previous: link }));
    const anulacion = buildAnulacion({
      issuerNif: ISSUER.nif,
      numSerie: 'F2025/0001',
      fecha: '2025-03-10',
      previous: { ...link, numSerie: 'F2025/0002', huella: second.huella },
      generatedAt: new Date(),
      timeZone: 'Europe/Madrid',
      sistema: SISTEMA,
    });
    expect(xsdErrors(regFactuBody(ISSUER, [anulacion.xml]))).toBe('');
    const envelope = submissionEnvelope(ISSUER, [alta.xml, second.xml, anulacion.xml]);
    const body = /<sum:RegFactuSistemaFacturacion[\s\S]*<\/sum:RegFactuSistemaFacturacion>/.exec(envelope)?.[0] ?? '';
    expect(body.match(/<sum:RegistroFactura>/g)).toHaveLength(3);
    expect(xsdErrors(body)).toBe('');
    expect(() => submissionEnvelope(ISSUER, [])).toThrow();
  });

  it('the consult request validates against ConsultaLR.xsd', () => {
    expect(xsdErrors(consultaBody(ISSUER, { numSerie: 'F2025/0001', fecha: '2025-03-10' }), 'ConsultaLR.xsd')).toBe('');
  });
});

describe('NIF', () => {
  it.each([
    '12345678Z',
    '00000000T',
    'X1234567L',
    'Y1234567X',
    'Z1234567R',
    'B12345674',
    'A58818501',
    'Q2826000H',
    'P0800000B',
    'N0032484H',
  ])('%s is valid', (nif) => expect(nifIsValid(nif)).toBe(true));
  it.each(['12345678A', 'X1234567A', 'B12345675', 'Q28260008', 'A5881850J', '1234567Z', 'W123', ''])(
    '%s is not',
    (nif) => expect(nifIsValid(nif)).toBe(false),
  );
});

describe('QR URL (AEAT QR document examples)', () => {
  for (const ex of HUELLA_EXAMPLES.qr.examples) {
    it(ex.expected, () => expect(verifactuQrUrl(ex.env, ex)).toBe(ex.expected));
  }
  it('encodes spaces and slashes', () => {
    expect(
      verifactuQrUrl('production', { nif: 'B12345674', numSerie: 'F 2025/1', fecha: '2025-03-10', importe: '121.00' }),
    ).toBe(
      'https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=B12345674&numserie=F+2025%2F1&fecha=10-03-2025&importe=121.00',
    );
  });
});

describe('SOAP', () => {
  it('endpoints are the WSDL ports', () => {
    expect(verifactuEndpoint('test')).toBe(
      'https://prewww1.aeat.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP',
    );
    expect(verifactuEndpoint('production')).toBe(
      'https://www1.agenciatributaria.gob.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP',
    );
  });

  it('a SOAP fault (example of the service description) becomes VerifactuRefused with its code', () => {
    const fault = `<?xml version="1.0" encoding="UTF-8"?><env:Envelope xmlns:env="http://schemas.xmlsoap.org/soap/envelope/"><env:Body><env:Fault><faultcode>env:Client</faultcode><faultstring>Codigo[4104].El NIF del titular en la cabecera no está identificado.</faultstring></env:Fault></env:Body></env:Envelope>`;
    expect(() => parseSubmissionAnswer(fault)).toThrow(VerifactuRefused);
    try {
      parseSubmissionAnswer(fault);
    } catch (error) {
      expect((error as VerifactuRefused).code).toBe('4104');
    }
  });
});
