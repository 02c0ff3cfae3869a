import { calendarDateFormatter, instantFormatter } from '@odontia/shared/date-format';
import type { Currency, Language, PaymentMethod } from '@odontia/shared/enums';
import type { CashMovementKind, CashSession } from '@odontia/shared/schemas/cash-registers';
import Big from 'big.js';
import { moneyFormatter } from '../../lib/money-format.ts';
import { paymentMethodNames } from '../../lib/payment-method-names.ts';
import {
  type ClinicPrintHeader,
  clinicHeader,
  documentStyles,
  fieldColumns,
  headerRow,
  type PdfDocument,
  pdfField,
  pdfFile,
} from '../../lib/pdf.ts';

/**
 * The Z report of a register's session (cierre de caja, issue 40), in the clinic's language,
 * currency and time zone: the clinic's header, register and closing number, opened/closed by and
 * at, the float and carried balance, the summary per method and kind, expected, counted and
 * difference per method, the explanation, and every movement. An open session prints as a
 * partial report (no number, "SIN CERRAR").
 */

interface ZTexts {
  title: string;
  partial: string;
  register: string;
  number: string;
  openedAt: string;
  openedBy: string;
  closedAt: string;
  closedBy: string;
  float: string;
  carried: string;
  openingDifference: string;
  summary: string;
  kind: string;
  method: string;
  count: string;
  amount: string;
  closing: string;
  expected: string;
  counted: string;
  difference: string;
  total: string;
  explanation: string;
  movements: string;
  time: string;
  description: string;
  kinds: Record<CashMovementKind, string>;
}

const texts: Record<Language, ZTexts> = {
  es: {
    title: 'Cierre de caja (informe Z)',
    partial: 'SIN CERRAR: informe parcial',
    register: 'Caja',
    number: 'Número',
    openedAt: 'Apertura',
    openedBy: 'Abrió',
    closedAt: 'Cierre',
    closedBy: 'Cerró',
    float: 'Fondo inicial contado',
    carried: 'Saldo que dejó el cierre anterior',
    openingDifference: 'Diferencia de apertura',
    summary: 'Resumen por forma de pago y concepto',
    kind: 'Concepto',
    method: 'Forma de pago',
    count: 'Mov.',
    amount: 'Importe',
    closing: 'Arqueo',
    expected: 'Esperado',
    counted: 'Contado',
    difference: 'Diferencia',
    total: 'Total',
    explanation: 'Explicación de la diferencia',
    movements: 'Movimientos',
    time: 'Hora',
    description: 'Detalle',
    kinds: {
      opening: 'Fondo inicial',
      collection: 'Cobros',
      payment: 'Pagos',
      collection_reversal: 'Cobros anulados',
      payment_reversal: 'Pagos anulados',
      income: 'Ingresos manuales',
      expense: 'Egresos manuales',
      withdrawal: 'Retiros al banco',
    },
  },
  en: {
    title: 'Register closing (Z report)',
    partial: 'NOT CLOSED: partial report',
    register: 'Register',
    number: 'Number',
    openedAt: 'Opened',
    openedBy: 'Opened by',
    closedAt: 'Closed',
    closedBy: 'Closed by',
    float: 'Opening float counted',
    carried: 'Left by the previous closing',
    openingDifference: 'Opening difference',
    summary: 'Summary by payment method and kind',
    kind: 'Kind',
    method: 'Payment method',
    count: 'Mov.',
    amount: 'Amount',
    closing: 'Count',
    expected: 'Expected',
    counted: 'Counted',
    difference: 'Difference',
    total: 'Total',
    explanation: 'Explanation of the difference',
    movements: 'Movements',
    time: 'Time',
    description: 'Detail',
    kinds: {
      opening: 'Opening float',
      collection: 'Collections',
      payment: 'Payments',
      collection_reversal: 'Reversed collections',
      payment_reversal: 'Reversed payments',
      income: 'Manual income',
      expense: 'Manual expenses',
      withdrawal: 'Withdrawals to the bank',
    },
  },
  fr: {
    title: 'Clôture de caisse (rapport Z)',
    partial: 'NON CLÔTURÉE : rapport partiel',
    register: 'Caisse',
    number: 'Numéro',
    openedAt: 'Ouverture',
    openedBy: 'Ouverte par',
    closedAt: 'Clôture',
    closedBy: 'Clôturée par',
    float: 'Fonds de caisse compté',
    carried: 'Laissé par la clôture précédente',
    openingDifference: "Écart d'ouverture",
    summary: 'Résumé par mode de paiement et nature',
    kind: 'Nature',
    method: 'Mode de paiement',
    count: 'Mouv.',
    amount: 'Montant',
    closing: 'Comptage',
    expected: 'Attendu',
    counted: 'Compté',
    difference: 'Écart',
    total: 'Total',
    explanation: "Explication de l'écart",
    movements: 'Mouvements',
    time: 'Heure',
    description: 'Détail',
    kinds: {
      opening: 'Fonds de caisse',
      collection: 'Encaissements',
      payment: 'Paiements',
      collection_reversal: 'Encaissements annulés',
      payment_reversal: 'Paiements annulés',
      income: 'Entrées manuelles',
      expense: 'Sorties manuelles',
      withdrawal: 'Dépôts en banque',
    },
  },
  pt: {
    title: 'Fecho de caixa (relatório Z)',
    partial: 'NÃO FECHADA: relatório parcial',
    register: 'Caixa',
    number: 'Número',
    openedAt: 'Abertura',
    openedBy: 'Aberta por',
    closedAt: 'Fecho',
    closedBy: 'Fechada por',
    float: 'Fundo inicial contado',
    carried: 'Deixado pelo fecho anterior',
    openingDifference: 'Diferença de abertura',
    summary: 'Resumo por forma de pagamento e natureza',
    kind: 'Natureza',
    method: 'Forma de pagamento',
    count: 'Mov.',
    amount: 'Valor',
    closing: 'Contagem',
    expected: 'Esperado',
    counted: 'Contado',
    difference: 'Diferença',
    total: 'Total',
    explanation: 'Explicação da diferença',
    movements: 'Movimentos',
    time: 'Hora',
    description: 'Detalhe',
    kinds: {
      opening: 'Fundo inicial',
      collection: 'Recebimentos',
      payment: 'Pagamentos',
      collection_reversal: 'Recebimentos anulados',
      payment_reversal: 'Pagamentos anulados',
      income: 'Entradas manuais',
      expense: 'Saídas manuais',
      withdrawal: 'Depósitos no banco',
    },
  },
};

