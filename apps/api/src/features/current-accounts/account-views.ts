import { calendarDateFormatter } from '@odontia/shared/date-format';
import type { Currency, DocumentType, Language } from '@odontia/shared/enums';
import type { Aging, LedgerEntry } from '@odontia/shared/schemas/current-accounts';
import Big from 'big.js';
import { csvCurrency, csvFile, csvNumber } from '../../lib/csv.ts';
import { moneyFormatter } from '../../lib/money-format.ts';
import { documentStyles, headerRow, type PdfDocument, pdfFile, safeFileName } from '../../lib/pdf.ts';
import { documentReference } from '../commercial/commercial-texts.ts';
import type { PartyKind } from '../commercial/ledger.ts';
import type { AccountFiguresRow, AccountTotalsRow, LedgerRow } from './party-accounts.repository.ts';

/**
 * What both kinds of current account answer and print alike (providers, issue 17; customers,
 * issue 18): an account's figures and the list's totals, the ledger with its running balance in
 * the party's sign, the CSV (UTF-8 with a BOM, `;`, ISO dates, a decimal comma but in English) and
 * the landscape ledger PDF. Texts that name the party (its column, the title) are the caller's.
 */

export const money = (value: string | number) => new Big(value).toFixed(2);

const overdueOf = (row: Pick<AccountFiguresRow, 'days_0_30' | 'days_31_60' | 'days_61_90' | 'days_over_90'>) =>
  new Big(row.days_0_30).plus(row.days_31_60).plus(row.days_61_90).plus(row.days_over_90).toFixed(2);

const agingOf = (row: Omit<AccountTotalsRow, 'total' | 'balance' | 'on_account'>): Aging => ({
  current: money(row.current),
  days_0_30: money(row.days_0_30),
  days_31_60: money(row.days_31_60),
  days_61_90: money(row.days_61_90),
  days_over_90: money(row.days_over_90),
});

/** An account's figures: balance = Σ aging − onAccount. */
export function accountFigures(row: AccountFiguresRow) {
  return {
    balance: money(row.balance),
    overdue: overdueOf(row),
    onAccount: new Big(row.credit_on_account).plus(row.unallocated).toFixed(2),
    aging: agingOf(row),
    lastMovementOn: row.last_movement_on,
  };
}

/** The totals of every account that matches a list. */
export function accountTotals(totals: AccountTotalsRow) {
  return {
    balance: money(totals.balance),
    overdue: overdueOf(totals),
    onAccount: money(totals.on_account),
    aging: agingOf(totals),
  };
}

/** The accounts' query as the repositories take it: `withBalance` arrives as the text 'true'. */
export const accountsFilter = <Query extends { withBalance?: string }>(query: Query) => ({
  ...query,
  withBalance: query.withBalance === 'true',
});

/** A page of accounts with the totals of every account that matches. */
export function accountsPage<Account>(
  query: { page: number; pageSize: number },
  data: Account[],
  totals: AccountTotalsRow,
) {
  return { data, total: totals.total, page: query.page, pageSize: query.pageSize, totals: accountTotals(totals) };
}

/** The texts of the accounts' CSV and of a ledger, in the reader's (or the customer's) language. */
export const accountTexts: Record<
  Language,
  { figures: string[]; ledger: string[]; opening: string; closing: string; period: string; totals: string }
