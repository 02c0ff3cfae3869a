import { createHash } from 'node:crypto';

/**
 * The record fingerprint ("huella") of the AEAT document "Detalle de las especificaciones técnicas
 * para generación de la huella o hash de los registros de facturación": the named fields joined as
 * `name=value&…` in a fixed order, values trimmed (a missing value leaves `name=`), SHA-256 of the
 * UTF-8 bytes, hexadecimal upper case.
 */

export interface HuellaAltaFields {
  idEmisorFactura: string;
  numSerieFactura: string;
  /** dd-mm-yyyy, as written in the XML. */
  fechaExpedicionFactura: string;
  tipoFactura: string;
  cuotaTotal: string;
  importeTotal: string;
  /** The previous record's huella; empty for the first record of the chain. */
  huellaAnterior: string;
  fechaHoraHusoGenRegistro: string;
}

export interface HuellaAnulacionFields {
  idEmisorFacturaAnulada: string;
  numSerieFacturaAnulada: string;
  /** dd-mm-yyyy, as written in the XML. */
  fechaExpedicionFacturaAnulada: string;
  huellaAnterior: string;
  fechaHoraHusoGenRegistro: string;
}

function fingerprint(pairs: [string, string | null | undefined][]): string {
  const text = pairs.map(([name, value]) => `${name}=${(value ?? '').trim()}`).join('&');
  return createHash('sha256').update(text, 'utf8').digest('hex').toUpperCase();
}

export function huellaAlta(fields: HuellaAltaFields): string {
  return fingerprint([
    ['IDEmisorFactura', fields.idEmisorFactura],
    ['NumSerieFactura', fields.numSerieFactura],
    ['FechaExpedicionFactura', fields.fechaExpedicionFactura],
    ['TipoFactura', fields.tipoFactura],
    ['CuotaTotal', fields.cuotaTotal],
    ['ImporteTotal', fields.importeTotal],
    ['Huella', fields.huellaAnterior],
    ['FechaHoraHusoGenRegistro', fields.fechaHoraHusoGenRegistro],
  ]);
}

export function huellaAnulacion(fields: HuellaAnulacionFields): string {
  return fingerprint([
    ['IDEmisorFacturaAnulada', fields.idEmisorFacturaAnulada],
    ['NumSerieFacturaAnulada', fields.numSerieFacturaAnulada],
    ['FechaExpedicionFacturaAnulada', fields.fechaExpedicionFacturaAnulada],
    ['Huella', fields.huellaAnterior],
    ['FechaHoraHusoGenRegistro', fields.fechaHoraHusoGenRegistro],
  ]);
}
