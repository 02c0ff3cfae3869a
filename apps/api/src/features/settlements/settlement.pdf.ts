import { calendarDateFormatter } from '@odontia/shared/date-format';
import type { Currency, Language } from '@odontia/shared/enums';
import type { SettlementLine } from '@odontia/shared/schemas/settlements';
import Big from 'big.js';
import { moneyFormatter } from '../../lib/money-format.ts';
import {
  type ClinicPrintHeader,
  clinicHeader,
  documentStyles,
  fieldColumns,
  headerRow,
  type PdfDocument,
  pdfField,
  pdfFile,
  signatureLine,
} from '../../lib/pdf.ts';
import type { settlementsService } from './settlements.service.ts';

/**
 * The settlement's PDF (issue 40): the clinic's header, the professional and the period, the lines
 * grouped by treatment with a subtotal each, the totals (base, lab cost, adjustments, to pay) and
 * space for the professional's signature, in the clinic's language and currency.
 */

type Detail = Awaited<ReturnType<typeof settlementsService.get>>;

interface Texts {
  title: string;
  number: string;
  professional: string;
  period: string;
  issued: string;
  date: string;
  document: string;
  patient: string;
  source: string;
  base: string;
  labCost: string;
  rule: string;
  amount: string;
  subtotal: string;
  baseTotal: string;
  labCostTotal: string;
  adjustments: string;
  total: string;
  adjustment: string;
  kinds: Record<SettlementLine['sourceKind'], string>;
  documentTypes: Record<string, string>;
  perUnit: string;
  invoiced: string;
  collected: string;
  signature: string;
  clinicSignature: string;
  notes: string;
  noLines: string;
}

const texts: Record<Language, Texts> = {
  es: {
    title: 'Liquidación de honorarios',
    number: 'Número',
    professional: 'Profesional',
    period: 'Período',
    issued: 'Emitida',
    date: 'Fecha',
    document: 'Comprobante',
    patient: 'Paciente',
    source: 'Origen',
    base: 'Base',
    labCost: 'Laboratorio',
    rule: 'Regla',
    amount: 'Importe',
    subtotal: 'Subtotal',
    baseTotal: 'Base total',
    labCostTotal: 'Costo de laboratorio',
    adjustments: 'Ajustes de períodos anteriores',
    total: 'Total a pagar',
    adjustment: 'ajuste',
    kinds: { invoice_line: 'Facturado', collection: 'Cobrado', collection_reversal: 'Cobro anulado' },
    documentTypes: { invoice: 'Factura', debit_note: 'Nota de débito', credit_note: 'Nota de crédito' },
    perUnit: 'por unidad',
    invoiced: 'sobre lo facturado',
    collected: 'sobre lo cobrado',
    signature: 'Firma del profesional',
    clinicSignature: 'Por la clínica',
    notes: 'Observaciones',
    noLines: 'Sin líneas',
  },
  en: {
    title: 'Professional fee settlement',
    number: 'Number',
    professional: 'Professional',
    period: 'Period',
    issued: 'Issued',
    date: 'Date',
    document: 'Document',
    patient: 'Patient',
    source: 'Source',
    base: 'Base',
    labCost: 'Lab',
    rule: 'Rule',
    amount: 'Amount',
    subtotal: 'Subtotal',
    baseTotal: 'Total base',
    labCostTotal: 'Lab cost',
    adjustments: 'Adjustments from earlier periods',
    total: 'Total to pay',
    adjustment: 'adjustment',
    kinds: { invoice_line: 'Invoiced', collection: 'Collected', collection_reversal: 'Collection reversed' },
    documentTypes: { invoice: 'Invoice', debit_note: 'Debit note', credit_note: 'Credit note' },
    perUnit: 'per unit',
    invoiced: 'on invoiced',
    collected: 'on collected',
    signature: "Professional's signature",
    clinicSignature: 'For the clinic',
    notes: 'Notes',
    noLines: 'No lines',
  },
  fr: {
    title: 'Relevé de rémunération',
    number: 'Numéro',
    professional: 'Praticien',
    period: 'Période',
    issued: 'Émis le',
    date: 'Date',
    document: 'Pièce',
    patient: 'Patient',
    source: 'Origine',
    base: 'Base',
    labCost: 'Laboratoire',
    rule: 'Règle',
    amount: 'Montant',
    subtotal: 'Sous-total',
    baseTotal: 'Base totale',
    labCostTotal: 'Coût de laboratoire',
    adjustments: 'Ajustements des périodes précédentes',
    total: 'Total à payer',
    adjustment: 'ajustement',
    kinds: { invoice_line: 'Facturé', collection: 'Encaissé', collection_reversal: 'Encaissement annulé' },
    documentTypes: { invoice: 'Facture', debit_note: 'Note de débit', credit_note: 'Avoir' },
    perUnit: 'par unité',
    invoiced: 'sur le facturé',
    collected: "sur l'encaissé",
    signature: 'Signature du praticien',
    clinicSignature: 'Pour la clinique',
    notes: 'Observations',
    noLines: 'Aucune ligne',
  },
  pt: {
    title: 'Repasse de honorários',
    number: 'Número',
    professional: 'Profissional',
    period: 'Período',
    issued: 'Emitido',
    date: 'Data',
    document: 'Documento',
    patient: 'Paciente',
    source: 'Origem',
    base: 'Base',
    labCost: 'Laboratório',
    rule: 'Regra',
    amount: 'Valor',
    subtotal: 'Subtotal',
    baseTotal: 'Base total',
    labCostTotal: 'Custo de laboratório',
    adjustments: 'Ajustes de períodos anteriores',
    total: 'Total a pagar',
    adjustment: 'ajuste',
    kinds: { invoice_line: 'Faturado', collection: 'Recebido', collection_reversal: 'Recebimento anulado' },
    documentTypes: { invoice: 'Fatura', debit_note: 'Nota de débito', credit_note: 'Nota de crédito' },
    perUnit: 'por unidade',
    invoiced: 'sobre o faturado',
    collected: 'sobre o recebido',
    signature: 'Assinatura do profissional',
    clinicSignature: 'Pela clínica',
    notes: 'Observações',
    noLines: 'Sem linhas',
  },
};

