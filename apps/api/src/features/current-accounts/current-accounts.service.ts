import { clinicToday } from '@odontia/shared/clinic-time';
import { calendarDateFormatter } from '@odontia/shared/date-format';
import type { Currency, DocumentType, Language } from '@odontia/shared/enums';
import type {
  LedgerQuery,
  ProviderAccount,
  ProviderAccountsQuery,
  ProviderLedger,
} from '@odontia/shared/schemas/current-accounts';
import Big from 'big.js';
import Papa from 'papaparse';
import { AppError } from '../../lib/app-error.ts';
import {
  type ClinicPrintHeader,
  clinicHeader,
  documentStyles,
  type PdfDocument,
  printLanguage,
  renderPdf,
  safeFileName,
} from '../../lib/pdf.ts';
import type { RequestContext } from '../../plugins/routes.ts';
import { loadPrintHeader } from '../fiscal/print-header.ts';
import { documentReference, paymentReference } from '../payments/commercial-texts.ts';
import { moneyFormatter } from '../payments/money-format.ts';
import { readerOf } from '../payments/payments.repository.ts';
import * as repository from './current-accounts.repository.ts';

/**
 * Provider current accounts (issue 17; docs/decisions.md "The commercial area: payments and current
 * accounts"). balance = credits − debits of the ledger (party_balances) = Σ aging − onAccount:
 * aging splits the positive open amounts of registered documents by days past their due date (no
 * due date: the document's date) on the clinic's today; onAccount is what was paid and not
 * allocated (non-reversed payments) plus credit notes not yet applied.
 */

const money = (value: string | number) => new Big(value).toFixed(2);

function present(row: repository.ProviderAccountRow): ProviderAccount {
  const aging = {
    current: money(row.current),
    days_0_30: money(row.days_0_30),
    days_31_60: money(row.days_31_60),
    days_61_90: money(row.days_61_90),
    days_over_90: money(row.days_over_90),
  };
  return {
    providerId: row.provider_id,
    name: row.name,
    nif: row.nif,
    taxIdKind: row.tax_id_kind,
    currency: row.currency as Currency,
    active: row.active,
    balance: money(row.balance),
    overdue: new Big(row.days_0_30).plus(row.days_31_60).plus(row.days_61_90).plus(row.days_over_90).toFixed(2),
    onAccount: new Big(row.credit_on_account).plus(row.unallocated).toFixed(2),
    aging,
    lastMovementOn: row.last_movement_on,
  };
}

const csvTexts: Record<
  Language,
  {
    accounts: string[];
    ledger: string[];
    opening: string;
    closing: string;
    title: string;
    period: string;
    totals: string;
  }
