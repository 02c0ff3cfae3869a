import { clinicToday } from '@odontia/shared/clinic-time';
import { calendarDateFormatter } from '@odontia/shared/date-format';
import type { Currency, DocumentType, Language } from '@odontia/shared/enums';
import type { PatientBalance } from '@odontia/shared/schemas/collections';
import type {
  CustomerAccount,
  CustomerAccountsQuery,
  CustomerLedger,
  LedgerQuery,
} from '@odontia/shared/schemas/current-accounts';
import Big from 'big.js';
import Papa from 'papaparse';
import { AppError } from '../../lib/app-error.ts';
import type { Mailer } from '../../lib/mail.ts';
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
import { audit } from '../audit/audit.repository.ts';
import { loadPrintHeader } from '../fiscal/print-header.ts';
import { documentReference } from '../payments/commercial-texts.ts';
import { moneyFormatter } from '../payments/money-format.ts';
import { readerOf } from '../payments/payments.repository.ts';
import * as repository from './customer-accounts.repository.ts';

/**
 * Customers' current accounts (issue 18; docs/decisions.md "Sales and collections"). balance =
 * debits − credits of the ledger = Σ aging − onAccount. Aging by due date (no due date: the sale's
 * date) on the clinic's today. The ledger runs from an opening balance; its PDF, the statement
 * ("estado de cuenta"), prints in the CUSTOMER's language (it is sent to them), its CSV in the
 * reader's.
 */

const money = (value: string | number) => new Big(value).toFixed(2);

function present(row: repository.CustomerAccountRow, currency: string): CustomerAccount {
  return {
    customerId: row.customer_id,
    kind: row.kind,
    patientId: row.patient_id,
    name: row.name,
    taxId: row.tax_id,
    taxIdKind: row.tax_id_kind,
    email: row.email,
    language: row.language,
    currency: currency as Currency,
    active: row.active,
    balance: money(row.balance),
    overdue: new Big(row.days_0_30).plus(row.days_31_60).plus(row.days_61_90).plus(row.days_over_90).toFixed(2),
    onAccount: new Big(row.credit_on_account).plus(row.unallocated).toFixed(2),
    aging: {
      current: money(row.current),
      days_0_30: money(row.days_0_30),
      days_31_60: money(row.days_31_60),
      days_61_90: money(row.days_61_90),
      days_over_90: money(row.days_over_90),
    },
    lastMovementOn: row.last_movement_on,
  };
}

const texts: Record<
  Language,
  {
    accounts: string[];
    ledger: string[];
    opening: string;
    closing: string;
    title: string;
    period: string;
    totals: string;
    collection: string;
    reversal: string;
    owes: string;
    inFavour: string;
    mailSubject: string;
    mailGreeting: string;
    mailBody: string;
    mailFooter: string;
  }
