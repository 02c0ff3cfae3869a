import type { Einvoice } from '@odontia/shared/schemas/sales';
import type { einvoiceSubmissions } from '../../../db/schema/index.ts';

type Submission = typeof einvoiceSubmissions.$inferSelect;

/** ARCA's number as printed: the point of sale in five digits and the voucher's in eight, 00003-00000042. */
export const arcaNumber = (pointOfSale: number, number: number) =>
  `${String(pointOfSale).padStart(5, '0')}-${String(number).padStart(8, '0')}`;

/** The number the authority knows the document by: ARCA's once authorised, Verifactu's series-number. */
function fiscalNumberOf(row: Submission): string | null {
  if (row.adapter === 'arca') {
    return row.status === 'accepted' && row.authorityPointOfSale !== null && row.fiscalNumber !== null
      ? arcaNumber(row.authorityPointOfSale, row.fiscalNumber)
      : null;
  }
  if (row.adapter === 'verifactu') return (row.response as { numSerie?: string } | null)?.numSerie ?? null;
  return null;
}

/** A sale's submission as the screens and the PDF show it (issue 39). */
export function presentEinvoice(row: Submission): Einvoice {
  return {
    adapter: row.adapter,
    environment: row.environment,
    status: row.status,
    attempts: row.attempts,
    letter: row.letter,
    voucherType: row.voucherType,
    fiscalNumber: fiscalNumberOf(row),
    authorizationCode: row.authorizationCode,
    authorizationDueDate: row.authorizationDueDate,
    authorizedAt: row.authorizedAt?.toISOString() ?? null,
    qrUrl: row.qrUrl,
    messages: (row.messages ?? []).map((message) => ({
      code: message.code,
      key: (message as { key?: string | null }).key ?? null,
      message: message.message,
    })),
    lastError: row.lastError,
  };
}
