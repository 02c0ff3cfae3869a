import type { ProviderAccountsQuery } from '@odontia/shared/schemas/current-accounts';
import { sql } from 'drizzle-orm';
import type { RequestContext } from '../../plugins/routes.ts';
import type { AccountFiguresRow } from './party-accounts.repository.ts';
import { accountsStatement, sideAccounts } from './side-accounts.repository.ts';

/**
 * Provider current accounts (issue 17) on the statements of either side (side-accounts.repository.ts):
 * aging from `commercial_documents_open_idx`, on account from `payments_unallocated_idx`; the
 * balance is what the clinic owes, credits − debits.
 */

type Ctx = Pick<RequestContext, 'tx' | 'accountId'>;

export interface ProviderAccountRow extends AccountFiguresRow {
  provider_id: string;
  name: string;
  nif: string | null;
  tax_id_kind: string | null;
  currency: string;
  active: boolean;
}

const providerAccounts = sideAccounts<ProviderAccountRow>({
  party: 'provider',
  documentSide: 'purchase',
  idColumn: 'provider_id',
  alias: 'p',
  from: sql`providers p`,
  partyColumns: sql`p.id as provider_id, p.fantasy_name as name, p.name_key, p.nif, p.tax_id_kind, p.currency, p.active`,
  listedColumns: sql`l.provider_id, l.name, l.nif, l.tax_id_kind, l.currency, l.active`,
  balance: sql`coalesce(b.credits, 0) - coalesce(b.debits, 0)`,
  liveMoney: sql``,
  sameDayOrder: sql`e.id`,
});

/** The accounts' statement: every live provider that matches, with its figures as of `today` (reports read it). */
export const accountsQuery = (
  ctx: Ctx,
  today: string,
  { providerId, ...filters }: { q?: string | undefined; withBalance?: boolean; providerId?: string },
) =>
  accountsStatement(ctx, providerAccounts.side, today, { ...filters, ...(providerId ? { partyId: providerId } : {}) });

/** The page of accounts, the number that match and their totals (every match, not the page). */
export const listAccounts = (
  ctx: Ctx,
  today: string,
  query: Pick<ProviderAccountsQuery, 'q' | 'sort' | 'page' | 'pageSize'> & { withBalance: boolean },
  paged = true,
) => providerAccounts.list(ctx, today, query, paged);

/** One provider's account (also an inactive one), or undefined when it is not the clinic's. */
export const findAccount = (ctx: Ctx, today: string, providerId: string) =>
  providerAccounts.find(ctx, today, providerId);

/** The balance before `startDate` (credits − debits) and the entries from `startDate` to `endDate`, in order. */
export const ledgerOf = providerAccounts.ledger;
