import type { Currency } from '@odontia/shared/enums';
import { negated } from '@odontia/shared/money';
import type { Dashboard as DashboardFigures } from '@odontia/shared/schemas/dashboard';
import type { ChartConfiguration } from 'chart.js';
import { Banknote, HandCoins, type LucideIcon, Receipt, Stethoscope, TrendingUp, Truck, Vault } from 'lucide-react';
import { type ReactNode, useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCalendarDateFormat } from '../../session/clinic-time';
import { calendarPath } from '../appointments/api';
import { useDocumentMoney } from '../commercial/money-format';
import { LazyChart, type ThemeColours } from './chart';

/**
 * The period's figures of the dashboard (issue 19): the clinical ones for every level, the money
 * for reports.read. Each figure opens the list behind it.
 */

type Figures = DashboardFigures;
type Financial = NonNullable<Figures['financial']>;

/** −12 %, +3 %; none when there is nothing to compare with. */
function change(current: number, before: number): number | null {
  if (before === 0) return null;
  return Math.round(((current - before) / Math.abs(before)) * 100);
}

/** The figures' amounts, in the currency the money comes in. */
function useFigureMoney(financial: Financial): (amount: string) => string {
  const money = useDocumentMoney();
  return (amount) => money(amount, financial.currency as Currency);
}

