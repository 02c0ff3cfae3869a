import type { Currency } from '@odontia/shared/enums';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DocumentSideBase } from './document-side';
import { useDocumentMoney } from './money-format';
import type { useDocumentForm } from './use-document-form';

type DocumentForm = ReturnType<typeof useDocumentForm>;

/** A candidate for the related document: one of the party's documents that counts. */
export interface RelatedOption {
  id: string;
  documentType: string;
  number: string;
  date: string;
  total: string;
  currency: Currency;
}

/**
 * The document this one corrects, bills, receives or comes from, among the party's documents that
 * count (`options`); `stored` is the one the document already holds when it is not among them.
 */
export function RelatedDocumentField({
  side,
  form,
  className,
  label,
  required,
  value,
  onChange,
  partyPicked,
  pickPartyFirst,
  stored,
  options,
  hint,
}: {
  side: DocumentSideBase;
  form: DocumentForm;
  className: string;
  label: string;
  required: boolean;
  value: string;
  onChange: (value: string) => void;
  partyPicked: boolean;
  pickPartyFirst: string;
  stored: { id: string; text: string } | null;
  options: RelatedOption[];
  hint?: string;
}) {
  const { t } = useTranslation(side.namespace);
  const money = useDocumentMoney();
  return (
    <div className={className}>
      {form.label('relatedDocumentId', label, required)}
      <select
        {...form.field('relatedDocumentId')}
        className={`form-select${form.errors.relatedDocumentId ? ' is-invalid' : ''}`}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        disabled={!partyPicked}
        data-testid="related-select"
      >
        <option value="">{partyPicked ? t('form.noRelated') : pickPartyFirst}</option>
        {stored && !options.some((option) => option.id === stored.id) ? (
          <option value={stored.id}>{stored.text}</option>
        ) : null}
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {t(`types.${option.documentType}`)} {option.number} · {option.date} · {money(option.total, option.currency)}
          </option>
        ))}
      </select>
      {form.message('relatedDocumentId') ?? (hint ? <div className="form-text">{hint}</div> : null)}
    </div>
  );
}

/** The party's field: its label, the side's picker (given its id and error state), its message. */
export function DocumentPartyField({
  form,
  name,
  label,
  picker,
  after,
}: {
  form: DocumentForm;
  /** `customerId`, `providerId`: the request's field the errors come back on. */
  name: string;
  label: string;
  picker: (field: { id: string; invalid: boolean; describedBy: string | undefined }) => ReactNode;
  after?: ReactNode;
}) {
  const error = form.errors[name];
  return (
    <>
      {form.label(name, label, true)}
      {picker({
        id: `${form.id}-${name}`,
        invalid: Boolean(error),
        describedBy: error ? `${form.id}-${name}-error` : undefined,
      })}
      {form.message(name)}
      {after}
    </>
  );
}
