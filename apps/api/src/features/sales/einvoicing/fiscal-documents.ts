import { type Currency, currencyIsoCodes } from '@odontia/shared/currencies';
import { documentTotals } from '@odontia/shared/document-totals';
import type { PartySnapshot } from '@odontia/shared/schemas/clinic-fiscal';
import Big from 'big.js';
import type { commercialDocuments, documentLines } from '../../../db/schema/index.ts';
import { AppError } from '../../../lib/app-error.ts';
import {
  type ArcaVatCondition,
  type ArcaVoucher,
  condicionIvaReceptorId,
  cuitIsValid,
  currencyCode,
  documentTypeCode,
  vatRateId,
  voucherLetter,
  voucherType,
} from './arca/index.ts';
import { type AltaInput, nifIsValid } from './verifactu/index.ts';

/**
 * What each authority is told of an issued sale (issue 39), read from the document as issued: its
 * parties' copies (issuer and customer snapshots), its lines and totals. ARCA's voucher and the
 * AEAT's record say the same amounts as the PDF, to the cent.
 */

type DocumentRow = typeof commercialDocuments.$inferSelect;
type LineRow = typeof documentLines.$inferSelect;

const party = (value: unknown) => (value ?? {}) as Partial<PartySnapshot>;
const digits = (value: string | null | undefined) => (value ?? '').replace(/\D/g, '');

/** The correcting kinds ARCA and the AEAT know; anything billed otherwise is an invoice. */
function kindOf(documentType: string): 'invoice' | 'credit_note' | 'debit_note' {
  return documentType === 'credit_note' || documentType === 'debit_note' ? documentType : 'invoice';
}

// ———————————————————————————————————————— ARCA

const issuerConditions = {
  ar_responsable_inscripto: 'responsable_inscripto',
  ar_monotributo: 'monotributo',
  ar_exento: 'exento',
} as const;

const receiverConditions: Record<string, ArcaVatCondition> = {
  ar_responsable_inscripto: 'responsable_inscripto',
  ar_monotributo: 'monotributo',
  ar_exento: 'exento',
  ar_consumidor_final: 'consumidor_final',
};

export interface ArcaPlacement {
  letter: 'A' | 'B' | 'C';
  voucherType: number;
  pointOfSale: number;
  series: string;
}

/**
 * The letter and voucher type of a sale, decided at issue by both parties' VAT conditions (a
 * patient without one is a consumidor final); a note takes its invoice's letter. A Factura A needs
 * the customer's valid CUIT: refused at issue rather than by ARCA later.
 */
export function arcaPlacement(
  document: DocumentRow,
  pointOfSale: number,
  relatedLetter: 'A' | 'B' | 'C' | null,
): ArcaPlacement {
  const issuer = party(document.issuerSnapshot);
  const customer = party(document.counterpartySnapshot);
  const issuerCondition = issuerConditions[issuer.fiscalCondition as keyof typeof issuerConditions];
  if (!issuerCondition) throw new AppError('einvoice_regime_invalid', { reason: 'fiscal_condition' });
  const receiver = receiverConditions[customer.fiscalCondition ?? ''] ?? 'consumidor_final';
  const letter = relatedLetter ?? voucherLetter(issuerCondition, receiver);
  if (letter === 'A' && !(customer.taxIdKind === 'cuit' && cuitIsValid(digits(customer.taxId)))) {
    throw new AppError('einvoice_customer_tax_id_required', { letter });
  }
  const type = voucherType(kindOf(document.documentType), letter);
  return { letter, voucherType: type, pointOfSale, series: `arca:${pointOfSale}:${type}` };
}

const arcaDate = (date: string) => date.replaceAll('-', '');

/** Services (treatments), goods (catalogue items) or both: ARCA's concepto 2, 1 or 3. */
function concept(lines: LineRow[]): 1 | 2 | 3 {
  const goods = lines.some((line) => line.itemId !== null);
  const services = lines.some((line) => line.itemId === null);
  return goods && services ? 3 : goods ? 1 : 2;
}

