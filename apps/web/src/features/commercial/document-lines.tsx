import { lineAmounts } from '@odontia/shared/document-totals';
import type { Currency } from '@odontia/shared/enums';
import { BookCheck, PenLine, Trash2 } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldLabel, fieldCodeText, inputClass } from '../../components/form-field';
import { amountsOf, type TypedAmounts } from './line-amounts';
import { useDocumentMoney } from './money-format';
import type { FieldErrors } from './use-document-form';

/** The namespaces whose `fields.*` and `form.*` texts a commercial document's form reads. */
export type DocumentNamespace = 'purchases' | 'sales';

/** The helpers a line's own columns use: ids, classes and messages under `lines.<index>.`. */
export interface LineFieldHelpers {
  id: string;
  control: (name: string) => {
    id: string;
    className: string;
    'aria-invalid': true | undefined;
    'aria-describedby': string | undefined;
  };
  message: (name: string) => ReactNode;
  label: (name: string, text: string, required?: boolean) => ReactNode;
  /** The line's field's path in the errors (`lines.2.unitPrice`). */
  path: (name: string) => string;
}

/** The Bootstrap columns of the four amounts: a domain gives room to its own column. */
export interface AmountColumns {
  quantity: string;
  unitPrice: string;
  discountRate: string;
  vatRate: string;
}

/** What the form gives each of its lines. */
export interface DocumentLineProps<Line> {
  index: number;
  line: Line;
  errors: FieldErrors;
  currency: Currency;
  onChange: (change: Partial<Line>) => void;
  onRemove: (() => void) | undefined;
}

/**
 * One line of a document's form: its concept and its own column (`concept`, `extra`, the domain's),
 * then quantity, unit price, discount and VAT, the line's totals and its remove button.
 */
export function DocumentLineEditor<Line extends TypedAmounts>({
  namespace,
  testId,
  index,
  line,
  errors,
  currency,
  columns,
  onChange,
  onRemove,
  concept,
  extra,
  after,
}: DocumentLineProps<Line> & {
  namespace: DocumentNamespace;
  testId: string;
  columns: AmountColumns;
  concept: (fields: LineFieldHelpers) => ReactNode;
  extra: (fields: LineFieldHelpers) => ReactNode;
  /** The domain's columns after the amounts (a sale line's professional). */
  after?: (fields: LineFieldHelpers) => ReactNode;
}) {
  const { t } = useTranslation(namespace);
  const id = useId();
  const money = useDocumentMoney();
  const amounts = amountsOf(line);
  const computed = amounts ? lineAmounts(amounts) : null;
  const path = (name: string) => `lines.${index}.${name}`;
  const fields: LineFieldHelpers = {
    id,
    path,
    control: (name) => ({
      id: `${id}-${name}`,
      className: `${inputClass(errors[path(name)])} form-control-sm`,
      'aria-invalid': errors[path(name)] ? true : undefined,
      'aria-describedby': errors[path(name)] ? `${id}-${name}-error` : undefined,
    }),
    message: (name) =>
      errors[path(name)] ? (
        <div id={`${id}-${name}-error`} className="invalid-feedback d-block">
          {fieldCodeText(errors[path(name)])}
        </div>
      ) : null,
    label: (name, text, required = false) => (
      <label htmlFor={`${id}-${name}`} className="form-label small mb-1">
        <FieldLabel text={text} required={required} />
      </label>
    ),
  };
  const amount = (name: keyof TypedAmounts, text: string, required: boolean, inputTestId?: string) => (
    <div className={columns[name]}>
      {fields.label(name, text, required)}
      <input
        {...fields.control(name)}
        inputMode="decimal"
        value={line[name]}
        onChange={(event) => onChange({ [name]: event.target.value } as Partial<Line>)}
        data-testid={inputTestId}
      />
      {fields.message(name)}
    </div>
  );
  return (
    <fieldset className="border rounded p-2 row g-2 mx-0" data-testid={testId}>
      <legend className="visually-hidden">{t('form.lineNumber', { n: index + 1 })}</legend>
      <div className="col-12 col-lg-5">{concept(fields)}</div>
      {extra(fields)}
      {amount('quantity', t('fields.quantity'), true, 'line-quantity')}
      {amount('unitPrice', t('fields.unitPrice'), true, 'line-price')}
      {amount('discountRate', t('fields.discountRate'), false)}
      {amount('vatRate', t('fields.vatRate'), true, 'line-vat')}
      {after?.(fields)}
      <div className="col-12 d-flex flex-wrap justify-content-between align-items-center gap-2 small">
        <span className="text-body-secondary" data-testid="line-totals">
          {computed
            ? t('form.lineTotals', {
                subtotal: money(computed.subtotal, currency),
                vat: money(computed.vat, currency),
                total: money(computed.total, currency),
              })
            : t('form.lineIncomplete')}
        </span>
        {onRemove ? (
          <button type="button" className="btn btn-sm btn-outline-danger" onClick={onRemove}>
            <Trash2 size={14} aria-hidden="true" className="me-1" />
            {t('form.removeLine', { n: index + 1 })}
          </button>
        ) : null}
      </div>
    </fieldset>
  );
}

/** Under a line's concept: whether it comes from a list (`listed`, its text and test id) or is free text. */
export function LineOrigin({
  namespace,
  listed,
  listedText,
  listedTestId,
  typed,
}: {
  namespace: DocumentNamespace;
  listed: boolean;
  listedText: string;
  listedTestId: string;
  /** Whether anything is written in the concept. */
  typed: boolean;
}) {
  const { t } = useTranslation(namespace);
  return (
    <div className="mt-1 small">
      {listed ? (
        <span className="badge text-bg-success" data-testid={listedTestId}>
          <BookCheck size={12} aria-hidden="true" className="me-1" />
          {listedText}
        </span>
      ) : typed ? (
        <span className="badge text-bg-warning" data-testid="line-free-text">
          <PenLine size={12} aria-hidden="true" className="me-1" />
          {t('form.freeText')}
        </span>
      ) : null}
    </div>
  );
}
