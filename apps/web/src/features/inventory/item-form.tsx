import '../../lib/zod-setup';
import {
  ageGroups,
  applicationTypes,
  approvalTransitions,
  type InventoryKind,
  productStatuses,
  unitMeasurements,
} from '@odontia/shared/enums';
import type { InventoryItem } from '@odontia/shared/schemas/inventory';
import { Boxes, FlaskConical, Info, Package, Receipt, Save } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { type Resolver, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { BusyIcon } from '../../components/busy-icon';
import { describedField, FormField, inputClass } from '../../components/form-field';
import { IconCard } from '../../components/icon-card';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { formResolver, useFormErrors } from '../../lib/form-errors';
import { isApiError } from '../../lib/http';
import { type ItemAnswer, itemPath, kindPaths, useSaveItem } from './api';
import { useMoneyFormat } from './format';
import {
  fieldNames,
  formValuesOf,
  type ItemFormValues,
  livePriceWithTax,
  schemaFor,
  startingApprovals,
} from './item-form-values';

function FormCard(props: { title: string; icon: ReactNode; children: ReactNode }) {
  return <IconCard {...props} className="inventory-form-card h-100" grid />;
}

interface Duplicate {
  field: 'sku' | 'barCode';
  existingId: string;
  existingKind: InventoryKind;
}

/**
 * Create or edit a medicine or a supply: every field of the contract in cards, validated with the
 * shared schema; server field errors, duplicates (with a link to the existing item) and a stale
 * save (someone else changed it: the current values are loaded again) shown where they belong.
 * `readOnly`: a level without inventory.write sees the item but cannot save.
 */
export function ItemForm({
  kind,
  item,
  readOnly = false,
  onConflict,
}: {
  kind: InventoryKind;
  item: InventoryItem | null;
  readOnly?: boolean;
  /** A stale save: reload the item (the page remounts the form with the current values). */
  onConflict?: () => Promise<void>;
}) {
  const { t } = useTranslation(['inventory', 'common']);
  const id = useId();
  const navigate = useNavigate();
  const money = useMoneyFormat();
  const editing = item !== null;
  const save = useSaveItem(kind, item?.id);
  const [duplicate, setDuplicate] = useState<Duplicate | null>(null);
  // A new item named as one of the catalogue but for accents and case: shown, and created only if asked again.
  const [similar, setSimilar] = useState<{ id: string; name: string; values: ItemFormValues } | null>(null);
  const formErrors = useFormErrors();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    control,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<ItemFormValues>({
    resolver: formResolver(schemaFor(kind, editing)) as unknown as Resolver<ItemFormValues>,
    defaultValues: formValuesOf(item),
  });
  const [basePrice, taxRate] = useWatch({ control, name: ['basePrice', 'taxRate'] });
  const withTax = livePriceWithTax(basePrice ?? '', taxRate ?? '');
  const medication = kind === 'medication';
  // On the edit page, only the allowed next approval statuses (and the current one).
  const approvalOptions =
    editing && item.approvalStatus
      ? [item.approvalStatus, ...approvalTransitions[item.approvalStatus]]
      : startingApprovals;

  const submit = async (values: ItemFormValues, allowSimilarName = false) => {
    setDuplicate(null);
    setSimilar(null);
    try {
      // `values` went through the schema's transforms: the request body as the contract wants it.
      const answer: ItemAnswer = await save.mutateAsync(allowSimilarName ? { ...values, allowSimilarName } : values);
      if (answer.code) toastSuccess(answer.code);
      if (editing) reset(formValuesOf(answer.data));
      else void navigate(itemPath(kind, answer.data.id), { replace: true });
    } catch (error) {
      if (!isApiError(error)) {
        toastApiError(error);
        return;
      }
      if (error.code === 'version_conflict' && onConflict) {
        await onConflict();
        return;
      }
      if (error.code === 'inventory_similar_name') {
        const details = error.details as { existingId?: string; name?: string } | undefined;
        if (details?.existingId) setSimilar({ id: details.existingId, name: details.name ?? '', values });
        return;
      }
      if (error.code === 'duplicate_sku' || error.code === 'duplicate_barcode') {
        const field = error.code === 'duplicate_sku' ? 'sku' : 'barCode';
        const details = error.details as { existingId?: string; existingKind?: InventoryKind } | undefined;
        setError(field, { type: 'server', message: error.code });
        if (details?.existingId && details.existingKind) {
          setDuplicate({ field, existingId: details.existingId, existingKind: details.existingKind });
        }
        formErrors.reveal();
        return;
      }
      if (
        !formErrors.place(error, setError, {
          fields: fieldNames,
          codeFields: { invalid_transition: 'approvalStatus' },
        })
      ) {
        toastApiError(error);
      }
    }
  };
  const onSubmit = handleSubmit(
    (values) => submit(values),
    () => {
      // A new mistake replaces the last answer: no stale message beside it.
      setDuplicate(null);
      formErrors.onInvalid();
    },
  );

  const fieldId = (name: string) => `${id}-${name}`;
  const messageOf = (name: keyof ItemFormValues) => errors[name]?.message;

  const duplicateLink = (field: Duplicate['field']) =>
    duplicate?.field === field ? (
      <Link
        to={itemPath(duplicate.existingKind, duplicate.existingId)}
        className="small d-inline-block mt-1"
        data-testid="duplicate-link"
      >
        {t('form.openExisting')}
      </Link>
    ) : null;

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
      <div className="form-check form-switch mb-2">
        <input {...register(name)} id={fieldId(name)} type="checkbox" className="form-check-input" />
        <label htmlFor={fieldId(name)} className="form-check-label">
          {t(`fields.${name}`)}
          <span className="d-block small text-body-secondary">{hint}</span>
        </label>
      </div>
    </div>
  );

  return (
    <form
      ref={formErrors.ref}
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      data-testid="inventory-form"
      data-kind={kind}
    >
      <fieldset disabled={readOnly || isSubmitting} className="inventory-form">
        <div className="row g-4">
          <div className="col-12 col-xl-6">
            <FormCard title={t('form.sections.general')} icon={<Info size={18} aria-hidden="true" />}>
              {input('name', { col: 'col-12', required: true })}
              {input('manufacturer')}
              {select(
                'productStatus',
                productStatuses.map((status) => (
                  <option key={status} value={status}>
                    {t(`productStatuses.${status}`)}
                  </option>
                )),
              )}
              {input('sku', { hint: t('form.hints.sku'), after: duplicateLink('sku') })}
              {input('barCode', { hint: t('form.hints.barCode'), after: duplicateLink('barCode') })}
              {textarea('description')}
            </FormCard>
          </div>
          <div className="col-12 col-xl-6">
            {medication ? (
              <FormCard title={t('form.sections.pharmacology')} icon={<FlaskConical size={18} aria-hidden="true" />}>
                {input('activePrinciple')}
                {input('concentration', { hint: t('form.hints.concentration') })}
                {input('presentation', { hint: t('form.hints.presentation') })}
                {select(
                  'applicationType',
                  <>
                    <option value="">{t('form.notSet')}</option>
                    {applicationTypes.map((type) => (
                      <option key={type} value={type}>
                        {t(`applicationTypes.${type}`)}
                      </option>
                    ))}
                  </>,
                )}
                {select(
                  'approvalStatus',
                  approvalOptions.map((status) => (
                    <option key={status} value={status}>
                      {t(`approvalStatuses.${status}`)}
                    </option>
                  )),
                )}
                {select(
                  'ageRestriction',
                  <>
                    <option value="">{t('ageGroups.none')}</option>
                    {ageGroups.map((group) => (
                      <option key={group} value={group}>
                        {t(`ageGroups.${group}`)}
                      </option>
                    ))}
                  </>,
                )}
                {checkbox('prescriptionRequired', t('form.hints.prescriptionRequired'))}
                {textarea('dosage')}
                {textarea('indications', 'col-md-6')}
                {textarea('contraindications', 'col-md-6')}
                {textarea('sideEffects')}
              </FormCard>
            ) : (
              <FormCard title={t('form.sections.supply')} icon={<Package size={18} aria-hidden="true" />}>
                {input('brand')}
                {input('model')}
                {select(
                  'unitMeasurement',
                  unitMeasurements.map((unit) => (
                    <option key={unit} value={unit}>
                      {t(`unitMeasurements.${unit}`)}
                    </option>
                  )),
                )}
                {input('packagingQty', { inputMode: 'numeric', hint: t('form.hints.packagingQty') })}
                {checkbox('consumable', t('form.hints.consumable'))}
              </FormCard>
            )}
          </div>
          <div className="col-12 col-xl-6">
            <FormCard title={t('form.sections.prices')} icon={<Receipt size={18} aria-hidden="true" />}>
              {input('costPrice', { inputMode: 'decimal', required: true })}
              {input('basePrice', { inputMode: 'decimal', required: true, hint: t('form.hints.basePrice') })}
              {input('taxRate', { inputMode: 'decimal', required: true, suffix: '%' })}
              <div className="col-md-6">
                <span className="form-label d-block">{t('fields.priceWithTax')}</span>
                <output className="form-control-plaintext fw-semibold fs-5 py-1" data-testid="price-with-tax">
                  {withTax === null ? '—' : money(withTax)}
                </output>
              </div>
              {item ? (
                <>
                  <div className="col-md-6">
                    <span className="form-label d-block">{t('fields.lastCost')}</span>
                    <output className="form-control-plaintext py-1" data-testid="last-cost">
                      {item.lastCost === null ? '—' : money(item.lastCost)}
                    </output>
                  </div>
                  <div className="col-md-6">
                    <span className="form-label d-block">{t('fields.averageCost')}</span>
                    <output className="form-control-plaintext py-1" data-testid="average-cost">
                      {item.averageCost === null ? '—' : money(item.averageCost)}
                    </output>
                  </div>
                  <p className="col-12 form-text mt-0">{t('form.hints.costs')}</p>
                </>
              ) : null}
            </FormCard>
          </div>
          <div className="col-12 col-xl-6">
            <FormCard title={t('form.sections.stock')} icon={<Boxes size={18} aria-hidden="true" />}>
              {editing
                ? null
                : input('totalStock', {
                    inputMode: 'numeric',
                    required: true,
                    hint: t('form.hints.totalStock'),
                    col: 'col-12',
                  })}
              {input('minStock', { inputMode: 'numeric', required: true, col: 'col-sm-4' })}
              {input('reorderStock', { inputMode: 'numeric', required: true, col: 'col-sm-4' })}
              {input('maxStock', { inputMode: 'numeric', col: 'col-sm-4' })}
              <div className="col-12 form-text mt-1">{t('form.hints.stockLevels')}</div>
              {textarea('storageConditions')}
            </FormCard>
          </div>
        </div>
      </fieldset>
      {similar ? (
        <div className="alert alert-warning mt-3" role="alert" data-testid="inventory-similar-name">
          <p className="mb-2">{t('form.similarName', { name: similar.name })}</p>
          <div className="d-flex flex-wrap gap-2">
            <Link to={itemPath(kind, similar.id)} className="btn btn-sm btn-outline-dark">
              {t('form.openExisting')}
            </Link>
            <button
              type="button"
              className="btn btn-sm btn-warning"
              disabled={save.isPending}
              onClick={() => void submit(similar.values, true)}
            >
              {t(`form.createAnyway.${kind}`)}
            </button>
          </div>
        </div>
      ) : null}
      {readOnly ? null : (
        <div className="inventory-form-actions">
          <Link to={kindPaths[kind].web} className="btn btn-outline-secondary">
            {t('form.back')}
          </Link>
          <button
            type="submit"
            className="btn btn-primary"
            disabled={isSubmitting || (editing && !isDirty)}
            data-testid="inventory-save"
          >
            <BusyIcon busy={isSubmitting} icon={Save} />
            {editing ? t('form.save') : t(`form.create.${kind}`)}
          </button>
        </div>
      )}
    </form>
  );
}
