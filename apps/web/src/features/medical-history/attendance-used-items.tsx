import type { AllergyMatch } from '@odontia/shared/allergies';
import { Boxes, Trash2 } from 'lucide-react';
import { useId } from 'react';
import type { FieldErrors, UseFieldArrayReturn, UseFormRegister, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../components/form-feedback';
import { describedField, fieldCodeText, inputClass } from '../../components/form-field';
import { IconButton } from '../../components/icon-button';
import { useNumberFormat } from '../inventory/format';
import { AllergyWarning } from '../patients/allergy-warning';
import { Section } from './attendance-billing';
import type { AttendanceValues } from './attendance-values';
import { ItemSearch, type PickedItem } from './item-picker';

export interface ShortItem {
  name: string;
  available: number;
  requested: number;
}

export function UsedItems({
  kind,
  fields,
  register,
  errors,
  onAdd,
  onRemove,
  allergyOf,
}: {
  kind: 'supply' | 'medication';
  fields: (PickedItem & { id: string })[];
  register: UseFormRegister<AttendanceValues>;
  errors: FieldErrors<AttendanceValues>;
  onAdd: (item: PickedItem) => void;
  onRemove: (index: number) => void;
  /** The patient's allergy check (medicines only). */
  allergyOf?: (medicine: string) => AllergyMatch | null;
}) {
  const { t } = useTranslation('clinical');
  const id = useId();
  const number = useNumberFormat();
  const list = kind === 'supply' ? 'supplies' : 'medications';
  const listErrors = errors[list];
  return (
    <div className="used-items" data-testid={`used-${list}`}>
      <h3 className="h6">{t(`fields.${list}`)}</h3>
      <ItemSearch kind={kind} exclude={fields.map((field) => field.itemId)} onPick={onAdd} />
      {fields.length === 0 ? (
        <p className="small text-body-secondary mt-2 mb-0">{t('attendance.noItems')}</p>
      ) : (
        <ul className="list-unstyled used-items-list mt-2 mb-0">
          {fields.map((field, index) => {
            const message = listErrors?.[index]?.quantity?.message ?? listErrors?.[index]?.itemId?.message;
            const inputId = `${id}-${index}`;
            const allergy = allergyOf?.(field.name) ?? null;
            return (
              <li key={field.id} className="used-item" data-testid="used-item" data-name={field.name}>
                <label htmlFor={inputId} className="used-item-name">
                  <span className="fw-semibold">{field.name}</span>
                  {field.available !== null ? (
                    <span className="small text-body-secondary d-block">
                      {t('attendance.available', { count: field.available, formatted: number(field.available) })}
                    </span>
                  ) : null}
                </label>
                <input
                  {...register(`${list}.${index}.quantity` as const)}
                  {...describedField(inputId, message)}
                  className={`${inputClass(message)} used-item-quantity`}
                  inputMode="numeric"
                  aria-label={`${t('fields.quantity')}: ${field.name}`}
                />
                <IconButton
                  icon={Trash2}
                  label={t('attendance.remove', { name: field.name })}
                  onClick={() => onRemove(index)}
                  className="btn btn-sm btn-outline-danger"
                  size={14}
                />
                {message ? (
                  <div id={`${inputId}-error`} className="invalid-feedback d-block used-item-error">
                    {fieldCodeText(message)}
                  </div>
                ) : null}
                {allergy ? (
                  <div className="used-item-error">
                    <AllergyWarning match={allergy} />
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

/** What the stock could not give when the attendance was saved: each item, what there is and what was asked. */
export function InsufficientStock({ items }: { items: ShortItem[] }) {
  const { t } = useTranslation('clinical');
  if (items.length === 0) return null;
  return (
    <FormAlert testId="insufficient-stock">
      {items.map((item) => (
        <div key={item.name}>
          {t('attendance.insufficient', { name: item.name, available: item.available, requested: item.requested })}
        </div>
      ))}
    </FormAlert>
  );
}

/** The attendance's supplies and medicines (taken from stock when saved); a medicine is checked against allergies. */
export function StockUsed({
  form,
  supplies,
  medications,
  allergyOf,
}: {
  form: UseFormReturn<AttendanceValues>;
  supplies: UseFieldArrayReturn<AttendanceValues, 'supplies'>;
  medications: UseFieldArrayReturn<AttendanceValues, 'medications'>;
  allergyOf: (name: string) => AllergyMatch | null;
}) {
  const { t } = useTranslation('clinical');
  return (
    <Section title={t('attendance.sections.stock')} icon={<Boxes size={18} aria-hidden="true" />} testId="stock-used">
      <p className="small text-body-secondary">{t('attendance.stockHint')}</p>
      <div className="row g-4">
        {[
          { kind: 'supply' as const, list: supplies },
          { kind: 'medication' as const, list: medications, allergyOf },
        ].map(({ kind, list, ...check }) => (
          <div key={kind} className="col-lg-6">
            <UsedItems
              kind={kind}
              fields={list.fields}
              register={form.register}
              errors={form.formState.errors}
              onAdd={(item) => list.append(item)}
              onRemove={(index) => list.remove(index)}
              {...check}
            />
          </div>
        ))}
      </div>
    </Section>
  );
}
