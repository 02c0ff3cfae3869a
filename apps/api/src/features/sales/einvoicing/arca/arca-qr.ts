/**
 * The QR code ARCA requires on printed vouchers (https://www.arca.gob.ar/fe/qr/): its URL carries
 * `p`, the base64 of a JSON document, version 1.
 */

export const ARCA_QR_BASE_URL = 'https://www.arca.gob.ar/fe/qr/';

export interface ArcaQrData {
  /** YYYY-MM-DD, the voucher's date. */
  fecha: string;
  cuit: string;
  ptoVta: number;
  tipoCmp: number;
  nroCmp: number;
  importe: string;
  moneda: string;
  ctz: string;
  tipoDocRec?: number;
  nroDocRec?: string;
  /** The CAE. */
  codAut: string;
}

export function arcaQrUrl(v: ArcaQrData): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v.fecha)) throw new Error(`QR date ${v.fecha} is not YYYY-MM-DD`);
  // Field order and types as in the spec: CUIT, document and CAE are numbers, not strings.
  const document: Record<string, string | number> = {
    ver: 1,
    fecha: v.fecha,
    cuit: Number(v.cuit.replace(/\D/g, '')),
    ptoVta: v.ptoVta,
    tipoCmp: v.tipoCmp,
    nroCmp: v.nroCmp,
    importe: Number(v.importe),
    moneda: v.moneda,
    ctz: Number(v.ctz),
  };
  if (v.tipoDocRec !== undefined) document.tipoDocRec = v.tipoDocRec;
  if (v.nroDocRec !== undefined) document.nroDocRec = Number(v.nroDocRec.replace(/\D/g, ''));
  document.tipoCodAut = 'E';
  document.codAut = Number(v.codAut);
  return `${ARCA_QR_BASE_URL}?p=${Buffer.from(JSON.stringify(document), 'utf8').toString('base64')}`;
}
