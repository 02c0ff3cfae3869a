import type { DocumentTotals } from '@odontia/shared/document-totals';
import { type ConditionSale, type Currency, conditionsSale, currencies } from '@odontia/shared/enums';
import { Plus, Save, Stamp } from 'lucide-react';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BusyIcon } from '../../components/busy-icon';
import { DateInput } from '../../components/date-input';
import { fieldCodeText } from '../../components/form-field';
import { useSessionUser } from '../../session/session';
import { useDocumentMoney } from '../purchases/format';
import type { DocumentNamespace } from './document-lines';
import type { useDocumentForm } from './use-document-form';

type DocumentForm = ReturnType<typeof useDocumentForm>;

/** Point of sale, date, currency and condition: the same fields on a purchase and on a sale. */
export function PointOfServiceField({
  form,
  namespace,
  value,
  onChange,
  hint,
}: {
  form: DocumentForm;
  namespace: DocumentNamespace;
  value: string;
  onChange: (value: string) => void;
  hint?: ReactNode;
}) {
  const { t } = useTranslation(namespace);
  return (
    <div className="col-6 col-md-3">
      {form.label('pointOfService', t('fields.pointOfService'), true)}
      <input
        {...form.field('pointOfService')}
        value={value}
        inputMode="numeric"
        onChange={(event) => onChange(event.target.value)}
      />
      {form.message('pointOfService') ?? (hint ? <div className="form-text">{hint}</div> : null)}
    </div>
  );
}