const dateLocales: Record<Language, string> = { es: 'es-ES', en: 'en-GB', fr: 'fr-FR', pt: 'pt-BR' };

export interface SettlementPrint {
  settlement: Detail;
  clinic: ClinicPrintHeader;
  language: Language;
}

const right = (text: string, extra: Record<string, unknown> = {}) => ({ text, alignment: 'right', ...extra });

export function settlementDocument({ settlement, clinic, language }: SettlementPrint): PdfDocument {
  const t = texts[language];
  const money = moneyFormatter(language, settlement.currency as Currency);
  const date = calendarDateFormatter(dateLocales[language]);
  const percent = new Intl.NumberFormat(dateLocales[language], { maximumFractionDigits: 2 });
  const rule = (line: SettlementLine) =>
    `${line.ruleMethod === 'percentage' ? `${percent.format(Number(line.ruleValue))} %` : `${money(line.ruleValue)} ${t.perUnit}`} ${line.ruleBasis === 'invoiced' ? t.invoiced : t.collected}`;
  const documentText = (line: SettlementLine) => {
    const [type = '', label = ''] = line.documentLabel.split(':');
    return `${t.documentTypes[type] ?? type} ${label}`;
  };

  const groups = new Map<string, SettlementLine[]>();
  for (const line of settlement.lines) {
    const key = line.description;
    groups.set(key, [...(groups.get(key) ?? []), line]);
  }
  const body: unknown[][] = [
    headerRow([t.date, t.document, t.patient, t.source, t.rule, t.base, t.labCost, t.amount], 5),
  ];
  for (const [description, lines] of groups) {
    body.push([{ text: description, bold: true, colSpan: 8, margin: [0, 4, 0, 0] }, '', '', '', '', '', '', '']);
    for (const line of lines) {
      body.push([
        date(line.sourceDate),
        documentText(line),
        line.patientName ?? '',
        `${t.kinds[line.sourceKind]}${line.kind === 'adjustment' ? ` (${t.adjustment})` : ''}`,
        rule(line),
        right(money(line.base)),
        right(money(line.labCost)),
        right(money(line.amount)),
      ]);
    }
    const subtotal = lines.reduce((sum, line) => sum.plus(line.amount), new Big(0)).toFixed(2);
    body.push([
      { text: `${t.subtotal} · ${description}`, colSpan: 7, alignment: 'right', italics: true },
      '',
      '',
      '',
      '',
      '',
      '',
      right(money(subtotal), { bold: true }),
    ]);
  }
  if (settlement.lines.length === 0) body.push([{ text: t.noLines, colSpan: 8 }, '', '', '', '', '', '', '']);

  const totals = [
    [t.baseTotal, money(settlement.baseTotal)],
    [t.labCostTotal, money(settlement.labCostTotal)],
    [t.adjustments, money(settlement.adjustmentTotal)],
  ];
  return {
    info: { title: `${t.title} ${settlement.number}`, creator: 'Odontia' },
    pageOrientation: 'landscape',
    pageMargins: [40, 40, 40, 56],
    content: [
      ...clinicHeader({ clinicName: clinic.name, clinicContact: clinic.contact, clinic, language }),
      { text: t.title, style: 'title' },
      fieldColumns(
        [pdfField(t.number, settlement.number), pdfField(t.issued, date(settlement.createdAt.slice(0, 10)))],
        [
          pdfField(t.professional, settlement.professionalName),
          pdfField(t.period, `${date(settlement.periodFrom)} – ${date(settlement.periodTo)}`),
        ],
      ),
      { text: ' ' },
      {
        table: { headerRows: 1, widths: ['auto', 'auto', '*', 'auto', 'auto', 'auto', 'auto', 'auto'], body },
        layout: 'lightHorizontalLines',
        fontSize: 8,
      },
      {
        margin: [0, 12, 0, 0],
        columns: [
          { width: '*', text: '' },
          {
            width: 'auto',
            table: {
              widths: ['auto', 'auto'],
              body: [
                ...totals.map(([label, value]) => [label, right(value as string)]),
                [
                  { text: t.total, bold: true, fontSize: 12 },
                  right(money(settlement.total), { bold: true, fontSize: 12 }),
                ],
              ],
            },
            layout: 'noBorders',
          },
        ],
      },
      ...(settlement.notes ? [{ text: t.notes, style: 'section' }, { text: settlement.notes }] : []),
      {
        unbreakable: true,
        columns: [
          signatureLine(
            48,
            [{ text: settlement.professionalName, alignment: 'center', margin: [0, 4, 0, 0] }],
            t.signature,
          ),
        ],
      },
      { text: t.clinicSignature, fontSize: 8, color: '#555555', margin: [0, -12, 0, 0] },
    ],
    styles: documentStyles(),
  };
}

export function settlementPdf(data: SettlementPrint) {
  return pdfFile(settlementDocument(data), `${data.settlement.number}.pdf`);
}
