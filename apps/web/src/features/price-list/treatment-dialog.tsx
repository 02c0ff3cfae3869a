import '../../lib/zod-setup';
import { recallUnits } from '@odontia/shared/enums';
import { recallIntervalMax } from '@odontia/shared/recalls';
import { type Treatment, treatmentContracts } from '@odontia/shared/schemas/schedules';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { BoundField, TextField } from '../../components/bound-fields';
import { FormDialog } from '../../components/dialog-frame';
import { FieldCells } from '../../components/field-cells';
import { SwitchField } from '../../components/switch-field';
import { i18n } from '../../lib/i18n';
import { saveRecordDialog } from '../../lib/save-record-dialog';
import { useZodForm } from '../../lib/use-zod-form';
import { useSaveTreatment } from './api';

type Values = z.input<typeof treatmentContracts.update>;
const fieldNames = [
  'code',
  'name',
  'groupName',
  'price',
  'vatRate',
  'durationMinutes',
  'color',
  'active',
  'recallInterval',
  'recallUnit',
  'recallReason',
  'labCost',
];

/** A stored decimal ('1500.50') as people type it in the interface language ('1500,50' but in English). */
function decimalInput(value: string): string {
  const language = i18n.resolvedLanguage ?? i18n.language;
  const trimmed = value.replace(/\.00$/, '');
  return language?.startsWith('en') ? trimmed : trimmed.replace('.', ',');
}

function valuesOf(treatment: Treatment | null): Values {
  return {
    code: treatment?.code ?? '',
    name: treatment?.name ?? '',
    groupName: treatment?.groupName ?? '',
    price: treatment ? decimalInput(treatment.price) : '',
    vatRate: treatment ? decimalInput(treatment.vatRate) : '0',
    durationMinutes: treatment?.durationMinutes ?? 30,
    color: treatment?.color ?? '#0ea5e9',
    active: treatment?.active ?? true,
    recallInterval: treatment?.recallInterval ?? '',
    recallUnit: treatment?.recallUnit ?? '',
    recallReason: treatment?.recallReason ?? '',
    labCost: treatment ? decimalInput(treatment.labCost) : '0',
    version: treatment?.version ?? 1,
  };
}

/**
 * Create or edit a treatment of the price list, every field of it (the agenda's duration and
 * colour too): the one editor of a treatment, so no screen saves it without its price.
 */
export function TreatmentDialog({
  treatment,
  groups,
  onDone,
}: {
  treatment: Treatment | null;
  groups: string[];
  onDone: () => void;
}) {
  const { t } = useTranslation(['priceList', 'common']);
  const id = useId();
  const editing = treatment !== null;
  const save = useSaveTreatment(treatment?.id ?? null);
  const [conflict, setConflict] = useState(false);
  const form = useZodForm(treatmentContracts.update, valuesOf(treatment), {
    validateWith: editing ? undefined : treatmentContracts.create,
  });
  const onSubmit = form.submit((values) =>
    saveRecordDialog(form, {
      save: () => save.mutateAsync(values),
      valuesOf,
      onDone,
      onConflict: () => setConflict(true),
      place: { fields: fieldNames },
    }),
  );
  const busy = form.formState.isSubmitting;
  const decimal = { inputMode: 'decimal', inputClassName: 'text-end' } as const;
  return (
    <FormDialog
      ref={form.formErrors.ref}
      onHide={onDone}
      onSubmit={(event) => void onSubmit(event)}
      testId="treatment-form"
      title={editing ? t('form.edit') : t('form.new')}
      closeLabel={t('common:close')}
      cancelLabel={t('form.cancel')}
      submit={{ label: editing ? t('form.save') : t('form.create'), busy, disabled: busy, testId: 'record-save' }}
    >
      {conflict ? (
        <div className="alert alert-warning" role="alert">
          {t('form.conflict')}
        </div>
      ) : null}
      <fieldset disabled={busy} className="row g-3">
        <FieldCells
          form={form}
          fields={[
            { cell: 'col-12', name: 'name', label: t('fields.name'), required: true, maxLength: 120 },
            { cell: 'col-sm-5', name: 'code', label: t('fields.code'), maxLength: 20 },
          ]}
        />
        <div className="col-sm-7">
          <TextField
            form={form}
            name="groupName"
            label={t('fields.group')}
            hint={t('form.groupHint')}
            maxLength={60}
            list={`${id}-groups`}
          />
          <datalist id={`${id}-groups`}>
            {groups.map((group) => (
              <option key={group} value={group} />
            ))}
          </datalist>
        </div>
        <FieldCells
          form={form}
          fields={[
            { cell: 'col-sm-5', name: 'price', label: t('fields.price'), ...decimal, placeholder: '0' },
            { cell: 'col-sm-3', name: 'vatRate', label: t('fields.vatRate'), ...decimal },
            {
              cell: 'col-sm-4',
              name: 'durationMinutes',
              label: t('fields.duration'),
              type: 'number',
              min: 5,
              max: 720,
              step: 5,
              required: true,
              inputClassName: 'text-end',
            },
            // Issue 40: deducted from a professional's settlement when the rule says so.
            { cell: 'col-sm-5', name: 'labCost', label: t('fields.labCost'), ...decimal, placeholder: '0' },
          ]}
        />
        <div className="col-12 d-flex flex-wrap align-items-end gap-3">
          <BoundField form={form} name="color" label={t('fields.color')}>
            {(control) => (
              <input
                type="color"
                {...form.register('color')}
                {...control.props}
                className="form-control form-control-color"
              />
            )}
          </BoundField>
          <SwitchField
            id={`${id}-active`}
            label={t('fields.active')}
            className="mb-2"
            input={form.register('active')}
          />
        </div>
        <fieldset className="col-12 row g-3 m-0 p-0" aria-describedby={`${id}-recall-hint`}>
          <legend className="fs-6 fw-semibold mb-0">{t('form.recallTitle')}</legend>
          <p id={`${id}-recall-hint`} className="form-text mt-0 mb-0">
            {t('form.recallHint')}
          </p>
          <FieldCells
            form={form}
            fields={[
              {
                cell: 'col-sm-4',
                name: 'recallInterval',
                label: t('fields.recallInterval'),
                type: 'number',
                min: 1,
                max: recallIntervalMax,
                inputClassName: 'text-end',
                testId: 'treatment-recall-interval',
              },
              {
                cell: 'col-sm-8',
                name: 'recallUnit',
                label: t('fields.recallUnit'),
                testId: 'treatment-recall-unit',
                options: [
                  { value: '', label: t('form.recallNone') },
                  ...recallUnits.map((unit) => ({ value: unit, label: t(`recallUnits.${unit}`) })),
                ],
              },
              {
                cell: 'col-12',
                name: 'recallReason',
                label: t('fields.recallReason'),
                hint: t('form.recallReasonHint'),
                maxLength: 200,
                testId: 'treatment-recall-reason',
              },
            ]}
          />
        </fieldset>
      </fieldset>
    </FormDialog>
  );
}
