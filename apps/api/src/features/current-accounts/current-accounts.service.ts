import { clinicToday } from '@odontia/shared/clinic-time';
import type { Currency, Language } from '@odontia/shared/enums';
import type {
  LedgerQuery,
  ProviderAccount,
  ProviderAccountsQuery,
  ProviderLedger,
} from '@odontia/shared/schemas/current-accounts';
import type { RequestContext } from '../../context.ts';
import { loadPrintHeader, readerOf } from '../../db/clinic-print-header.ts';
import { AppError } from '../../lib/app-error.ts';
import { clinicHeader, printLanguage } from '../../lib/pdf.ts';
import { paymentReference } from '../commercial/commercial-texts.ts';
import {
  accountFigures,
  accountsCsv,
  accountsFilter,
  accountsPage,
  accountTexts,
  ledgerCsv,
  ledgerPdfFile,
  runningLedger,
  statementDescription,
} from './account-views.ts';
import * as repository from './current-accounts.repository.ts';

/**
 * Provider current accounts (issue 17; docs/decisions.md "The commercial area: payments and current
 * accounts"). balance = credits − debits of the ledger (party_balances) = Σ aging − onAccount:
 * aging splits the positive open amounts of registered documents by days past their due date (no
 * due date: the document's date) on the clinic's today; onAccount is what was paid and not
 * allocated (non-reversed payments) plus credit notes not yet applied.
 */

function present(row: repository.ProviderAccountRow): ProviderAccount {
  return {
    providerId: row.provider_id,
    name: row.name,
    nif: row.nif,
    taxIdKind: row.tax_id_kind,
    currency: row.currency as Currency,
    active: row.active,
    ...accountFigures(row),
  };
}

const texts: Record<Language, { provider: string; title: string }> = {
  es: { provider: 'Proveedor', title: 'Cuenta corriente del proveedor' },
  en: { provider: 'Provider', title: 'Provider current account' },
  fr: { provider: 'Fournisseur', title: 'Compte fournisseur' },
  pt: { provider: 'Fornecedor', title: 'Conta corrente do fornecedor' },
};

async function ledger(ctx: RequestContext, providerId: string, query: LedgerQuery) {
  const account = await repository.findAccount(ctx, clinicToday(ctx.timeZone), providerId);
  if (!account) throw new AppError('provider_not_found');
  const { readerLanguage, clinicName, clinicContact } = await readerOf(ctx);
  const language = printLanguage(readerLanguage);
  const data: ProviderLedger = runningLedger(
    'provider',
    language,
    { account: present(account), ...query },
    await repository.ledgerOf(ctx, providerId, query.startDate, query.endDate),
    (row) => paymentReference(language, row.payment_number ?? row.description, row.kind === 'payment_reversal'),
  );
  return { data, language, clinicName, clinicContact };
}

export const currentAccountsService = {
  async list({ ctx, query }: { ctx: RequestContext; query: ProviderAccountsQuery }) {
    const { rows, totals } = await repository.listAccounts(ctx, clinicToday(ctx.timeZone), accountsFilter(query));
    return accountsPage(query, rows.map(present), totals);
  },

  async exportCsv({ ctx, query }: { ctx: RequestContext; query: ProviderAccountsQuery }) {
    const { rows } = await repository.listAccounts(ctx, clinicToday(ctx.timeZone), accountsFilter(query), false);
    const language = printLanguage((await readerOf(ctx)).readerLanguage);
    const csv = accountsCsv(
      language,
      texts[language].provider,
      rows.map(present).map((account) => ({ ...account, taxId: account.nif })),
    );
    return { csv, fileName: `cuentas-corrientes-proveedores-${clinicToday(ctx.timeZone)}.csv` };
  },

  async ledger({ ctx, providerId, query }: { ctx: RequestContext; providerId: string; query: LedgerQuery }) {
    return (await ledger(ctx, providerId, query)).data;
  },

  async ledgerCsv({ ctx, providerId, query }: { ctx: RequestContext; providerId: string; query: LedgerQuery }) {
    const { data, language } = await ledger(ctx, providerId, query);
    return ledgerCsv(language, data);
  },

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

export function ledgerPdf({
  data,
  language,
  clinicName,
  clinicContact,
  clinic,
}: Awaited<ReturnType<typeof currentAccountsService.printableLedger>>) {
  return ledgerPdfFile({
    language,
    data,
    title: texts[language].title,
    taxId: data.account.nif,
    header: clinicHeader({ clinicName, clinicContact, clinic, language }),
    description: statementDescription,
    closingLine: (format) => ({
      margin: [0, 8, 0, 0],
      text: [{ text: `${accountTexts[language].closing}: `, bold: true }, format(data.closingBalance)],
    }),
  });
}
