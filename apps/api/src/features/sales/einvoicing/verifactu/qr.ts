import type { VerifactuEnvironment } from './records.ts';
import { aeatDate } from './records.ts';

/**
 * The QR URL of a VERI*FACTU invoice ("Características del QR y especificaciones del servicio de
 * cotejo", section 5.1): the ValidarQR service of the environment with nif, numserie,
 * fecha (dd-mm-yyyy) and importe, each value URL-encoded as UTF-8.
 */
const QR_BASE: Record<VerifactuEnvironment, string> = {
  test: 'https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR',
  production: 'https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR',
};

/**
 * The document's encoding example is Java's URLEncoder (application/x-www-form-urlencoded):
 * unreserved are letters, digits and `.-*_`; a space becomes `+`.
 */
function formEncode(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

export function verifactuQrUrl(
  env: VerifactuEnvironment,
  v: { nif: string; numSerie: string; fecha: string; importe: string },
): string {
  const params: [string, string][] = [
    ['nif', v.nif.trim()],
    ['numserie', v.numSerie.trim()],
    ['fecha', aeatDate(v.fecha)],
    ['importe', v.importe.trim()],
  ];
  return `${QR_BASE[env]}?${params.map(([k, value]) => `${k}=${formEncode(value)}`).join('&')}`;
}