export function arcaVoucher(
  document: DocumentRow,
  lines: LineRow[],
  placement: { letter: string; voucherType: number; pointOfSale: number },
  fiscalNumber: number,
  related: { voucherType: number; pointOfSale: number; fiscalNumber: number; date: string } | null,
  issuerCuit: string,
): ArcaVoucher {
  const customer = party(document.counterpartySnapshot);
  const identified = customer.taxIdKind === 'cuit' && cuitIsValid(digits(customer.taxId));
  const receiver = receiverConditions[customer.fiscalCondition ?? ''] ?? 'consumidor_final';
  const totals = documentTotals(lines.map((line) => ({ ...line, discountRate: line.discountRate })));
  const zero = '0.00';
  let impNeto = zero;
  let impOpEx = zero;
  let impIva = zero;
  let iva: ArcaVoucher['iva'] = [];
  if (placement.letter === 'C') {
    // A monotributista's voucher carries no VAT: all of it is the net.
    impNeto = new Big(document.total).toFixed(2);
  } else {
    const taxed = totals.vatBreakdown.filter((share) => !new Big(share.rate).eq(0));
    const exempt = totals.vatBreakdown.filter((share) => new Big(share.rate).eq(0));
    impOpEx = exempt.reduce((sum, share) => sum.plus(share.base), new Big(0)).toFixed(2);
    impNeto = taxed.reduce((sum, share) => sum.plus(share.base), new Big(0)).toFixed(2);
    impIva = taxed.reduce((sum, share) => sum.plus(share.vat), new Big(0)).toFixed(2);
    iva = taxed.map((share) => {
      try {
        return { id: vatRateId(share.rate), baseImp: share.base, importe: share.vat };
      } catch {
        throw new AppError('einvoice_vat_rate_invalid', { vatRate: share.rate });
      }
    });
  }
  const kind = concept(lines);
  const service = kind !== 1;
  return {
    ptoVta: placement.pointOfSale,
    cbteTipo: placement.voucherType,
    concepto: kind,
    docTipo: documentTypeCode(identified ? 'cuit' : 'none'),
    docNro: identified ? digits(customer.taxId) : '0',
    condicionIvaReceptorId: condicionIvaReceptorId(receiver),
    cbteNro: fiscalNumber,
    cbteFch: arcaDate(document.date),
    impTotal: new Big(document.total).toFixed(2),
    impTotConc: zero,
    impNeto,
    impOpEx,
    impIva,
    impTrib: zero,
    // Sales are in the clinic's currency (pesos for an Argentine clinic): no exchange rate to tell.
    monId: currencyCode(currencyIsoCodes[document.currency as Currency] ?? document.currency),
    monCotiz: '1',
    ...(service
      ? {
          fchServDesde: arcaDate(document.date),
          fchServHasta: arcaDate(document.date),
          fchVtoPago: arcaDate(document.dueDate && document.dueDate > document.date ? document.dueDate : document.date),
        }
      : {}),
    iva,
    ...(related
      ? {
          cbtesAsoc: [
            {
              tipo: related.voucherType,
              ptoVta: related.pointOfSale,
              nro: related.fiscalNumber,
              cuit: issuerCuit,
              cbteFch: arcaDate(related.date),
            },
          ],
        }
      : {}),
  };
}

// ———————————————————————————————————————— Verifactu

const seriesPrefix: Record<string, string> = { invoice: 'F', receipt: 'T', credit_note: 'R', debit_note: 'D' };

/** The invoice's number for the AEAT: a prefix per type (each type is its own series) and ours, F0001-00000042. */
export const verifactuNumber = (document: Pick<DocumentRow, 'documentType' | 'pointOfService' | 'sequenceNumber'>) =>
  `${seriesPrefix[document.documentType] ?? 'F'}${document.pointOfService}-${String(document.sequenceNumber).padStart(8, '0')}`;