> = {
  es: {
    figures: [
      'Identificación fiscal',
      'Moneda',
      'Saldo',
      'Vencido',
      'A cuenta',
      'A vencer',
      '1–30 días',
      '31–60 días',
      '61–90 días',
      'Más de 90 días',
      'Último movimiento',
    ],
    ledger: ['Fecha', 'Comprobante', 'Descripción', 'Vencimiento', 'Debe', 'Haber', 'Saldo'],
    opening: 'Saldo inicial',
    closing: 'Saldo final',
    period: 'Período',
    totals: 'Totales',
  },
  en: {
    figures: [
      'Tax ID',
      'Currency',
      'Balance',
      'Overdue',
      'On account',
      'Not yet due',
      '1–30 days',
      '31–60 days',
      '61–90 days',
      'Over 90 days',
      'Last movement',
    ],
    ledger: ['Date', 'Document', 'Description', 'Due date', 'Debit', 'Credit', 'Balance'],
    opening: 'Opening balance',
    closing: 'Closing balance',
    period: 'Period',
    totals: 'Totals',
  },
  fr: {
    figures: [
      'Identifiant fiscal',
      'Devise',
      'Solde',
      'Échu',
      'En acompte',
      'Non échu',
      '1–30 jours',
      '31–60 jours',
      '61–90 jours',
      'Plus de 90 jours',
      'Dernier mouvement',
    ],
    ledger: ['Date', 'Pièce', 'Libellé', 'Échéance', 'Débit', 'Crédit', 'Solde'],
    opening: "Solde d'ouverture",
    closing: 'Solde de clôture',
    period: 'Période',
    totals: 'Totaux',
  },
  pt: {
    figures: [
      'Identificação fiscal',
      'Moeda',
      'Saldo',
      'Vencido',
      'Adiantamento',
      'A vencer',
      '1–30 dias',
      '31–60 dias',
      '61–90 dias',
      'Mais de 90 dias',
      'Último movimento',
    ],
    ledger: ['Data', 'Documento', 'Descrição', 'Vencimento', 'Débito', 'Crédito', 'Saldo'],
    opening: 'Saldo inicial',
    closing: 'Saldo final',
    period: 'Período',
    totals: 'Totais',
  },
};

/** Amounts in the reader's spreadsheet's form (lib/csv.ts: one convention for every export). */
const csvAmount = (language: Language, value: string) => csvNumber(language, value);
const toCsv = csvFile;

interface ListedAccount extends ReturnType<typeof accountFigures> {
  name: string;
  taxId: string | null;
  currency: string;
}

/** The accounts' CSV: the party's column (`Proveedor`, `Cliente`…) and the figures of each. */
export function accountsCsv(language: Language, partyHeader: string, accounts: ListedAccount[]): string {
  const amount = (value: string) => csvAmount(language, value);
  return toCsv(
    [partyHeader, ...accountTexts[language].figures],
    accounts.map((account) => [
      account.name,
      account.taxId ?? '',
      csvCurrency(account.currency),
      amount(account.balance),
      amount(account.overdue),
      amount(account.onAccount),
      amount(account.aging.current),
      amount(account.aging.days_0_30),
      amount(account.aging.days_31_60),
      amount(account.aging.days_61_90),
      amount(account.aging.days_over_90),
      account.lastMovementOn ?? '',
    ]),
  );
}

/** A ledger from its opening balance, whatever the party; `account` is the side's answer. */
export interface PartyLedger<TAccount> {
  account: TAccount;
  startDate: string;
  endDate: string;
  openingBalance: string;
  entries: LedgerEntry[];
  totals: { debit: string; credit: string };
  closingBalance: string;
}

/**
 * The entries with the running balance in the party's sign (a provider's grows with credits, a
 * customer's with debits), the totals and the closing balance. `paymentReference` names a
 * payment or its reversal ("Pago OP-000012", "Cobro RC-000003").
 */
export function runningLedger<TAccount>(
  partyKind: PartyKind,
  language: Language,
  { account, startDate, endDate }: { account: TAccount; startDate: string; endDate: string },
  { openingBalance, rows }: { openingBalance: string; rows: LedgerRow[] },
  paymentReference: (row: LedgerRow) => string,
): PartyLedger<TAccount> {
  let balance = new Big(openingBalance);
  let debit = new Big(0);
  let credit = new Big(0);
  const entries = rows.map((row) => {
    balance =
      partyKind === 'provider' ? balance.plus(row.credit).minus(row.debit) : balance.plus(row.debit).minus(row.credit);
    debit = debit.plus(row.debit);
    credit = credit.plus(row.credit);
    const reference =
      row.kind === 'document' && row.document_type
        ? documentReference(language, {
            documentType: row.document_type as DocumentType,
            pointOfService: row.point_of_service,
            documentNumber: row.document_number,
          })
        : paymentReference(row);
    return {
      id: row.id,
      date: row.date,
      kind: row.kind,
      documentId: row.document_id,
      documentType: (row.document_type as DocumentType | null) ?? null,
      paymentId: row.payment_id,
      reference,
      description: row.description,
      dueDate: row.due_date,
      debit: money(row.debit),
      credit: money(row.credit),
      balance: balance.toFixed(2),
    };
  });
  return {
    account,
    startDate,
    endDate,
    openingBalance: money(openingBalance),
    entries,
    totals: { debit: debit.toFixed(2), credit: credit.toFixed(2) },
    closingBalance: balance.toFixed(2),
  };
}