export function DocumentDateField({
  form,
  namespace,
  value,
  onChange,
}: {
  form: DocumentForm;
  namespace: DocumentNamespace;
  value: string;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation(namespace);
  return (
    <div className="col-6 col-md-3">
      {form.label('date', t('fields.date'), true)}
      <DateInput {...form.field('date')} name="date" value={value} onChange={(event) => onChange(event.target.value)} />
      {form.message('date')}
    </div>
  );
}

export function DueDateField({
  form,
  namespace,
  value,
  onChange,
}: {
  form: DocumentForm;
  namespace: DocumentNamespace;
  value: string;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation(namespace);
  return (
    <>
      {form.label('dueDate', t('fields.dueDate'))}
      <DateInput
        {...form.field('dueDate')}
        name="dueDate"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
      {form.message('dueDate') ?? <div className="form-text">{t('form.hints.dueDate')}</div>}
    </>
  );
}

export function CurrencyField({
  form,
  namespace,
  value,
  onChange,
  className,
}: {
  form: DocumentForm;
  namespace: DocumentNamespace;
  value: Currency;
  onChange: (value: Currency) => void;
  className: string;
}) {
  const { t } = useTranslation(namespace);
  const clinicCurrency = useSessionUser()?.account.currency;
  return (
    <div className={className}>
      {form.label('currency', t('fields.currency'), true)}
      <select
        {...form.field('currency')}
        className="form-select"
        value={value}
        onChange={(event) => onChange(event.target.value as Currency)}
      >
        {offeredCurrencies(clinicCurrency, value).map((currency) => (
          <option key={currency} value={currency}>
            {t(`currencies.${currency}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

export function ConditionField({
  form,
  namespace,
  value,
  onChange,
  className,
  testId,
}: {
  form: DocumentForm;
  namespace: DocumentNamespace;
  value: ConditionSale;
  onChange: (value: ConditionSale) => void;
  className: string;
  testId?: string;
}) {
  const { t } = useTranslation(namespace);
  return (
    <div className={className}>
      {form.label('conditionSale', t('fields.conditionSale'))}
      <select
        {...form.field('conditionSale')}
        className="form-select"
        value={value}
        onChange={(event) => onChange(event.target.value as ConditionSale)}
        data-testid={testId}
      >
        {conditionsSale.map((condition) => (
          <option key={condition} value={condition}>
            {t(`conditions.${condition}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** On a credit note: whether the goods come back (stock moves again). */
export function ReturnsGoodsField({
  form,
  namespace,
  checked,
  onChange,
  className,
  testId,
}: {
  form: DocumentForm;
  namespace: DocumentNamespace;
  checked: boolean;
  onChange: (checked: boolean) => void;
  className: string;
  testId?: string;
}) {
  const { t } = useTranslation(namespace);
  return (
    <div className={`${className} d-flex align-items-end`}>
      <div className="form-check mb-2">
        <input
          className="form-check-input"
          type="checkbox"
          id={`${form.id}-returnsGoods`}
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          data-testid={testId}
        />
        <label className="form-check-label" htmlFor={`${form.id}-returnsGoods`}>
          {t('fields.returnsGoods')}
        </label>
      </div>
    </div>
  );
}

export function NotesField({
  form,
  namespace,
  value,
  onChange,
}: {
  form: DocumentForm;
  namespace: DocumentNamespace;
  value: string;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation(namespace);
  return (
    <div className="col-12">
      {form.label('notes', t('fields.notes'))}
      <textarea {...form.field('notes')} rows={2} value={value} onChange={(event) => onChange(event.target.value)} />
      {form.message('notes')}
    </div>
  );
}

/** The lines' card: its title, "add a line", the lines' own message and the lines (`children`). */
export function DocumentLinesCard({
  namespace,
  onAdd,
  error,
  before,
  children,
}: {
  namespace: DocumentNamespace;
  onAdd: () => void;
  /** The message on the lines as a whole (none, too many). */
  error: string | undefined;
  /** What stands above the message (a sale's budget: the odontogram's treatments). */
  before?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation(namespace);
  return (
    <section className="card">
      <div className="card-header fw-semibold d-flex justify-content-between align-items-center">
        <span>{t('form.sections.lines')}</span>
        <button type="button" className="btn btn-sm btn-outline-primary" onClick={onAdd} data-testid="add-line">
          <Plus size={14} aria-hidden="true" className="me-1" />
          {t('form.addLine')}
        </button>
      </div>
      <div className="card-body d-flex flex-column gap-3">
        {before}
        {error ? (
          <div className="text-danger small" role="alert">
            {fieldCodeText(error)}
          </div>
        ) : null}
        {children}
      </div>
    </section>
  );
}

/** The totals as the lines add up (subtotals, VAT by rate, total) and the form's buttons (`children`). */
export function DocumentTotalsCard({
  namespace,
  totals,
  currency,
  testId,
  className = '',
  children,
}: {
  namespace: DocumentNamespace;
  totals: DocumentTotals;
  currency: Currency;
  testId: string;
  className?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation(namespace);
  const money = useDocumentMoney();
  const row = (text: string, amount: string) => (
    <>
      <dt className="col-7 col-md-9 text-md-end fw-normal">{text}</dt>
      <dd className="col-5 col-md-3 text-end mb-1">{money(amount, currency)}</dd>
    </>
  );
  return (
    <section className="card">
      <div className="card-body">
        <dl className={`row mb-0${className ? ` ${className}` : ''}`} data-testid={testId}>
          {row(t('fields.subtotal1'), totals.subtotal1)}
          {row(t('fields.discountTotal'), totals.discountTotal)}
          {row(t('fields.subtotal2'), totals.subtotal2)}
          {totals.vatBreakdown.map((share) => (
            // A fragment, not a wrapper: the row's gutters apply to direct children only.
            <Fragment key={share.rate}>
              {row(t('form.vatAt', { rate: Number(share.rate).toString() }), share.vat)}
            </Fragment>
          ))}
          {/* Half and half on phones: the total, in a larger font, on one line. */}
          <dt className="col-6 col-md-9 text-md-end">{t('fields.total')}</dt>
          <dd className="col-6 col-md-3 text-end text-nowrap mb-0 fw-bold fs-5" data-testid="form-total">
            {money(totals.total, currency)}
          </dd>
        </dl>
      </div>
      <div className="card-footer d-flex flex-wrap gap-2 justify-content-end">{children}</div>
    </section>
  );
}

/**
 * The form's buttons: back without saving, save as a draft, and the step that makes the document
 * count (`final`: a purchase's "register", a sale's "issue"; none when the user may not take it).
 */
export function DocumentFormActions({
  namespace,
  cancelTo,
  pending,
  finalising,
  final,
}: {
  namespace: DocumentNamespace;
  cancelTo: string;
  pending: boolean;
  /** Whether the save under way is the final step (its button spins, not the draft's). */
  finalising: boolean;
  final: { text: string; testId: string; onClick: () => void } | null;
}) {
  const { t } = useTranslation(namespace);
  return (
    <>
      <Link to={cancelTo} className="btn btn-outline-secondary">
        {t('form.cancel')}
      </Link>
      <button type="submit" className="btn btn-outline-primary" disabled={pending} data-testid="save-draft">
        <BusyIcon busy={pending && !finalising} icon={Save} />
        {t('form.saveDraft')}
      </button>
      {final ? (
        <button
          type="button"
          className="btn btn-primary"
          disabled={pending}
          onClick={final.onClick}
          data-testid={final.testId}
        >
          <BusyIcon busy={pending && finalising} icon={Stamp} />
          {final.text}
        </button>
      ) : null}
    </>
  );
}

/**
 * Issue 35: documents and payments are in the clinic's currency only, so a form offers that one
 * (and a stored draft's own, when an old one differs, so the select shows what it holds; saving it
 * answers currency_not_clinic). Every currency only before the session is known.
 */
export function offeredCurrencies(clinicCurrency: Currency | undefined, value: string): readonly Currency[] {
  if (!clinicCurrency) return currencies;
  return currencies.filter((currency) => currency === clinicCurrency || currency === value);
}