/**
 * The most a simplified invoice (ticket) may total (RD 1619/2012 art. 4.1: 400 € with VAT; the
 * 3,000 € of art. 4.1 list retail, hospitality and the like, not health care). Above it the
 * customer's NIF is required for a full invoice.
 */
export const simplifiedInvoiceLimit = '400.00';

export type VerifactuInvoiceKind = AltaInput['tipoFactura'];

/**
 * F1 with the customer's NIF; without one, F2 (a simplified invoice) up to the limit; R1 corrects
 * an F1 and R5 an F2, by differences (its amounts negative for a credit note).
 */
export function verifactuKind(document: DocumentRow, relatedKind: VerifactuInvoiceKind | null): VerifactuInvoiceKind {
  const customer = party(document.counterpartySnapshot);
  const hasNif = customer.taxIdKind === 'nif' && nifIsValid((customer.taxId ?? '').toUpperCase());
  if (document.documentType === 'credit_note' || document.documentType === 'debit_note') {
    return relatedKind === 'F2' || relatedKind === 'R5' ? 'R5' : 'R1';
  }
  if (hasNif) return 'F1';
  if (new Big(document.total).gt(simplifiedInvoiceLimit)) {
    throw new AppError('einvoice_customer_tax_id_required', { limit: simplifiedInvoiceLimit });
  }
  return 'F2';
}

export function verifactuAlta(
  document: DocumentRow,
  lines: LineRow[],
  kind: VerifactuInvoiceKind,
  related: { numSerie: string; fecha: string } | null,
  chain: { previous: AltaInput['previous']; generatedAt: Date; timeZone: string; sistema: AltaInput['sistema'] },
): AltaInput {
  const issuer = party(document.issuerSnapshot);
  const customer = party(document.counterpartySnapshot);
  const issuerNif = (issuer.taxId ?? '').toUpperCase();
  const sign = document.documentType === 'credit_note' ? -1 : 1;
  const signed = (value: string | Big) => new Big(value).times(sign).toFixed(2);
  const totals = documentTotals(lines.map((line) => ({ ...line, discountRate: line.discountRate })));
  const desglose = totals.vatBreakdown.map((share) =>
    new Big(share.rate).eq(0)
      ? // Health care by a clinic is exempt (Ley 37/1992 art. 20.Uno.3º): E1.
        { impuesto: '01' as const, claveRegimen: '01', exenta: 'E1' as const, baseImponible: signed(share.base) }
      : {
          impuesto: '01' as const,
          claveRegimen: '01',
          calificacion: 'S1' as const,
          tipoImpositivo: new Big(share.rate).toFixed(2),
          baseImponible: signed(share.base),
          cuota: signed(share.vat),
        },
  );
  const named = customer.taxIdKind === 'nif' && customer.taxId && kind !== 'F2' && kind !== 'R5';
  return {
    issuerNif,
    issuerName: issuer.legalName || issuer.name || issuerNif,
    numSerie: verifactuNumber(document),
    fecha: document.date,
    tipoFactura: kind,
    ...(related
      ? {
          tipoRectificativa: 'I' as const,
          rectificadas: [{ issuerNif, numSerie: related.numSerie, fecha: related.fecha }],
        }
      : {}),
    descripcion:
      lines
        .map((line) => line.description)
        .join('; ')
        .slice(0, 500) || 'Servicios',
    ...(named ? { destinatario: { nif: (customer.taxId as string).toUpperCase(), nombre: customer.name ?? '' } } : {}),
    desglose,
    cuotaTotal: signed(document.vatTotal ?? '0'),
    importeTotal: signed(document.total),
    previous: chain.previous,
    generatedAt: chain.generatedAt,
    timeZone: chain.timeZone,
    sistema: chain.sistema,
  };
}