/**
 * What a printed statement says beside an entry's reference, as the screen does: a reversal's
 * reason; nothing else (a payment's description is its number, already in the reference).
 */
export function statementDescription(entry: LedgerEntry): string {
  return entry.kind === 'payment_reversal' ? entry.description : '';
}

/** The ledger's CSV, opening and closing lines included, and its file name. */
export function ledgerCsv(language: Language, data: PartyLedger<{ name: string }>) {
  const t = accountTexts[language];
  const amount = (value: string) => csvAmount(language, value);
  const csv = toCsv(t.ledger, [
    [data.startDate, t.opening, '', '', '', '', amount(data.openingBalance)],
    ...data.entries.map((entry) => [
      entry.date,
      entry.reference,
      entry.description,
      entry.dueDate ?? '',
      amount(entry.debit),
      amount(entry.credit),
      amount(entry.balance),
    ]),
    [
      data.endDate,
      t.closing,
      '',
      '',
      amount(data.totals.debit),
      amount(data.totals.credit),
      amount(data.closingBalance),
    ],
  ]);
  return { csv, fileName: safeFileName(`${data.account.name}-${data.startDate}-${data.endDate}.csv`) };
}

export interface LedgerPrint {
  language: Language;
  data: PartyLedger<{ name: string; currency: Currency }>;
  /** The account's title ("Cuenta corriente del proveedor", "Estado de cuenta"). */
  title: string;
  taxId: string | null;
  /** The clinic's printed header. */
  header: unknown[];
  /** What the description column prints of an entry. */
  description: (entry: LedgerEntry) => string;
  /** The line under the table: the closing balance in the party's words. */
  closingLine: (format: (value: string) => string) => unknown;
}

/** The landscape ledger: the clinic's header, the party and the period, the entries, the closing line. */
export function ledgerDocument({
  language,
  data,
  title,
  taxId,
  header,
  description,
  closingLine,
}: LedgerPrint): PdfDocument {
  const t = accountTexts[language];
  const format = moneyFormatter(language, data.account.currency);
  const day = calendarDateFormatter(language);
  const right = (text: string, bold = false) => ({ text, alignment: 'right', bold });
  return {
    info: { title: `${title} — ${data.account.name}`, creator: 'Odontia' },
    pageOrientation: 'landscape',
    pageMargins: [36, 36, 36, 48],
    content: [
      ...header,
      { text: `${title}: ${data.account.name}`, style: 'title' },
      {
        text: `${taxId ? `${taxId} — ` : ''}${t.period}: ${day(data.startDate)} – ${day(data.endDate)}`,
        alignment: 'center',
        margin: [0, 0, 0, 8],
      },
      {
        table: {
          headerRows: 1,
          widths: ['auto', 'auto', '*', 'auto', 'auto', 'auto', 'auto'],
          body: [
            headerRow(t.ledger, 4),
            [{ text: t.opening, colSpan: 6, italics: true }, '', '', '', '', '', right(format(data.openingBalance))],
            ...data.entries.map((entry) => [
              day(entry.date),
              entry.reference,
              description(entry),
              day(entry.dueDate),
              right(entry.debit === '0.00' ? '' : format(entry.debit)),
              right(entry.credit === '0.00' ? '' : format(entry.credit)),
              right(format(entry.balance)),
            ]),
            [
              { text: t.totals, colSpan: 4, bold: true },
              '',
              '',
              '',
              right(format(data.totals.debit), true),
              right(format(data.totals.credit), true),
              right(format(data.closingBalance), true),
            ],
          ],
        },
        layout: 'lightHorizontalLines',
        fontSize: 9,
      },
      closingLine(format),
    ],
    styles: documentStyles(),
  };
}

/** The rendered ledger and its file name. */
export async function ledgerPdfFile(print: LedgerPrint) {
  const { account, startDate, endDate } = print.data;
  return pdfFile(ledgerDocument(print), `${account.name}-${startDate}-${endDate}.pdf`);
}
