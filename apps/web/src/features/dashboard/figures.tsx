import type { Currency } from '@odontia/shared/enums';
import { negated } from '@odontia/shared/money';
import type { Dashboard as DashboardFigures } from '@odontia/shared/schemas/dashboard';
import type { ChartConfiguration } from 'chart.js';
import { Banknote, HandCoins, type LucideIcon, Receipt, Stethoscope, TrendingUp, Truck } from 'lucide-react';
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

function FigureCard({
  id,
  title,
  icon: Icon,
  link,
  linkText,
  children,
}: {
  id: string;
  title: string;
  icon: LucideIcon;
  link?: string;
  linkText?: string;
  children: ReactNode;
}) {
  return (
    <section className="card dashboard-card" aria-labelledby={`${id}-title`} data-testid={id}>
      <div className="card-header d-flex align-items-center gap-2">
        <Icon size={18} aria-hidden="true" />
        <h2 id={`${id}-title`} className="h6 mb-0">
          {title}
        </h2>
      </div>
      <div className="card-body">{children}</div>
      {link && linkText ? (
        <div className="card-footer small">
          <Link to={link} data-testid={`${id}-link`}>
            {linkText}
          </Link>
        </div>
      ) : null}
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

function ClinicalFigures({ figures }: { figures: Figures }) {
  const { t, i18n } = useTranslation('dashboard');
  const number = (value: number) => value.toLocaleString(i18n.language);
  const percent = (value: number) =>
    value.toLocaleString(i18n.language, { style: 'percent', maximumFractionDigits: 1 });
  const { attendances, newPatients, returningPatients, appointments } = figures.clinical;
  return (
    <FigureCard
      id="clinical-figures"
      title={t('figures.clinical')}
      icon={Stethoscope}
      link={calendarPath({ date: figures.period.today, book: false })}
      linkText={t('figures.openAgenda')}
    >
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
      </dl>
    </FigureCard>
  );
}

function Production({ figures, financial }: { figures: Figures; financial: Financial }) {
  const { t } = useTranslation('dashboard');
  const money = useDocumentMoney();
  const day = useCalendarDateFormat();
  const format = (value: number) => money(value.toFixed(2), financial.currency as Currency);
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
    <FigureCard
      id="production-figure"
      title={t('figures.production')}
      icon={TrendingUp}
      link={`/sales?dateFrom=${figures.period.from}&dateTo=${figures.period.to}`}
      linkText={t('figures.openSales')}
    >
      <Stat
        label={t('figures.invoicedNet')}
        testId="production-value"
        value={money(production.current, financial.currency as Currency)}
      />
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
  const money = useDocumentMoney();
  const currency = financial.currency as Currency;
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
    <FigureCard
      id="collections-figure"
      title={t('figures.collections')}
      icon={HandCoins}
      link={`/collections?from=${figures.period.from}&to=${figures.period.to}`}
      linkText={t('figures.openCollections')}
    >
      <Stat label={t('figures.collected')} testId="collections-total" value={money(total, currency)} />
      {byMethod.length === 0 ? (
        <p className="text-body-secondary small mb-0">{t('figures.noCollections')}</p>
      ) : (
        <div className="dashboard-split">
          <LazyChart config={config} label={t('figures.collectionsChart')} height={120} />
          <ul className="list-unstyled mb-0 dashboard-list">
            {byMethod.map((row) => (
              <li key={row.method} className="dashboard-list-row" data-testid="collection-method">
                <span>{t(`payments:methods.${row.method}`)}</span>
                <span className="text-nowrap">{money(row.amount, currency)}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </FigureCard>
  );
}

function Receivables({ financial }: { financial: Financial }) {
  const { t } = useTranslation('dashboard');
  const money = useDocumentMoney();
  const currency = financial.currency as Currency;
  const { receivables } = financial;
  const buckets = ['current', 'days_0_30', 'days_31_60', 'days_61_90', 'days_over_90'] as const;
  const owed = buckets.reduce((sum, bucket) => sum + Number(receivables.aging[bucket]), 0);
  return (
    <FigureCard
      id="receivables-figure"
      title={t('figures.receivables')}
      icon={Receipt}
      link="/cc-customers?sort=-overdue"
      linkText={t('figures.openReceivables')}
    >
      <Stat label={t('figures.balance')} value={money(receivables.balance, currency)} />
      <p className="small mb-2">
        {t('figures.overdue')}:{' '}
        <strong data-testid="receivables-overdue">{money(receivables.overdue, currency)}</strong>
      </p>
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
            <dd>{money(receivables.aging[bucket], currency)}</dd>
          </div>
        ))}
        {Number(receivables.onAccount) !== 0 ? (
          // Issue 35: the buckets less what was collected on account add up to the balance above.
          <div>
            <dt>{t('figures.onAccount')}</dt>
            <dd data-testid="receivables-on-account">{money(negated(receivables.onAccount), currency)}</dd>
          </div>
        ) : null}
      </dl>
      {receivables.debtors.length > 0 ? (
        <>
          <h3 className="h6 mt-3">{t('figures.debtors')}</h3>
          <ul className="list-unstyled mb-0 dashboard-list">
            {receivables.debtors.map((debtor) => (
              <li key={debtor.customerId} className="dashboard-list-row">
                <Link to={`/cc-customers/${debtor.customerId}`} className="text-truncate" data-testid="debtor-link">
                  {debtor.name}
                </Link>
                <span className="text-nowrap">{money(debtor.balance, currency)}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </FigureCard>
  );
}

function Payables({ financial }: { financial: Financial }) {
  const { t } = useTranslation('dashboard');
  const money = useDocumentMoney();
  const day = useCalendarDateFormat();
  const currency = financial.currency as Currency;
  return (
    <FigureCard
      id="payables-figure"
      title={t('figures.payables')}
      icon={Truck}
      link="/cc-providers?sort=-overdue"
      linkText={t('figures.openPayables')}
    >
      <Stat
        label={t('figures.payablesBalance')}
        testId="payables-balance"
        value={money(financial.payables.balance, currency)}
      />
      <dl className="dashboard-facts">
        <div>
          <dt>{t('figures.payablesOverdue')}</dt>
          <dd data-testid="payables-overdue">{money(financial.payables.overdue, currency)}</dd>
        </div>
        <div>
          <dt>{t('figures.payablesWeek', { day: day(financial.payables.weekEnds) })}</dt>
          <dd>{money(financial.payables.dueThisWeek, currency)}</dd>
        </div>
        {Number(financial.payables.onAccount) !== 0 ? (
          <div>
            <dt>{t('figures.payablesOnAccount')}</dt>
            <dd>{money(financial.payables.onAccount, currency)}</dd>
          </div>
        ) : null}
      </dl>
    </FigureCard>
  );
}

function TopTreatments({ financial }: { financial: Financial }) {
  const { t } = useTranslation('dashboard');
  const money = useDocumentMoney();
  const currency = financial.currency as Currency;
  return (
    <FigureCard
      id="top-treatments"
      title={t('figures.topTreatments')}
      icon={Banknote}
      link="/price-list"
      linkText={t('figures.openPriceList')}
    >
      {financial.topTreatments.length === 0 ? (
        <p className="text-body-secondary small mb-0">{t('figures.noTreatments')}</p>
      ) : (
        <ol className="list-unstyled mb-0 dashboard-list">
          {financial.topTreatments.map((treatment, index) => (
            <li key={treatment.treatmentId} className="dashboard-list-row" data-testid="top-treatment">
              <span className="text-truncate">
                <span className="text-body-secondary me-2">{index + 1}.</span>
                {treatment.name}
              </span>
              <span className="text-nowrap">{money(treatment.amount, currency)}</span>
            </li>
          ))}
        </ol>
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
const financialCards = ['production', 'collections', 'clinical', 'receivables', 'payables', 'top-treatments'];

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
      {financial ? <Receivables financial={financial} /> : null}
      {financial ? <Payables financial={financial} /> : null}
      {financial ? <TopTreatments financial={financial} /> : null}
    </div>
  );
}