> = {
  es: {
    accounts: [
      'Proveedor',
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
    title: 'Cuenta corriente del proveedor',
    period: 'Período',
    totals: 'Totales',
  },
  en: {
    accounts: [
      'Provider',
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
    title: 'Provider current account',
    period: 'Period',
    totals: 'Totals',
  },
  fr: {
    accounts: [
      'Fournisseur',
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
    title: 'Compte fournisseur',
    period: 'Période',
    totals: 'Totaux',
  },
  pt: {
    accounts: [
      'Fornecedor',
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
    title: 'Conta corrente do fornecedor',
    period: 'Período',
    totals: 'Totais',
  },
};

/** Amounts in a ';' CSV read by a spreadsheet in the reader's language: a decimal comma but in English. */
const csvAmount = (language: Language, value: string) => (language === 'en' ? value : value.replace('.', ','));

function toCsv(header: string[], rows: string[][]): string {
  const csv = Papa.unparse({ fields: header, data: rows }, { delimiter: ';', newline: '\r\n', escapeFormulae: true });
  return `\uFEFF${csv}\r\n`;
}

async function ledger(ctx: RequestContext, providerId: string, query: LedgerQuery) {
  const account = await repository.findAccount(ctx, clinicToday(ctx.timeZone), providerId);
  if (!account) throw new AppError('provider_not_found');
  const { readerLanguage, clinicName, clinicContact } = await readerOf(ctx);
  const language = printLanguage(readerLanguage);
  const { openingBalance, rows } = await repository.ledgerOf(ctx, providerId, query.startDate, query.endDate);
  let balance = new Big(openingBalance);
  let debit = new Big(0);
  let credit = new Big(0);
  const entries = rows.map((row) => {
    balance = balance.plus(row.credit).minus(row.debit);
    debit = debit.plus(row.debit);
    credit = credit.plus(row.credit);
    const reference =
      row.kind === 'document' && row.document_type
        ? documentReference(language, {
            documentType: row.document_type as DocumentType,
            pointOfService: row.point_of_service,
            documentNumber: row.document_number,
          })
        : paymentReference(language, row.payment_number ?? row.description, row.kind === 'payment_reversal');
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
  const data: ProviderLedger = {
    account: present(account),
    startDate: query.startDate,
    endDate: query.endDate,
    openingBalance: money(openingBalance),
    entries,
    totals: { debit: debit.toFixed(2), credit: credit.toFixed(2) },
    closingBalance: balance.toFixed(2),
  };
  return { data, language, clinicName, clinicContact };
}

function ledgerDocument({
  data,
  language,
  clinicName,
  clinicContact,
  clinic,
}: Awaited<ReturnType<typeof ledger>> & { clinic: ClinicPrintHeader }): PdfDocument {
  const t = csvTexts[language];
  const format = moneyFormatter(language, data.account.currency);
  const day = calendarDateFormatter(language);
  const right = (text: string, bold = false) => ({ text, alignment: 'right', bold });
  return {
    info: { title: `${t.title} — ${data.account.name}`, creator: 'Odontia' },
    pageOrientation: 'landscape',
    pageMargins: [36, 36, 36, 48],
    content: [
      ...clinicHeader({ clinicName, clinicContact, clinic, language }),
      { text: `${t.title}: ${data.account.name}`, style: 'title' },
      {
        text: `${data.account.nif ? `${data.account.nif} — ` : ''}${t.period}: ${day(data.startDate)} – ${day(data.endDate)}`,
        alignment: 'center',
        margin: [0, 0, 0, 8],
      },
      {
        table: {
          headerRows: 1,
          widths: ['auto', 'auto', '*', 'auto', 'auto', 'auto', 'auto'],
          body: [
            t.ledger.map((text, index) => ({ text, bold: true, alignment: index >= 4 ? 'right' : 'left' })),
            [{ text: t.opening, colSpan: 6, italics: true }, '', '', '', '', '', right(format(data.openingBalance))],
            ...data.entries.map((entry) => [
              day(entry.date),
              entry.reference,
              entry.description,
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
      { margin: [0, 8, 0, 0], text: [{ text: `${t.closing}: `, bold: true }, format(data.closingBalance)] },
    ],
    styles: documentStyles(),
  };
}

export const currentAccountsService = {
  async list({ ctx, query }: { ctx: RequestContext; query: ProviderAccountsQuery }) {
    const { rows, totals } = await repository.listAccounts(ctx, clinicToday(ctx.timeZone), {
      ...query,
      withBalance: query.withBalance === 'true',
    });
    return {
      data: rows.map(present),
      total: totals.total,
      page: query.page,
      pageSize: query.pageSize,
      totals: {
        balance: money(totals.balance),
        overdue: new Big(totals.days_0_30)
          .plus(totals.days_31_60)
          .plus(totals.days_61_90)
          .plus(totals.days_over_90)
          .toFixed(2),
        onAccount: money(totals.on_account),
        aging: {
          current: money(totals.current),
          days_0_30: money(totals.days_0_30),
          days_31_60: money(totals.days_31_60),
          days_61_90: money(totals.days_61_90),
          days_over_90: money(totals.days_over_90),
        },
      },
    };
  },

  async exportCsv({ ctx, query }: { ctx: RequestContext; query: ProviderAccountsQuery }) {
    const { rows } = await repository.listAccounts(
      ctx,
      clinicToday(ctx.timeZone),
      { ...query, withBalance: query.withBalance === 'true' },
      false,
    );
    const language = printLanguage((await readerOf(ctx)).readerLanguage);
    const amount = (value: string) => csvAmount(language, value);
    const csv = toCsv(
      csvTexts[language].accounts,
      rows
        .map(present)
        .map((account) => [
          account.name,
          account.nif ?? '',
          account.currency,
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
    return { csv, fileName: `cuentas-corrientes-proveedores-${clinicToday(ctx.timeZone)}.csv` };
  },

  async ledger({ ctx, providerId, query }: { ctx: RequestContext; providerId: string; query: LedgerQuery }) {
    return (await ledger(ctx, providerId, query)).data;
  },

  async ledgerCsv({ ctx, providerId, query }: { ctx: RequestContext; providerId: string; query: LedgerQuery }) {
    const { data, language } = await ledger(ctx, providerId, query);
    const t = csvTexts[language];
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
  },

  /** Read in the transaction; rendered after it. */
  /** The ledger and the clinic's printed header (logo, fiscal data), read in the request's transaction. */
  printableLedger: async ({
    ctx,
    providerId,
    query,
  }: {
    ctx: RequestContext;
    providerId: string;
    query: LedgerQuery;
  }) => ({
    ...(await ledger(ctx, providerId, query)),
    clinic: await loadPrintHeader(ctx),
  }),
};

export async function ledgerPdf(printable: Awaited<ReturnType<typeof currentAccountsService.printableLedger>>) {
  const pdf = await renderPdf(ledgerDocument(printable));
  const { account, startDate, endDate } = printable.data;
  return { pdf, fileName: safeFileName(`${account.name}-${startDate}-${endDate}.pdf`) };
}
