import { describe, expect, it } from 'vitest';
import {
  arcaMessageKeys,
  condicionIvaReceptorId,
  conditionFitsLetter,
  cuitIsValid,
  currencyCode,
  documentTypeCode,
  vatRateId,
  voucherLetter,
  voucherType,
} from './arca-codes.ts';
import { arcaQrUrl } from './arca-qr.ts';

describe('voucher letter', () => {
  it('a responsable inscripto issues A to registered payers and monotributistas, B to the rest', () => {
    expect(voucherLetter('responsable_inscripto', 'responsable_inscripto')).toBe('A');
    expect(voucherLetter('responsable_inscripto', 'monotributo')).toBe('A');
    expect(voucherLetter('responsable_inscripto', 'monotributo_social')).toBe('A');
    expect(voucherLetter('responsable_inscripto', 'consumidor_final')).toBe('B');
    expect(voucherLetter('responsable_inscripto', 'exento')).toBe('B');
    expect(voucherLetter('responsable_inscripto', 'cliente_exterior')).toBe('B');
  });

  it('monotributo and exento issuers always issue C', () => {
    expect(voucherLetter('monotributo', 'responsable_inscripto')).toBe('C');
    expect(voucherLetter('exento', 'consumidor_final')).toBe('C');
  });

  it('condition ids follow RG 5616 and fit the letters', () => {
    expect(condicionIvaReceptorId('responsable_inscripto')).toBe(1);
    expect(condicionIvaReceptorId('exento')).toBe(4);
    expect(condicionIvaReceptorId('consumidor_final')).toBe(5);
    expect(condicionIvaReceptorId('monotributo')).toBe(6);
    expect(condicionIvaReceptorId('sujeto_no_categorizado')).toBe(7);
    expect(condicionIvaReceptorId('iva_no_alcanzado')).toBe(15);
    expect(conditionFitsLetter(5, 'A')).toBe(false);
    expect(conditionFitsLetter(1, 'B')).toBe(false);
    expect(conditionFitsLetter(5, 'B')).toBe(true);
    expect(conditionFitsLetter(1, 'C')).toBe(true);
    expect(conditionFitsLetter(2, 'C')).toBe(false);
  });
});

describe('codes', () => {
  it('voucher types', () => {
    expect([voucherType('invoice', 'A'), voucherType('debit_note', 'A'), voucherType('credit_note', 'A')]).toEqual([
      1, 2, 3,
    ]);
    expect([voucherType('invoice', 'B'), voucherType('debit_note', 'B'), voucherType('credit_note', 'B')]).toEqual([
      6, 7, 8,
    ]);
    expect([voucherType('invoice', 'C'), voucherType('debit_note', 'C'), voucherType('credit_note', 'C')]).toEqual([
      11, 12, 13,
    ]);
  });

  it('VAT rate ids, whatever the trailing zeros', () => {
    expect(['0', '10.5', '21', '27', '5', '2.5'].map(vatRateId)).toEqual([3, 4, 5, 6, 8, 9]);
    expect(vatRateId('21.00')).toBe(5);
    expect(vatRateId('10.50')).toBe(4);
    expect(vatRateId('0.00')).toBe(3);
    expect(() => vatRateId('19')).toThrow();
    expect(() => vatRateId('abc')).toThrow();
  });

  it('CUIT check digit', () => {
    expect(cuitIsValid('20-12345678-6')).toBe(true);
    expect(cuitIsValid('33693450239')).toBe(true); // ARCA's own
    expect(cuitIsValid('20123456780')).toBe(false);
    expect(cuitIsValid('33693450238')).toBe(false);
    expect(cuitIsValid('2012345678')).toBe(false);
    expect(cuitIsValid('99123456780')).toBe(false);
  });

  it('document types and currencies', () => {
    expect(['cuit', 'cuil', 'dni', 'none'].map((k) => documentTypeCode(k as 'cuit'))).toEqual([80, 86, 96, 99]);
    expect(currencyCode('ARS')).toBe('PES');
    expect(currencyCode('usd')).toBe('DOL');
    expect(currencyCode('EUR')).toBe('060');
    expect(() => currencyCode('XXX')).toThrow();
  });

  it('maps at least 15 ARCA codes to keys', () => {
    expect(Object.keys(arcaMessageKeys).length).toBeGreaterThanOrEqual(15);
    expect(arcaMessageKeys['10015']).toEqual({ key: 'receiver_document_invalid', field: 'receiver.documentNumber' });
    expect(arcaMessageKeys['10016']?.key).toBe('number_or_date_not_next');
    expect(arcaMessageKeys['600']?.key).toBe('access_ticket_invalid');
  });
});

describe('QR', () => {
  it('the URL carries the spec JSON in base64', () => {
    const url = arcaQrUrl({
      fecha: '2025-03-14',
      cuit: '20-12345678-6',
      ptoVta: 3,
      tipoCmp: 1,
      nroCmp: 42,
      importe: '12100.00',
      moneda: 'PES',
      ctz: '1',
      tipoDocRec: 80,
      nroDocRec: '33693450239',
      codAut: '74123456789012',
    });
    expect(url.startsWith('https://www.arca.gob.ar/fe/qr/?p=')).toBe(true);
    const p = new URL(url).searchParams.get('p')?.replace(/ /g, '+') ?? '';
    expect(JSON.parse(Buffer.from(p, 'base64').toString('utf8'))).toEqual({
      ver: 1,
      fecha: '2025-03-14',
      cuit: 20123456786,
      ptoVta: 3,
      tipoCmp: 1,
      nroCmp: 42,
      importe: 12100,
      moneda: 'PES',
      ctz: 1,
      tipoDocRec: 80,
      nroDocRec: 33693450239,
      tipoCodAut: 'E',
      codAut: 74123456789012,
    });
  });

  it('leaves the receiver out when there is none', () => {
    const url = arcaQrUrl({
      fecha: '2025-03-14',
      cuit: '20123456786',
      ptoVta: 1,
      tipoCmp: 11,
      nroCmp: 1,
      importe: '100.5',
      moneda: 'PES',
      ctz: '1',
      codAut: '74123456789012',
    });
    const json = JSON.parse(Buffer.from(url.split('?p=')[1] ?? '', 'base64').toString('utf8'));
    expect(json).not.toHaveProperty('tipoDocRec');
    expect(json.importe).toBe(100.5);
    expect(() =>
      arcaQrUrl({
        fecha: '20250314',
        cuit: '1',
        ptoVta: 1,
        tipoCmp: 1,
        nroCmp: 1,
        importe: '1',
        moneda: 'PES',
        ctz: '1',
        codAut: '1',
      }),
    ).toThrow();
  });
});