> = {
  es: {
    accounts: [
      'Cliente',
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
    title: 'Estado de cuenta',
    period: 'Período',
    totals: 'Totales',
    collection: 'Cobro',
    reversal: 'Anulación del cobro',
    owes: 'Saldo a pagar',
    inFavour: 'Saldo a su favor',
    mailSubject: 'Estado de cuenta de {clinic} ({start} – {end})',
    mailGreeting: 'Estimado/a {name}:',
    mailBody: 'Le enviamos adjunto su estado de cuenta con {clinic} del {start} al {end}. Saldo al cierre: {balance}.',
    mailFooter: 'Ante cualquier consulta, no dude en comunicarse con la clínica.',
  },
  en: {
    accounts: [
      'Customer',
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
    title: 'Statement of account',
    period: 'Period',
    totals: 'Totals',
    collection: 'Payment received',
    reversal: 'Reversal of payment',
    owes: 'Balance due',
    inFavour: 'Balance in your favour',
    mailSubject: 'Statement of account from {clinic} ({start} – {end})',
    mailGreeting: 'Dear {name},',
    mailBody:
      'Please find attached your statement of account with {clinic} from {start} to {end}. Closing balance: {balance}.',
    mailFooter: 'If you have any questions, please contact the clinic.',
  },
  fr: {
    accounts: [
      'Client',
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
    title: 'Relevé de compte',
    period: 'Période',
    totals: 'Totaux',
    collection: 'Encaissement',
    reversal: "Annulation de l'encaissement",
    owes: 'Solde à régler',
    inFavour: 'Solde en votre faveur',
    mailSubject: 'Relevé de compte de {clinic} ({start} – {end})',
    mailGreeting: 'Bonjour {name},',
    mailBody:
      'Veuillez trouver ci-joint votre relevé de compte chez {clinic} du {start} au {end}. Solde de clôture : {balance}.',
    mailFooter: "Pour toute question, n'hésitez pas à contacter le cabinet.",
  },
  pt: {
    accounts: [
      'Cliente',
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
    title: 'Extrato de conta',
    period: 'Período',
    totals: 'Totais',
    collection: 'Recebimento',
    reversal: 'Estorno do recebimento',
    owes: 'Saldo a pagar',
    inFavour: 'Saldo a seu favor',
    mailSubject: 'Extrato de conta de {clinic} ({start} – {end})',
    mailGreeting: 'Prezado(a) {name},',
    mailBody: 'Segue em anexo o seu extrato de conta com {clinic} de {start} a {end}. Saldo final: {balance}.',
    mailFooter: 'Em caso de dúvida, entre em contato com a clínica.',
  },
};

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

const csvAmount = (language: Language, value: string) => (language === 'en' ? value : value.replace('.', ','));

function toCsv(header: string[], rows: string[][]): string {
  const csv = Papa.unparse({ fields: header, data: rows }, { delimiter: ';', newline: '\r\n', escapeFormulae: true });
  return `\uFEFF${csv}\r\n`;
}

async function accountOf(ctx: RequestContext, customerId: string) {
  const row = await repository.findCustomerAccount(ctx, clinicToday(ctx.timeZone), customerId);
  if (!row) throw new AppError('customer_not_found');
  return present(row, await repository.clinicCurrency(ctx));
}

/** The ledger with references in `language` (the reader's for the screen and CSV, the customer's for the PDF). */
async function ledger(
  ctx: RequestContext,
  customerId: string,
  query: LedgerQuery,
  language: Language,
): Promise<CustomerLedger> {
  const account = await accountOf(ctx, customerId);
  const t = texts[language];
  const { openingBalance, rows } = await repository.customerLedgerOf(ctx, customerId, query.startDate, query.endDate);
  let balance = new Big(openingBalance);
  let debit = new Big(0);
  let credit = new Big(0);
  const entries = rows.map((row) => {
    balance = balance.plus(row.debit).minus(row.credit);
    debit = debit.plus(row.debit);
    credit = credit.plus(row.credit);
    const reference =
      row.kind === 'document' && row.document_type
        ? documentReference(language, {
            documentType: row.document_type as DocumentType,
            pointOfService: row.point_of_service,
            documentNumber: row.document_number,
          })
        : `${row.kind === 'payment_reversal' ? t.reversal : t.collection} ${row.payment_number ?? row.description}`;
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
    startDate: query.startDate,
    endDate: query.endDate,
    openingBalance: money(openingBalance),
    entries,
    totals: { debit: debit.toFixed(2), credit: credit.toFixed(2) },
    closingBalance: balance.toFixed(2),
  };
}

function statementDocument(data: CustomerLedger, language: Language, clinic: ClinicPrintHeader): PdfDocument {
  const t = texts[language];
  const format = moneyFormatter(language, data.account.currency);
  const day = calendarDateFormatter(language);
  const right = (text: string, bold = false) => ({ text, alignment: 'right', bold });
  const closing = new Big(data.closingBalance);
  return {
    info: { title: `${t.title} — ${data.account.name}`, creator: 'Odontia' },
    pageOrientation: 'landscape',
    pageMargins: [36, 36, 36, 48],
    content: [
      ...clinicHeader({ clinicName: clinic.name, clinicContact: '', clinic, language }),
      { text: `${t.title}: ${data.account.name}`, style: 'title' },
      {
        text: `${data.account.taxId ? `${data.account.taxId} — ` : ''}${t.period}: ${day(data.startDate)} – ${day(data.endDate)}`,
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
              entry.kind === 'document' ? '' : entry.description,
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
      {
        margin: [0, 8, 0, 0],
        text: [{ text: `${closing.lt(0) ? t.inFavour : t.owes}: `, bold: true }, format(closing.abs().toFixed(2))],
      },
    ],
    styles: documentStyles(),
  };
}

async function printable(ctx: RequestContext, customerId: string, query: LedgerQuery) {
  const account = await accountOf(ctx, customerId);
  const language = printLanguage(account.language);
  return { data: await ledger(ctx, customerId, query, language), language, clinic: await loadPrintHeader(ctx) };
}

async function renderStatement(statement: Awaited<ReturnType<typeof printable>>) {
  const pdf = await renderPdf(statementDocument(statement.data, statement.language, statement.clinic));
  const { account, startDate, endDate } = statement.data;
  return { pdf, fileName: safeFileName(`${account.name}-${startDate}-${endDate}.pdf`) };
}

export const customerAccountsService = {
  async list({ ctx, query }: { ctx: RequestContext; query: CustomerAccountsQuery }) {
    const { rows, totals } = await repository.listCustomerAccounts(ctx, clinicToday(ctx.timeZone), {
      ...query,
      withBalance: query.withBalance === 'true',
    });
    const currency = await repository.clinicCurrency(ctx);
    return {
      data: rows.map((row) => present(row, currency)),
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

  async exportCsv({ ctx, query }: { ctx: RequestContext; query: CustomerAccountsQuery }) {
    const { rows } = await repository.listCustomerAccounts(
      ctx,
      clinicToday(ctx.timeZone),
      { ...query, withBalance: query.withBalance === 'true' },
      false,
    );
    const currency = await repository.clinicCurrency(ctx);
    const language = printLanguage((await readerOf(ctx)).readerLanguage);
    const amount = (value: string) => csvAmount(language, value);
    const csv = toCsv(
      texts[language].accounts,
      rows
        .map((row) => present(row, currency))
        .map((account) => [
          account.name,
          account.taxId ?? '',
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
    return { csv, fileName: `cuentas-corrientes-clientes-${clinicToday(ctx.timeZone)}.csv` };
  },

  async ledger({ ctx, customerId, query }: { ctx: RequestContext; customerId: string; query: LedgerQuery }) {
    const language = printLanguage((await readerOf(ctx)).readerLanguage);
    return ledger(ctx, customerId, query, language);
  },

  async ledgerCsv({ ctx, customerId, query }: { ctx: RequestContext; customerId: string; query: LedgerQuery }) {
    const language = printLanguage((await readerOf(ctx)).readerLanguage);
    const data = await ledger(ctx, customerId, query, language);
    const t = texts[language];
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

  /** The statement and the clinic's printed header, read in the request's transaction; rendered after it. */
  printableStatement: ({ ctx, customerId, query }: { ctx: RequestContext; customerId: string; query: LedgerQuery }) =>
    printable(ctx, customerId, query),

  renderStatement,

  /**
   * E-mails the statement PDF to the customer (409 customer_without_email). The mail leaves after
   * the read; the audit event is written in its own transaction once it was sent.
   */
  async sendStatement({
    withTenant,
    actor,
    mailer,
    customerId,
    query,
  }: {
    withTenant: <T>(work: (ctx: RequestContext) => Promise<T>) => Promise<T>;
    actor: { userId: string };
    mailer: Mailer;
    customerId: string;
    query: LedgerQuery;
  }): Promise<{ to: string }> {
    const statement = await withTenant((ctx) => printable(ctx, customerId, query));
    const { account } = statement.data;
    if (!account.email)
      throw new AppError('customer_without_email', { customer: { id: account.customerId, name: account.name } });
    const { pdf, fileName } = await renderStatement(statement);
    const t = texts[statement.language];
    const day = calendarDateFormatter(statement.language);
    const values = {
      clinic: statement.clinic.name,
      name: account.name,
      start: day(statement.data.startDate),
      end: day(statement.data.endDate),
      balance: moneyFormatter(statement.language, account.currency)(statement.data.closingBalance),
    };
    const lines = [fill(t.mailGreeting, values), fill(t.mailBody, values), fill(t.mailFooter, values), values.clinic];
    const html = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
    try {
      await mailer.send({
        to: account.email,
        subject: fill(t.mailSubject, values),
        text: lines.join('\n\n'),
        html: lines.map((line) => `<p>${html(line)}</p>`).join(''),
        attachments: [{ filename: fileName, content: pdf, contentType: 'application/pdf' }],
      });
    } catch (cause) {
      throw new AppError('error_sending_email', undefined, { cause });
    }
    await withTenant((ctx) =>
      audit(ctx, {
        action: 'statement_sent',
        entity: 'customer',
        entityId: customerId,
        after: { to: account.email, startDate: query.startDate, endDate: query.endDate, userId: actor.userId },
      }),
    );
    return { to: account.email };
  },

  /** The patient's account at a glance; zero and no customer when the patient was never billed. */
  async patientBalance({ ctx, patientId }: { ctx: RequestContext; patientId: string }): Promise<PatientBalance> {
    if (!(await repository.patientExists(ctx, patientId))) throw new AppError('patient_not_found');
    const currency = (await repository.clinicCurrency(ctx)) as Currency;
    const customerId = await repository.customerIdOfPatient(ctx, patientId);
    if (!customerId) return { customerId: null, currency, balance: '0.00', overdue: '0.00', onAccount: '0.00' };
    const account = await accountOf(ctx, customerId);
    return { customerId, currency, balance: account.balance, overdue: account.overdue, onAccount: account.onAccount };
  },
};