export interface ZReportData {
  session: CashSession;
  byKind: { kind: CashMovementKind; method: PaymentMethod; count: number; amount: string }[];
  movements: { createdAt: Date; kind: CashMovementKind; method: PaymentMethod; amount: string; description: string }[];
  clinic: ClinicPrintHeader;
  language: Language;
  currency: Currency;
  timeZone: string;
}

const right = (text: string, extra: Record<string, unknown> = {}) => ({ text, alignment: 'right', ...extra });

export function zReportDocument(data: ZReportData): PdfDocument {
  const { session, language } = data;
  const t = texts[language];
  const money = moneyFormatter(language, data.currency);
  const at = instantFormatter(language, data.timeZone, 'dateTime');
  const time = instantFormatter(language, data.timeZone, 'time');
  const day = calendarDateFormatter(language);
  const methodName = (method: PaymentMethod) => paymentMethodNames[language][method];
  const closed = session.status === 'closed';
  const summary = [...data.byKind].sort((a, b) =>
    a.method === b.method ? a.kind.localeCompare(b.kind) : a.method.localeCompare(b.method),
  );
  const expectedTotal =
    session.expectedTotal ??
    session.methods.reduce((total, method) => total.plus(method.expected), new Big(0)).toFixed(2);
  return {
    info: { title: `${t.title} ${session.number ?? ''}`.trim(), creator: 'Odontia' },
    pageMargins: [40, 40, 40, 56],
    content: [
      ...clinicHeader({ clinicName: data.clinic.name, clinicContact: '', clinic: data.clinic, language }),
      { text: t.title, style: 'title' },
      ...(closed ? [] : [{ text: t.partial, color: '#b45309', bold: true, alignment: 'center', margin: [0, 0, 0, 8] }]),
      fieldColumns(
        [
          pdfField(t.register, session.registerName),
          pdfField(t.number, session.number ?? '—'),
          pdfField(t.openedAt, at(session.openedAt)),
          pdfField(t.openedBy, session.openedByName ?? '—'),
          ...(closed
            ? [
                pdfField(t.closedAt, `${at(session.closedAt as string)} (${day(session.closedOn)})`),
                pdfField(t.closedBy, session.closedByName ?? '—'),
              ]
            : []),
        ],
        [
          pdfField(t.float, money(session.openingFloat)),
          pdfField(t.carried, money(session.carriedBalance)),
          pdfField(t.openingDifference, money(session.openingDifference)),
        ],
      ),
      { text: t.summary, style: 'section' },
      {
        table: {
          headerRows: 1,
          widths: ['*', '*', 'auto', 'auto'],
          body: [
            headerRow([t.method, t.kind, t.count, t.amount], 2),
            ...summary.map((row) => [
              methodName(row.method),
              t.kinds[row.kind],
              right(String(row.count)),
              right(money(row.amount)),
            ]),
          ],
        },
        layout: 'lightHorizontalLines',
      },
      { text: t.closing, style: 'section' },
      {
        table: {
          headerRows: 1,
          widths: ['*', 'auto', 'auto', 'auto'],
          body: [
            headerRow([t.method, t.expected, t.counted, t.difference], 1),
            ...session.methods.map((method) => [
              methodName(method.method),
              right(money(method.expected)),
              right(method.counted === null ? '—' : money(method.counted)),
              right(method.difference === null ? '—' : money(method.difference), {
                bold: method.difference !== null && !new Big(method.difference).eq(0),
              }),
            ]),
            [
              { text: t.total, bold: true },
              right(money(expectedTotal), { bold: true }),
              right(session.countedTotal === null ? '—' : money(session.countedTotal), { bold: true }),
              right(session.differenceTotal === null ? '—' : money(session.differenceTotal), { bold: true }),
            ],
          ],
        },
        layout: 'lightHorizontalLines',
      },
      ...(session.explanation ? [{ text: t.explanation, style: 'section' }, { text: session.explanation }] : []),
      { text: t.movements, style: 'section' },
      {
        table: {
          headerRows: 1,
          widths: ['auto', '*', '*', '*', 'auto'],
          body: [
            headerRow([t.time, t.kind, t.method, t.description, t.amount], 4),
            ...data.movements.map((movement) => [
              time(movement.createdAt.toISOString()),
              t.kinds[movement.kind],
              methodName(movement.method),
              movement.kind === 'opening' ? t.kinds.opening : movement.description,
              right(money(movement.amount)),
            ]),
          ],
        },
        layout: 'lightHorizontalLines',
        fontSize: 9,
      },
    ],
    defaultStyle: { fontSize: 10 },
    styles: documentStyles(),
  };
}

export function zReportPdf(data: ZReportData) {
  const name = data.session.number ?? `caja-${data.session.id.slice(0, 8)}`;
  return pdfFile(zReportDocument(data), `${name}.pdf`);
}