function Comparison({
  current,
  previous,
  lastYear,
  format,
}: {
  current: number;
  previous: number;
  lastYear: number;
  format: (value: number) => string;
}) {
  const { t } = useTranslation('dashboard');
  const rows = [
    { key: 'previous', value: previous },
    { key: 'lastYear', value: lastYear },
  ] as const;
  return (
    <dl className="dashboard-compare">
      {rows.map(({ key, value }) => {
        const percent = change(current, value);
        return (
          <div key={key}>
            <dt>{t(`figures.${key}`)}</dt>
            <dd>
              {format(value)}
              {percent === null ? null : (
                <span className={`dashboard-change ${percent >= 0 ? 'is-up' : 'is-down'}`}>
                  {t('figures.change', { sign: percent > 0 ? '+' : '', percent })}
                </span>
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

type Period = Figures['period'];

/** Each figure card: its test id, title, icon, and the list its footer opens (with that link's text). */
const figureCards = {
  clinical: {
    id: 'clinical-figures',
    title: 'figures.clinical',
    icon: Stethoscope,
    link: (period: Period) => calendarPath({ date: period.today, book: false }),
    linkText: 'figures.openAgenda',
  },
  production: {
    id: 'production-figure',
    title: 'figures.production',
    icon: TrendingUp,
    link: (period: Period) => `/sales?dateFrom=${period.from}&dateTo=${period.to}`,
    linkText: 'figures.openSales',
  },
  collections: {
    id: 'collections-figure',
    title: 'figures.collections',
    icon: HandCoins,
    link: (period: Period) => `/collections?from=${period.from}&to=${period.to}`,
    linkText: 'figures.openCollections',
  },
  receivables: {
    id: 'receivables-figure',
    title: 'figures.receivables',
    icon: Receipt,
    link: () => '/cc-customers?sort=-overdue',
    linkText: 'figures.openReceivables',
  },
  payables: {
    id: 'payables-figure',
    title: 'figures.payables',
    icon: Truck,
    link: () => '/cc-providers?sort=-overdue',
    linkText: 'figures.openPayables',
  },
  topTreatments: {
    id: 'top-treatments',
    title: 'figures.topTreatments',
    icon: Banknote,
    link: () => '/price-list',
    linkText: 'figures.openPriceList',
  },
  // Issue 40: the registers today.
  cash: {
    id: 'cash-figure',
    title: 'figures.cash',
    icon: Vault,
    link: () => '/cash',
    linkText: 'figures.openCash',
  },
} satisfies Record<
  string,
  { id: string; title: string; icon: LucideIcon; link: (period: Period) => string; linkText: string }
>;

function FigureCard({
  card,
  period,
  children,
}: {
  card: keyof typeof figureCards;
  period: Period;
  children: ReactNode;
}) {
  const { t } = useTranslation('dashboard');
  const { id, title, icon: Icon, link, linkText } = figureCards[card];
  return (
    <section className="card dashboard-card" aria-labelledby={`${id}-title`} data-testid={id}>
      <div className="card-header d-flex align-items-center gap-2">
        <Icon size={18} aria-hidden="true" />
        <h2 id={`${id}-title`} className="h6 mb-0">
          {t(title)}
        </h2>
      </div>
      <div className="card-body">{children}</div>
      <div className="card-footer small">
        <Link to={link(period)} data-testid={`${id}-link`}>
          {t(linkText)}
        </Link>
      </div>
    </section>
  );
}

/** The figure's headline number under its label. */
function Stat({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="dashboard-stat">
      <span className="dashboard-stat-label">{label}</span>
      <span className="dashboard-stat-value" data-testid={testId}>
        {value}
      </span>
    </div>
  );
}

/** A figure's rows: what each one is, and its amount at the end. */
function AmountList({
  rows,
  ordered = false,
}: {
  rows: { key: string; label: ReactNode; amount: string; testId?: string }[];
  ordered?: boolean;
}) {
  const List = ordered ? 'ol' : 'ul';
  return (
    <List className="list-unstyled mb-0 dashboard-list">
      {rows.map((row) => (
        <li key={row.key} className="dashboard-list-row" data-testid={row.testId}>
          {row.label}
          <span className="text-nowrap">{row.amount}</span>
        </li>
      ))}
    </List>
  );
}

function ClinicalFigures({ figures }: { figures: Figures }) {
  const { t, i18n } = useTranslation('dashboard');
  const number = (value: number) => value.toLocaleString(i18n.language);
  const percent = (value: number) =>
    value.toLocaleString(i18n.language, { style: 'percent', maximumFractionDigits: 1 });
  const { attendances, newPatients, returningPatients, appointments, recalls } = figures.clinical;
  return (
    <FigureCard card="clinical" period={figures.period}>
      <Stat label={t('figures.attendances')} testId="attendances-figure" value={number(attendances.current)} />
      <Comparison {...attendances} format={number} />
      <dl className="dashboard-facts">
        <div>
          <dt>{t('figures.newPatients')}</dt>
          <dd data-testid="new-patients-figure">{number(newPatients.current)}</dd>
        </div>
        <div>
          <dt>{t('figures.returningPatients')}</dt>
          <dd>{number(returningPatients)}</dd>
        </div>
        <div>
          <dt>{t('figures.appointments')}</dt>
          <dd>{number(appointments.total)}</dd>
        </div>
        <div>
          <dt>{t('figures.noShowRate')}</dt>
          <dd data-testid="no-show-rate">
            {percent(appointments.noShowRate)}{' '}
            <span className="text-body-secondary">({number(appointments.noShow)})</span>
          </dd>
        </div>
        <div>
          <dt>{t('figures.lateCancelRate')}</dt>
          <dd>
            {percent(appointments.lateCancelRate)}{' '}
            <span className="text-body-secondary">({number(appointments.lateCancelled)})</span>
          </dd>
        </div>
        <div>
          <dt>{t('figures.recallsDue')}</dt>
          <dd data-testid="recalls-figure">
            <Link to="/recalls">
              {t('figures.recallsValue', { due: number(recalls.due), booked: number(recalls.booked) })}
            </Link>
          </dd>
        </div>
      </dl>
    </FigureCard>
  );
}

function Production({ figures, financial }: { figures: Figures; financial: Financial }) {
  const { t } = useTranslation('dashboard');
  const money = useFigureMoney(financial);
  const day = useCalendarDateFormat();
  const format = (value: number) => money(value.toFixed(2));
  const { production } = financial;
  const config = useCallback(
    (colours: ThemeColours): ChartConfiguration => ({
      type: 'bar',
      data: {
        labels: production.byDay.map((row) => day(row.day)),
        datasets: [{ data: production.byDay.map((row) => Number(row.amount)), backgroundColor: colours.primary }],
      },
      options: {
        maintainAspectRatio: false,
        plugins: { legend: { display: false } },
        scales: {
          x: { ticks: { color: colours.muted, maxRotation: 0, autoSkip: true }, grid: { display: false } },
          y: { ticks: { color: colours.muted }, grid: { color: colours.grid } },
        },
      },
    }),
    [production.byDay, day],
  );
  return (
    <FigureCard card="production" period={figures.period}>
      <Stat label={t('figures.invoicedNet')} testId="production-value" value={money(production.current)} />
      <Comparison
        current={Number(production.current)}
        previous={Number(production.previous)}
        lastYear={Number(production.lastYear)}
        format={format}
      />
      {production.byDay.length > 0 ? (
        <LazyChart config={config} label={t('figures.productionChart')} testId="production-chart" />
      ) : null}
    </FigureCard>
  );
}

function Collections({ figures, financial }: { figures: Figures; financial: Financial }) {
  const { t } = useTranslation(['dashboard', 'payments']);
  const money = useFigureMoney(financial);
  const { byMethod, total } = financial.collections;
  const config = useCallback(
    (colours: ThemeColours): ChartConfiguration => ({
      type: 'doughnut' as const,
      data: {
        labels: byMethod.map((row) => t(`payments:methods.${row.method}`)),
        datasets: [
          {
            data: byMethod.map((row) => Number(row.amount)),
            backgroundColor: byMethod.map((_, index) => colours.series[index % colours.series.length] as string),
            borderWidth: 0,
          },
        ],
      },
      options: { maintainAspectRatio: false, plugins: { legend: { display: false } } },
    }),
    [byMethod, t],
  );
  return (
    <FigureCard card="collections" period={figures.period}>
      <Stat label={t('figures.collected')} testId="collections-total" value={money(total)} />
      {byMethod.length === 0 ? (
        <p className="text-body-secondary small mb-0">{t('figures.noCollections')}</p>
      ) : (
        <div className="dashboard-split">
          <LazyChart config={config} label={t('figures.collectionsChart')} height={120} />
          <AmountList
            rows={byMethod.map((row) => ({
              key: row.method,
              label: <span>{t(`payments:methods.${row.method}`)}</span>,
              amount: money(row.amount),
              testId: 'collection-method',
            }))}
          />
        </div>
      )}
    </FigureCard>
  );
}

function Receivables({ figures, financial }: { figures: Figures; financial: Financial }) {
  const { t } = useTranslation('dashboard');
  const money = useFigureMoney(financial);
  const { receivables } = financial;
  const buckets = ['current', 'days_0_30', 'days_31_60', 'days_61_90', 'days_over_90'] as const;
  const owed = buckets.reduce((sum, bucket) => sum + Number(receivables.aging[bucket]), 0);
  return (
    <FigureCard card="receivables" period={figures.period}>
      <Stat label={t('figures.balance')} value={money(receivables.balance)} />
      <p className="small mb-2">
        {t('figures.overdue')}: <strong data-testid="receivables-overdue">{money(receivables.overdue)}</strong>
      </p>
      {/* Issue 40: what the obras sociales owe. */}
      {Number(receivables.payers.balance) !== 0 ? (
        <p className="small mb-2" data-testid="receivables-payers">
          <Link to="/payer-presentations">{t('figures.payers')}</Link>:{' '}
          <strong>{money(receivables.payers.balance)}</strong>
          {Number(receivables.payers.overdue) !== 0
            ? ` · ${t('figures.overdue')}: ${money(receivables.payers.overdue)}`
            : ''}
        </p>
      ) : null}
      {financial.instalmentsOverdue.count > 0 ? (
        <p className="small mb-2" data-testid="instalments-overdue">
          <Link to="/payment-plans">
            {t('figures.instalmentsOverdue', { count: financial.instalmentsOverdue.count })}
          </Link>
          : <strong>{money(financial.instalmentsOverdue.amount)}</strong>
        </p>
      ) : null}
      {owed > 0 ? (
        <div className="dashboard-aging" role="img" aria-label={t('figures.agingChart')}>
          {buckets.map((bucket) =>
            Number(receivables.aging[bucket]) > 0 ? (
              <span
                key={bucket}
                className={`dashboard-aging-${bucket}`}
                style={{ flexGrow: Number(receivables.aging[bucket]) / owed }}
              />
            ) : null,
          )}
        </div>
      ) : null}
      <dl className="dashboard-facts dashboard-aging-legend">
        {buckets.map((bucket) => (
          <div key={bucket}>
            <dt>
              <span className={`dashboard-dot dashboard-aging-${bucket}`} aria-hidden="true" />
              {t(`figures.aging.${bucket}`)}
            </dt>
            <dd>{money(receivables.aging[bucket])}</dd>
          </div>
        ))}
        {Number(receivables.onAccount) !== 0 ? (
          // Issue 35: the buckets less what was collected on account add up to the balance above.
          <div>
            <dt>{t('figures.onAccount')}</dt>
            <dd data-testid="receivables-on-account">{money(negated(receivables.onAccount))}</dd>
          </div>
        ) : null}
      </dl>
      {receivables.debtors.length > 0 ? (
        <>
          <h3 className="h6 mt-3">{t('figures.debtors')}</h3>
          <AmountList
            rows={receivables.debtors.map((debtor) => ({
              key: debtor.customerId,
              label: (
                <Link to={`/cc-customers/${debtor.customerId}`} className="text-truncate" data-testid="debtor-link">
                  {debtor.name}
                </Link>
              ),
              amount: money(debtor.balance),
            }))}
          />
        </>
      ) : null}
    </FigureCard>
  );
}

function Payables({ figures, financial }: { figures: Figures; financial: Financial }) {
  const { t } = useTranslation('dashboard');
  const money = useFigureMoney(financial);
  const day = useCalendarDateFormat();
  return (
    <FigureCard card="payables" period={figures.period}>
      <Stat label={t('figures.payablesBalance')} testId="payables-balance" value={money(financial.payables.balance)} />
      <dl className="dashboard-facts">
        <div>
          <dt>{t('figures.payablesOverdue')}</dt>
          <dd data-testid="payables-overdue">{money(financial.payables.overdue)}</dd>
        </div>
        <div>
          <dt>{t('figures.payablesWeek', { day: day(financial.payables.weekEnds) })}</dt>
          <dd>{money(financial.payables.dueThisWeek)}</dd>
        </div>
        {Number(financial.payables.onAccount) !== 0 ? (
          <div>
            <dt>{t('figures.payablesOnAccount')}</dt>
            <dd>{money(financial.payables.onAccount)}</dd>
          </div>
        ) : null}
        {financial.payables.settlementsPendingCount > 0 ? (
          <div>
            <dt>{t('figures.settlementsPending', { count: financial.payables.settlementsPendingCount })}</dt>
            <dd data-testid="settlements-pending">{money(financial.payables.settlementsPending)}</dd>
          </div>
        ) : null}
      </dl>
    </FigureCard>
  );
}

/** Issue 40: today's register closings, what they counted and their differences. */
function CashToday({ figures, financial }: { figures: Figures; financial: Financial }) {
  const { t } = useTranslation('dashboard');
  const money = useFigureMoney(financial);
  const { cash } = financial;
  return (
    <FigureCard card="cash" period={figures.period}>
      <Stat label={t('figures.cashCounted')} testId="cash-counted-today" value={money(cash.counted)} />
      <dl className="dashboard-facts">
        <div>
          <dt>{t('figures.cashClosings')}</dt>
          <dd data-testid="cash-closings-today">{cash.closings}</dd>
        </div>
        <div>
          <dt>{t('figures.cashDifferences')}</dt>
          <dd
            data-testid="cash-differences-today"
            className={cash.difference !== '0.00' ? 'text-danger-emphasis' : undefined}
          >
            {money(cash.difference)}
          </dd>
        </div>
        <div>
          <dt>{t('figures.cashOpen')}</dt>
          <dd data-testid="cash-open-now">{cash.openSessions}</dd>
        </div>
      </dl>
    </FigureCard>
  );
}

function TopTreatments({ figures, financial }: { figures: Figures; financial: Financial }) {
  const { t } = useTranslation('dashboard');
  const money = useFigureMoney(financial);
  return (
    <FigureCard card="topTreatments" period={figures.period}>
      {financial.topTreatments.length === 0 ? (
        <p className="text-body-secondary small mb-0">{t('figures.noTreatments')}</p>
      ) : (
        <AmountList
          ordered
          rows={financial.topTreatments.map((treatment, index) => ({
            key: treatment.treatmentId,
            label: (
              <span className="text-truncate">
                <span className="text-body-secondary me-2">{index + 1}.</span>
                {treatment.name}
              </span>
            ),
            amount: money(treatment.amount),
            testId: 'top-treatment',
          }))}
        />
      )}
    </FigureCard>
  );
}

/**
 * A figure card's place while the figures load: its header, body and footer as tall as a card's
 * (styles/_dashboard.scss), so the cards below do not move when the figures arrive (issue 34).
 */
function FigureCardSkeleton() {
  return (
    <div className="card dashboard-card placeholder-glow" aria-hidden="true">
      <div className="card-header">
        <h2 className="h6 mb-0">
          <span className="placeholder col-6" />
        </h2>
      </div>
      <div className="card-body">
        <span className="placeholder col-4 d-block mb-2" />
        <span className="placeholder placeholder-lg col-7 d-block" />
      </div>
      <div className="card-footer small">
        <span className="placeholder col-5" />
      </div>
    </div>
  );
}

const clinicalCards = ['clinical'];
const financialCards = ['production', 'collections', 'clinical', 'receivables', 'payables', 'top-treatments', 'cash'];

/**
 * The period's figures: the clinical ones, then (reports.read) the money. While they load, as many
 * cards as they will show (`financial`: whether the money comes too, as the API decides it) keep
 * their place.
 */
export function PeriodFigures({
  figures,
  pending,
  financial: expectFinancial,
}: {
  figures: Figures | undefined;
  pending: boolean;
  financial: boolean;
}) {
  const { t } = useTranslation('common');
  if (!figures)
    return pending ? (
      <div className="dashboard-figures" data-testid="period-figures-loading">
        <span className="visually-hidden" role="status">
          {t('loading')}
        </span>
        {(expectFinancial ? financialCards : clinicalCards).map((id) => (
          <FigureCardSkeleton key={id} />
        ))}
      </div>
    ) : null;
  const { financial } = figures;
  return (
    <div className="dashboard-figures" data-testid="period-figures">
      {financial ? <Production figures={figures} financial={financial} /> : null}
      {financial ? <Collections figures={figures} financial={financial} /> : null}
      <ClinicalFigures figures={figures} />
      {financial ? <Receivables figures={figures} financial={financial} /> : null}
      {financial ? <Payables figures={figures} financial={financial} /> : null}
      {financial ? <TopTreatments figures={figures} financial={financial} /> : null}
      {financial ? <CashToday figures={figures} financial={financial} /> : null}
    </div>
  );
}
