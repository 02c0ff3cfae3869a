import { type PaymentMethod, paymentMethods } from '@odontia/shared/enums';
import { maxCollectionParts } from '@odontia/shared/schemas/collections';
import { Plus, Split, Trash2 } from 'lucide-react';
import type { Dispatch, SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldLabel, fieldCodeText, inputClass } from '../../components/form-field';
import { fromCents, toCents, useCurrencyFormat } from '../commercial/money-format';

/** A part of a collection as typed: its method, its amount ("12.500,50") and operation number. */
export interface PartDraft {
  method: string;
  amount: string;
  transactionNumber: string;
}

/** Cents of what the parts leave unassigned of the amount (negative: they add up to more). */
export function partsRemainderCents(amount: string, parts: PartDraft[]): number {
  const total = toCents(amount || '0');
  const assigned = parts.reduce((sum, part) => {
    const cents = toCents(part.amount || '0');
    return sum + (Number.isNaN(cents) ? 0 : cents);
  }, 0);
  return (Number.isNaN(total) ? 0 : total) - assigned;
}

/**
 * The methods of a collection split in parts (issue 35): cash + card on one receipt. Each part has
 * its method, amount and operation number; the parts add up to the amount (what is left to assign
 * is said as it changes). Native controls with labels, so the keyboard and a screen reader use them.
 */
export function CollectionParts({
  id,
  amount,
  currency,
  parts,
  error,
  onChange,
}: {
  id: string;
  amount: string;
  currency: string;
  parts: PartDraft[];
  error: string | undefined;
  onChange: (parts: PartDraft[]) => void;
}) {
  const { t } = useTranslation(['collections', 'payments']);
  const money = useCurrencyFormat();
  const remainder = partsRemainderCents(amount, parts);
  const setPart = (index: number, change: Partial<PartDraft>) =>
    onChange(parts.map((part, at) => (at === index ? { ...part, ...change } : part)));
  const add = () =>
    onChange([
      ...parts,
      {
        method: paymentMethods.find((method) => !parts.some((part) => part.method === method)) ?? 'cash_payment',
        amount: remainder > 0 ? fromCents(remainder) : '',
        transactionNumber: '',
      },
    ]);
  return (
    <fieldset
      className="col-12 border rounded p-2"
      data-testid="collection-parts"
      aria-describedby={`${id}-parts-left`}
    >
      <legend className="fs-6 fw-semibold float-none w-auto px-1 mb-1">{t('collections:parts.title')}</legend>
      <div className="d-flex flex-column gap-2">
        {parts.map((part, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a part is its place in the list.
          <div key={index} className="row g-2 align-items-end" data-testid="collection-part">
            <div className="col-12 col-md-4">
              <label htmlFor={`${id}-part-${index}-method`} className="form-label small mb-1">
                <FieldLabel text={t('collections:parts.method', { n: index + 1 })} required />
              </label>
              <select
                id={`${id}-part-${index}-method`}
                className="form-select form-select-sm"
                value={part.method}
                data-testid="collection-part-method"
                onChange={(event) => setPart(index, { method: event.target.value as PaymentMethod })}
              >
                {paymentMethods.map((method) => (
                  <option key={method} value={method}>
                    {t(`payments:methods.${method}`)}
                  </option>
                ))}
              </select>
            </div>
            <div className="col-6 col-md-3">
              <label htmlFor={`${id}-part-${index}-amount`} className="form-label small mb-1">
                <FieldLabel text={t('collections:parts.amount', { n: index + 1 })} required />
              </label>
              <input
                id={`${id}-part-${index}-amount`}
                className={`${inputClass(undefined)} form-control-sm text-end`}
                inputMode="decimal"
                autoComplete="off"
                value={part.amount}
                data-testid="collection-part-amount"
                onChange={(event) => setPart(index, { amount: event.target.value })}
              />
            </div>
            <div className="col-6 col-md-3">
              <label htmlFor={`${id}-part-${index}-transaction`} className="form-label small mb-1">
                {t('collections:parts.transaction', { n: index + 1 })}
              </label>
              <input
                id={`${id}-part-${index}-transaction`}
                className="form-control form-control-sm"
                autoComplete="off"
                maxLength={60}
                value={part.transactionNumber}
                onChange={(event) => setPart(index, { transactionNumber: event.target.value })}
              />
            </div>
            <div className="col-12 col-md-2">
              <button
                type="button"
                className="btn btn-sm btn-outline-danger w-100"
                onClick={() => onChange(parts.filter((_, at) => at !== index))}
                data-testid="collection-part-remove"
              >
                <Trash2 size={14} aria-hidden="true" className="me-1" />
                {t('collections:parts.remove', { n: index + 1 })}
              </button>
            </div>
          </div>
        ))}
      </div>
      <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mt-2">
        <button
          type="button"
          className="btn btn-sm btn-outline-primary"
          onClick={add}
          disabled={parts.length >= maxCollectionParts}
          data-testid="collection-part-add"
        >
          <Plus size={14} aria-hidden="true" className="me-1" />
          {t('collections:parts.add')}
        </button>
        <output
          id={`${id}-parts-left`}
          aria-live="polite"
          className={`small fw-semibold ${remainder === 0 ? 'text-success-emphasis' : 'text-danger-emphasis'}`}
          data-testid="collection-parts-left"
        >
          {remainder >= 0
            ? t('collections:parts.left', { amount: money(fromCents(remainder), currency) })
            : t('collections:parts.over', { amount: money(fromCents(-remainder), currency) })}
        </output>
      </div>
      {error ? (
        <div className="invalid-feedback d-block" data-testid="collection-parts-error">
          {fieldCodeText(error)}
        </div>
      ) : null}
    </fieldset>
  );
}

/** "Dividir en varias formas de pago": the button that turns one method into parts. */
export function SplitMethodsButton({ onSplit }: { onSplit: () => void }) {
  const { t } = useTranslation('collections');
  return (
    <div className="col-12">
      <button
        type="button"
        className="btn btn-sm btn-outline-secondary"
        onClick={onSplit}
        data-testid="collection-split"
      >
        <Split size={14} aria-hidden="true" className="me-1" />
        {t('parts.split')}
      </button>
    </div>
  );
}

/** The draft's methods split in parts and back: split starts with the method so far and another. */
export function splitMethods<
  D extends { method: string; amount: string; transactionNumber: string; parts?: PartDraft[] },
>(setDraft: Dispatch<SetStateAction<D>>) {
  return {
    setParts: (next: PartDraft[]) =>
      setDraft((current) =>
        // One part left: one method again, the whole amount's.
        next.length === 1
          ? {
              ...current,
              method: next[0]?.method ?? current.method,
              transactionNumber: next[0]?.transactionNumber ?? '',
              parts: [],
            }
          : { ...current, parts: next },
      ),
    split: () =>
      setDraft((current) => ({
        ...current,
        parts: [
          { method: current.method, amount: current.amount, transactionNumber: current.transactionNumber },
          {
            method: current.method === 'credit_card' ? 'cash_payment' : 'credit_card',
            amount: '',
            transactionNumber: '',
          },
        ],
      })),
  };
}
