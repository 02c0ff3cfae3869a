import { type AgingBucket, agingBuckets } from '@odontia/shared/commercial';
import type { ProviderAccount } from '@odontia/shared/schemas/current-accounts';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../components/data-table';
import { ExportButton } from '../../components/list-card';
import { SwitchField } from '../../components/switch-field';
import { useCalendarDateFormat } from '../../session/clinic-time';
import { useCurrencyFormat } from '../commercial/money-format';

/** What a provider's and a customer's account both say: what is owed, overdue, by age, on account. */
export type AccountFigures = Pick<ProviderAccount, 'balance' | 'overdue' | 'onAccount' | 'aging'>;

/** One account's (or the search's) balance, overdue, aging buckets and on account, `<prefix>-<figure>` each. */
export function BalanceFigures({
  figures,
  currency,
  testIdPrefix,
}: {
  figures: AccountFigures;
  currency: string | undefined;
  testIdPrefix: string;
}) {
  const { t } = useTranslation(['currentAccounts', 'common']);
  const money = useCurrencyFormat();
  return (
    <dl className="row row-cols-2 row-cols-md-4 row-cols-xl-8 g-2 mb-0 small">
      {(
        [
          ['balance', figures.balance],
          ['overdue', figures.overdue],
          ...agingBuckets.map((bucket) => [bucket, figures.aging[bucket]] as const),
          ['onAccount', figures.onAccount],
        ] as const
      ).map(([key, value]) => (
        <div className="col" key={key}>
          <dt className="fw-normal text-body-secondary">
            {key in figures.aging ? t(`aging.${key as AgingBucket}`) : t(`fields.${key}`)}
          </dt>
          <dd className="mb-0 fw-semibold" data-testid={`${testIdPrefix}-${key}`}>
            {money(value, currency)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

type AccountRow = AccountFigures & Pick<ProviderAccount, 'currency' | 'lastMovementOn'>;

/** The list's columns after the account's name: balance, overdue, each age, on account, last movement. */
export function useFigureColumns<A extends AccountRow>(): Column<A>[] {
  const { t } = useTranslation(['currentAccounts', 'common']);
  const money = useCurrencyFormat();
  const day = useCalendarDateFormat();
  const amount = (value: string, currency: string) => (
    <span
      className={value.startsWith('-') ? 'text-success-emphasis' : value === '0.00' ? 'text-body-secondary' : undefined}
    >
      {money(value, currency)}
    </span>
  );
  return [
    {
      key: 'balance',
      header: t('fields.balance'),
      sortable: true,
      className: 'text-end text-nowrap fw-semibold',
      cell: (a) => <span data-testid="account-balance">{amount(a.balance, a.currency)}</span>,
    },
    {
      key: 'overdue',
      header: t('fields.overdue'),
      sortable: true,
      className: 'text-end text-nowrap',
      cell: (a) => (
        <span className={a.overdue !== '0.00' ? 'text-danger-emphasis' : 'text-body-secondary'}>
          {money(a.overdue, a.currency)}
        </span>
      ),
    },
    ...agingBuckets.map(
      (bucket): Column<A> => ({
        key: bucket,
        header: t(`aging.${bucket}`),
        className: 'text-end text-nowrap',
        cell: (a) => <span data-testid={`account-${bucket}`}>{amount(a.aging[bucket], a.currency)}</span>,
      }),
    ),
    {
      key: 'onAccount',
      header: t('fields.onAccount'),
      className: 'text-end text-nowrap',
      cell: (a) => amount(a.onAccount, a.currency),
    },
    {
      key: 'lastMovement',
      header: t('fields.lastMovement'),
      className: 'text-nowrap',
      cell: (a) => day(a.lastMovementOn) || '—',
    },
  ];
}

/** The search's totals, in the page's one currency (a word when the page mixes currencies). */
export function AccountsTotals({ totals, accounts }: { totals: AccountFigures; accounts: { currency: string }[] }) {
  const { t } = useTranslation(['currentAccounts', 'common']);
  const currencies = new Set(accounts.map((account) => account.currency));
  return (
    <div className="card-body border-bottom" data-testid="accounts-totals">
      <h2 className="h6 mb-2">{t('list.totals')}</h2>
      <BalanceFigures
        figures={totals}
        currency={currencies.size === 1 ? [...currencies][0] : undefined}
        testIdPrefix="total"
      />
      {currencies.size > 1 ? (
        <p className="small text-warning-emphasis mb-0 mt-2">{t('list.mixedCurrencies')}</p>
      ) : null}
    </div>
  );
}

/** The list's own filters (`children`), "only with a balance" and the CSV of the search. */
export function AccountsListTools({
  withBalance,
  onWithBalance,
  download,
  fallbackName,
  children,
}: {
  withBalance: boolean;
  onWithBalance: (checked: boolean) => void;
  download: () => Promise<{ blob: Blob; fileName: string | null }>;
  fallbackName: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation(['currentAccounts', 'common']);
  const id = useId();
  return (
    <div className="d-flex flex-wrap gap-3 align-items-center">
      {children}
      <SwitchField
        id={`${id}-balance`}
        label={t('list.withBalance')}
        className="mb-0"
        input={{ checked: withBalance, onChange: (event) => onWithBalance(event.target.checked) }}
        testId="accounts-with-balance"
      />
      <ExportButton label={t('list.export')} load={download} fallbackName={fallbackName} />
    </div>
  );
}
