import '../../lib/zod-setup';
import {
  ageGroups,
  applicationTypes,
  type InventoryKind,
  productStatuses,
  unitMeasurements,
} from '@odontia/shared/enums';
import type { InventoryItem } from '@odontia/shared/schemas/inventory';
import { Boxes, FlaskConical, Info, Package, Receipt } from 'lucide-react';
import { useId, useState } from 'react';
import { type Resolver, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { BackAndSaveActions } from '../../components/back-and-save-actions';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { formResolver, useFormErrors } from '../../lib/form-errors';
import { isApiError } from '../../lib/http';
import { type ItemAnswer, itemPath, kindPaths, useSaveItem } from './api';
import { useMoneyFormat } from './format';
import { type Duplicate, DuplicateLink, FormCard, SimilarNameAlert, useItemFields } from './item-form-fields';
import {
  approvalOptionsOf,
  fieldNames,
  formValuesOf,
  type ItemFormValues,
  livePriceWithTax,
  schemaFor,
} from './item-form-values';

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
  const approvalOptions = approvalOptionsOf(item);

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

  const duplicateLink = (field: Duplicate['field']) => <DuplicateLink duplicate={duplicate} field={field} />;

  const { input, textarea, select, checkbox, options } = useItemFields(register, errors, fieldId);

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
              {select('productStatus', options(productStatuses, 'productStatuses'))}
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
                {select('applicationType', options(applicationTypes, 'applicationTypes', t('form.notSet')))}
                {select('approvalStatus', options(approvalOptions, 'approvalStatuses'))}
                {select('ageRestriction', options(ageGroups, 'ageGroups', t('ageGroups.none')))}
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
                {select('unitMeasurement', options(unitMeasurements, 'unitMeasurements'))}
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
        <SimilarNameAlert
          kind={kind}
          similar={similar}
          pending={save.isPending}
          onCreateAnyway={() => void submit(similar.values, true)}
        />
      ) : null}
      {readOnly ? null : (
        <BackAndSaveActions
          className="inventory-form-actions"
          backTo={kindPaths[kind].web}
          backText={t('form.back')}
          saving={isSubmitting}
          editing={editing}
          dirty={isDirty}
          saveText={editing ? t('form.save') : t(`form.create.${kind}`)}
          testId="inventory-save"
        />
      )}
    </form>
  );
}
