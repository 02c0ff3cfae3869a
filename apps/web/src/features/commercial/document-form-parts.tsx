import { type ConditionSale, type Currency, conditionsSale, currencies } from '@odontia/shared/enums';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DateInput } from '../../components/date-input';
import { useSessionUser } from '../../session/session';
import type { DocumentDraft } from './document-draft';
import type { DocumentNamespace } from './document-lines';
import type { useDocumentForm } from './use-document-form';

type DocumentForm = ReturnType<typeof useDocumentForm>;

/** What every draft-bound field below takes: the form, the texts' namespace, the value and its setter. */
export interface DraftFieldProps<Value> {
  form: DocumentForm;
  namespace: DocumentNamespace;
  value: Value;
  onChange: (value: Value) => void;
}

/** Binds a document draft's fields to the parts below: `<DocumentDateField {...bind('date')} />`. */
export function draftFieldBinder<Type extends string, Line>(
  form: DocumentForm,
  namespace: DocumentNamespace,
  state: {
    draft: DocumentDraft<Type, Line>;
    set: <K extends keyof DocumentDraft<Type, Line>>(name: K) => (value: DocumentDraft<Type, Line>[K]) => void;
  },
) {
  return <K extends keyof DocumentDraft<Type, Line>>(name: K): DraftFieldProps<DocumentDraft<Type, Line>[K]> => ({
    form,
    namespace,
    value: state.draft[name],
    onChange: state.set(name),
  });
}

/** Point of sale, date, currency and condition: the same fields on a purchase and on a sale. */
export function PointOfServiceField({
  form,
  namespace,
  value,
  onChange,
  hint,
}: DraftFieldProps<string> & { hint?: ReactNode }) {
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

export function DocumentDateField({ form, namespace, value, onChange }: DraftFieldProps<string>) {
  const { t } = useTranslation(namespace);
  return (
    <div className="col-6 col-md-3">
      {form.label('date', t('fields.date'), true)}
      <DateInput {...form.field('date')} name="date" value={value} onChange={(event) => onChange(event.target.value)} />
      {form.message('date')}
    </div>
  );
}

export function DueDateField({ form, namespace, value, onChange }: DraftFieldProps<string>) {
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

/** A select of the draft's choices, each named under `<labels>.<choice>` in the namespace. */
function DraftSelect<Value extends string>({
  form,
  namespace,
  value,
  onChange,
  className,
  testId,
  field,
  required,
  choices,
  labels,
}: DraftFieldProps<Value> & {
  className: string;
  testId?: string;
  field: 'currency' | 'conditionSale';
  required?: boolean;
  choices: readonly Value[];
  labels: 'currencies' | 'conditions';
}) {
  const { t } = useTranslation(namespace);
  return (
    <div className={className}>
      {form.label(field, t(`fields.${field}`), required)}
      <select
        {...form.field(field)}
        className="form-select"
        value={value}
        onChange={(event) => onChange(event.target.value as Value)}
        data-testid={testId}
      >
        {choices.map((choice) => (
          <option key={choice} value={choice}>
            {t(`${labels}.${choice}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

export function CurrencyField(props: DraftFieldProps<Currency> & { className: string }) {
  const clinicCurrency = useSessionUser()?.account.currency;
  return (
    <DraftSelect
      {...props}
      field="currency"
      required
      choices={offeredCurrencies(clinicCurrency, props.value)}
      labels="currencies"
    />
  );
}

export function ConditionField(props: DraftFieldProps<ConditionSale> & { className: string; testId?: string }) {
  return <DraftSelect {...props} field="conditionSale" choices={conditionsSale} labels="conditions" />;
}

/** On a credit note: whether the goods come back (stock moves again). */
export function ReturnsGoodsField(props: DraftFieldProps<boolean> & { className: string; testId?: string }) {
  const { form, value, onChange, className, testId } = props;
  const { t } = useTranslation(props.namespace);
  return (
    <div className={`${className} d-flex align-items-end`}>
      <div className="form-check mb-2">
        <input
          className="form-check-input"
          type="checkbox"
          id={`${form.id}-returnsGoods`}
          checked={value}
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

export function NotesField({ form, namespace, value, onChange }: DraftFieldProps<string>) {
  const { t } = useTranslation(namespace);
  return (
    <div className="col-12">
      {form.label('notes', t('fields.notes'))}
      <textarea {...form.field('notes')} rows={2} value={value} onChange={(event) => onChange(event.target.value)} />
      {form.message('notes')}
    </div>
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
