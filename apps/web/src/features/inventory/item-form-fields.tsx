import type { InventoryKind } from '@odontia/shared/enums';
import type { ReactNode } from 'react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { describedField, FormField, inputClass } from '../../components/form-field';
import { IconCard } from '../../components/icon-card';
import { SwitchField } from '../../components/switch-field';
import { itemPath } from './api';
import type { ItemFormValues } from './item-form-values';

/**
 * The inventory item form's fields, each in its grid column: its label (`fields.<name>`), control,
 * hint and message tied together. `options` lists an enum's values as <option>s.
 */
export function useItemFields(
  register: UseFormRegister<ItemFormValues>,
  errors: FieldErrors<ItemFormValues>,
  fieldId: (name: string) => string,
) {
  const { t } = useTranslation(['inventory', 'common']);
  const messageOf = (name: keyof ItemFormValues) => errors[name]?.message;

  /** A text, number or money input in a grid column. */
  const input = (
    name: keyof ItemFormValues,
    options: {
      col?: string;
      hint?: string;
      inputMode?: 'decimal' | 'numeric' | 'text';
      suffix?: string;
      after?: ReactNode;
      required?: boolean;
    } = {},
  ) => {
    const message = messageOf(name);
    const control = (
      <input
        {...register(name)}
        {...describedField(fieldId(name), message, Boolean(options.hint))}
        className={inputClass(message)}
        inputMode={options.inputMode}
        autoComplete="off"
        aria-required={options.required || undefined}
      />
    );
    return (
      <div className={options.col ?? 'col-md-6'} key={name}>
        <FormField
          id={fieldId(name)}
          label={
            <>
              {t(`fields.${name}`)}
              {options.required ? (
                <span className="text-danger ms-1" aria-hidden="true">
                  *
                </span>
              ) : null}
            </>
          }
          error={message}
          hint={options.hint}
          className="mb-0"
        >
          {options.suffix ? (
            <div className={`input-group${message ? ' has-validation' : ''}`}>
              {control}
              <span className="input-group-text">{options.suffix}</span>
            </div>
          ) : (
            control
          )}
        </FormField>
        {options.after}
      </div>
    );
  };

  const textarea = (name: keyof ItemFormValues, col = 'col-12') => {
    const message = messageOf(name);
    return (
      <div className={col} key={name}>
        <FormField id={fieldId(name)} label={t(`fields.${name}`)} error={message} className="mb-0">
          <textarea
            {...register(name)}
            {...describedField(fieldId(name), message)}
            className={inputClass(message)}
            rows={2}
          />
        </FormField>
      </div>
    );
  };

  const select = (name: keyof ItemFormValues, options: ReactNode, col = 'col-md-6') => {
    const message = messageOf(name);
    return (
      <div className={col} key={name}>
        <FormField id={fieldId(name)} label={t(`fields.${name}`)} error={message} className="mb-0">
          <select
            {...register(name)}
            {...describedField(fieldId(name), message)}
            className={`form-select${message ? ' is-invalid' : ''}`}
          >
            {options}
          </select>
        </FormField>
      </div>
    );
  };

  const checkbox = (name: 'prescriptionRequired' | 'consumable', hint: string) => (
    <div className="col-md-6 d-flex align-items-end" key={name}>
      <SwitchField id={fieldId(name)} label={t(`fields.${name}`)} hint={hint} className="mb-2" input={register(name)} />
    </div>
  );

  /** An enum's values as options labelled `<group>.<value>`, after an empty one when `none` names it. */
  const options = (values: readonly string[], group: string, none?: string) => (
    <>
      {none === undefined ? null : <option value="">{none}</option>}
      {values.map((value) => (
        <option key={value} value={value}>
          {t(`${group}.${value}`)}
        </option>
      ))}
    </>
  );

  return { input, textarea, select, checkbox, options };
}

/** A new item named as one already in the catalogue (but for accents and case): open it, or create anyway. */
export function SimilarNameAlert({
  kind,
  similar,
  pending,
  onCreateAnyway,
}: {
  kind: InventoryKind;
  similar: { id: string; name: string };
  pending: boolean;
  onCreateAnyway: () => void;
}) {
  const { t } = useTranslation(['inventory', 'common']);
  return (
    <div className="alert alert-warning mt-3" role="alert" data-testid="inventory-similar-name">
      <p className="mb-2">{t('form.similarName', { name: similar.name })}</p>
      <div className="d-flex flex-wrap gap-2">
        <Link to={itemPath(kind, similar.id)} className="btn btn-sm btn-outline-dark">
          {t('form.openExisting')}
        </Link>
        <button type="button" className="btn btn-sm btn-warning" disabled={pending} onClick={onCreateAnyway}>
          {t(`form.createAnyway.${kind}`)}
        </button>
      </div>
    </div>
  );
}

/** A card of the item form. */
export function FormCard(props: { title: string; icon: ReactNode; children: ReactNode }) {
  return <IconCard {...props} className="inventory-form-card h-100" grid />;
}

/** An SKU or bar code already in use: which field, and the item that has it. */
export interface Duplicate {
  field: 'sku' | 'barCode';
  existingId: string;
  existingKind: InventoryKind;
}

/** Under the field in use, the link to the item that has it. */
export function DuplicateLink({ duplicate, field }: { duplicate: Duplicate | null; field: Duplicate['field'] }) {
  const { t } = useTranslation('inventory');
  if (duplicate?.field !== field) return null;
  return (
    <Link
      to={itemPath(duplicate.existingKind, duplicate.existingId)}
      className="small d-inline-block mt-1"
      data-testid="duplicate-link"
    >
      {t('form.openExisting')}
    </Link>
  );
}
