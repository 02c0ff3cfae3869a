import { clinicToday } from '@odontia/shared/clinic-time';
import { calendarDateFormatter } from '@odontia/shared/date-format';
import type { Currency, Language } from '@odontia/shared/enums';
import type { PatientBalance } from '@odontia/shared/schemas/collections';
import type {
  CustomerAccount,
  CustomerAccountsQuery,
  CustomerLedger,
  LedgerQuery,
} from '@odontia/shared/schemas/current-accounts';
import Big from 'big.js';
import type { RequestContext } from '../../context.ts';
import { loadPrintHeader, readerOf } from '../../db/clinic-print-header.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Mailer } from '../../lib/mail.ts';
import { moneyFormatter } from '../../lib/money-format.ts';
import { clinicHeader, printLanguage } from '../../lib/pdf.ts';
import { audit } from '../audit/audit.repository.ts';
import {
  accountFigures,
  accountsCsv,
  accountsFilter,
  accountsPage,
  ledgerCsv,
  ledgerPdfFile,
  runningLedger,
  statementDescription,
} from './account-views.ts';
import * as repository from './customer-accounts.repository.ts';

/**
 * Customers' current accounts (issue 18; docs/decisions.md "Sales and collections"). balance =
 * debits − credits of the ledger = Σ aging − onAccount. Aging by due date (no due date: the sale's
 * date) on the clinic's today. The ledger runs from an opening balance; its PDF, the statement
 * ("estado de cuenta"), prints in the CUSTOMER's language (it is sent to them), its CSV in the
 * reader's.
 */

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
    ...accountFigures(row),
  };
}

const texts: Record<
  Language,
  {
    customer: string;
    title: string;
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
    customer: 'Cliente',
    title: 'Estado de cuenta',
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
    customer: 'Customer',
    title: 'Statement of account',
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
    customer: 'Client',
    title: 'Relevé de compte',
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
    customer: 'Cliente',
    title: 'Extrato de conta',
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
  const t = texts[language];
  return runningLedger(
    'customer',
    language,
    { account: await accountOf(ctx, customerId), startDate: query.startDate, endDate: query.endDate },
    await repository.customerLedgerOf(ctx, customerId, query.startDate, query.endDate),
    (row) => `${row.kind === 'payment_reversal' ? t.reversal : t.collection} ${row.payment_number ?? row.description}`,
  );
}

async function printable(ctx: RequestContext, customerId: string, query: LedgerQuery) {
  const account = await accountOf(ctx, customerId);
  const language = printLanguage(account.language);
  return { data: await ledger(ctx, customerId, query, language), language, clinic: await loadPrintHeader(ctx) };
}

function renderStatement(statement: Awaited<ReturnType<typeof printable>>) {
  const { data, language, clinic } = statement;
  const t = texts[language];
  const closing = new Big(data.closingBalance);
  return ledgerPdfFile({
    language,
    data,
    title: t.title,
    taxId: data.account.taxId,
    header: clinicHeader({ clinicName: clinic.name, clinicContact: '', clinic, language }),
    // As on the screen: the reference says all but a reversal's reason.
    description: statementDescription,
    closingLine: (format) => ({
      margin: [0, 8, 0, 0],
      text: [{ text: `${closing.lt(0) ? t.inFavour : t.owes}: `, bold: true }, format(closing.abs().toFixed(2))],
    }),
  });
}

export const customerAccountsService = {
  async list({ ctx, query }: { ctx: RequestContext; query: CustomerAccountsQuery }) {
    const { rows, totals } = await repository.listCustomerAccounts(
      ctx,
      clinicToday(ctx.timeZone),
      accountsFilter(query),
    );
    const currency = await repository.clinicCurrency(ctx);
    return accountsPage(
      query,
      rows.map((row) => present(row, currency)),
      totals,
    );
  },

  async exportCsv({ ctx, query }: { ctx: RequestContext; query: CustomerAccountsQuery }) {
    const { rows } = await repository.listCustomerAccounts(
      ctx,
      clinicToday(ctx.timeZone),
      accountsFilter(query),
      false,
    );
    const currency = await repository.clinicCurrency(ctx);
    const language = printLanguage((await readerOf(ctx)).readerLanguage);
    const csv = accountsCsv(
      language,
      texts[language].customer,
      rows.map((row) => present(row, currency)),
    );
    return { csv, fileName: `cuentas-corrientes-clientes-${clinicToday(ctx.timeZone)}.csv` };
  },

  async ledger({ ctx, customerId, query }: { ctx: RequestContext; customerId: string; query: LedgerQuery }) {
    const language = printLanguage((await readerOf(ctx)).readerLanguage);
    return ledger(ctx, customerId, query, language);
  },

  async ledgerCsv({ ctx, customerId, query }: { ctx: RequestContext; customerId: string; query: LedgerQuery }) {
    const language = printLanguage((await readerOf(ctx)).readerLanguage);
    return ledgerCsv(language, await ledger(ctx, customerId, query, language));
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
