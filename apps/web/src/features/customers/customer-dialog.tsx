import '../../lib/zod-setup';
import {
  type FiscalCountry,
  fiscalConditionsByCountry,
  fiscalCountries,
  taxIdKindsByCountry,
} from '@odontia/shared/commercial';
import { languages } from '@odontia/shared/enums';
import { type CustomerRecord, customerRecordContracts } from '@odontia/shared/schemas/customer-records';
import { formatTaxId } from '@odontia/shared/tax-ids';
import { Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ConfirmDelete } from '../../components/confirm-delete';
import { FormDialog } from '../../components/dialog-frame';
import { FieldCells } from '../../components/field-cells';
import { FormAlert } from '../../components/form-feedback';
import { IconTextButton } from '../../components/icon-button';
import { SwitchField } from '../../components/switch-field';
import { errorMessage } from '../../lib/api-errors';
import { toastSuccess } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { saveRecordDialog } from '../../lib/save-record-dialog';
import { useZodForm } from '../../lib/use-zod-form';
import { TaxIdField } from '../commercial/tax-id-field';
import { useDeleteCustomer, useSaveCustomer } from './customer-records-api';

type Values = z.input<typeof customerRecordContracts.update>;
const fieldNames = [
  'kind',
  'name',
  'tradeName',
  'country',
  'taxIdKind',
  'taxId',
  'fiscalCondition',
  'address',
  'city',
  'province',
  'postalCode',
  'email',
  'phone',
  'language',
  'paymentTermDays',
  'notes',
  'active',
];

function valuesOf(customer: CustomerRecord | null): Values {
  return {
    kind: customer?.kind ?? 'insurer',
    name: customer?.name ?? '',
    tradeName: customer?.tradeName ?? '',
    country: customer?.country ?? 'AR',
    taxIdKind: customer?.taxIdKind ?? null,
    taxId: formatTaxId(customer?.taxIdKind, customer?.taxId),
    fiscalCondition: customer?.fiscalCondition ?? null,
    address: customer?.address ?? '',
    city: customer?.city ?? '',
    province: customer?.province ?? '',
    postalCode: customer?.postalCode ?? '',
    email: customer?.email ?? '',
    phone: customer?.phone ?? '',
    language: customer?.language ?? 'es',
    paymentTermDays: customer?.paymentTermDays ?? 30,
    notes: customer?.notes ?? '',
    active: customer?.active ?? true,
    version: customer?.version ?? 1,
  };
}

/** A select left on "none" sends '': that is no value. */
const prepare = (values: Values): Values => ({
  ...values,
  country: values.country || null,
  taxIdKind: values.taxIdKind || null,
  fiscalCondition: values.fiscalCondition || null,
});

/**
 * Create or edit a customer: a company or an insurer with its fiscal data, or a patient's billing
 * data (its name and kind follow the patient). Delete (commercial.delete) only what no document
 * names; otherwise the server says so and the customer is deactivated instead.
 */
export function CustomerDialog({
  customer,
  canDelete,
  onDone,
}: {
  customer: CustomerRecord | null;
  canDelete: boolean;
  onDone: () => void;
}) {
  const { t } = useTranslation(['customers', 'providers', 'common']);
  const id = useId();
  const editing = customer !== null;
  const patient = customer?.kind === 'patient';
  const save = useSaveCustomer(customer?.id ?? null);
  const remove = useDeleteCustomer(customer?.id ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const [duplicate, setDuplicate] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [deleteProblem, setDeleteProblem] = useState<string | null>(null);
  const form = useZodForm(customerRecordContracts.update, valuesOf(customer), {
    prepare,
    validateWith: editing ? undefined : customerRecordContracts.create,
  });
  const country = (useWatch({ control: form.control, name: 'country' }) || null) as FiscalCountry | null;
  const kinds = country ? taxIdKindsByCountry[country] : Object.values(taxIdKindsByCountry).flat();
  const conditions: readonly string[] = country
    ? fiscalConditionsByCountry[country]
    : Object.values(fiscalConditionsByCountry).flat();

  const onSubmit = form.submit(async (values) => {
    setProblem(null);
    setDuplicate(null);
    await saveRecordDialog(form, {
      save: () => save.mutateAsync(values),
      valuesOf,
      onDone,
      onConflict: () => setProblem(t('form.conflict')),
      place: { fields: fieldNames },
      refused: (error) => {
        if (!isApiError(error) || error.code !== 'customer_tax_id_exists') return false;
        form.setError('taxId', { type: 'server', message: 'customer_tax_id_exists' });
        setDuplicate((error.details as { customer?: { name: string } } | undefined)?.customer?.name ?? null);
        form.formErrors.reveal();
        return true;
      },
    });
  });
  const onDelete = async () => {
    setDeleteProblem(null);
    try {
      const answer = await remove.mutateAsync();
      toastSuccess(answer.code);
      setConfirming(false);
      onDone();
    } catch (error) {
      setDeleteProblem(errorMessage(error));
    }
  };
  const busy = form.formState.isSubmitting || remove.isPending;
  const none = { value: '', label: t('form.none') };
  const options = {
    kind: (patient ? ['patient'] : ['insurer', 'company']).map((value) => ({ value, label: t(`kinds.${value}`) })),
    country: [none, ...fiscalCountries.map((value) => ({ value, label: t(`countries.${value}`) }))],
    taxIdKind: [none, ...kinds.map((value) => ({ value, label: t(`providers:taxIdKinds.${value}`) }))],
    fiscalCondition: [none, ...conditions.map((value) => ({ value, label: t(`providers:fiscalConditions.${value}`) }))],
    language: languages.map((value) => ({ value, label: t(`languages.${value}`) })),
  };

  return (
    <FormDialog
      ref={form.formErrors.ref}
      onHide={onDone}
      onSubmit={(event) => void onSubmit(event)}
      testId="customer-form"
      title={editing ? t('form.edit') : t('form.new')}
      closeLabel={t('common:close')}
      cancelLabel={t('form.cancel')}
      submit={{
        label: editing ? t('form.save') : t('form.create'),
        busy: form.formState.isSubmitting,
        disabled: busy,
        testId: 'customer-save',
      }}
      size="lg"
      scrollable
      footerStart={
        editing && canDelete && !patient ? (
          <IconTextButton
            icon={Trash2}
            className="btn btn-outline-danger me-auto"
            onClick={() => setConfirming(true)}
            disabled={busy}
            testId="customer-delete"
          >
            {t('form.delete')}
          </IconTextButton>
        ) : null
      }
      afterForm={
        <ConfirmDelete
          show={confirming}
          title={t('form.deleteTitle')}
          onCancel={() => setConfirming(false)}
          onConfirm={() => void onDelete()}
          pending={remove.isPending}
          problem={deleteProblem}
        >
          <p className="mb-0">{t('form.deleteText', { name: customer?.name ?? '' })}</p>
        </ConfirmDelete>
      }
    >
      {problem ? <FormAlert testId="customer-problem">{problem}</FormAlert> : null}
      {patient ? <p className="small text-body-secondary">{t('form.patientHint')}</p> : null}
      <fieldset disabled={busy} className="row g-3">
        <FieldCells
          form={form}
          fields={[
            { cell: 'col-sm-4', name: 'kind', label: t('fields.kind'), disabled: patient, options: options.kind },
            {
              cell: 'col-sm-8',
              name: 'name',
              label: t('fields.name'),
              required: true,
              readOnly: patient,
              maxLength: 160,
            },
            { cell: 'col-sm-6', name: 'tradeName', label: t('fields.tradeName'), maxLength: 160 },
            { cell: 'col-sm-6', name: 'country', label: t('fields.country'), options: options.country },
            { cell: 'col-sm-4', name: 'taxIdKind', label: t('providers:fields.taxIdKind'), options: options.taxIdKind },
          ]}
        />
        <TaxIdField form={form} name="taxId" label={t('fields.taxId')} className="col-sm-8" testId="customer-tax-id">
          {duplicate ? (
            <p className="small text-danger mt-1 mb-0" data-testid="duplicate-holder">
              {t('form.taxIdHolder', { name: duplicate })}
            </p>
          ) : null}
        </TaxIdField>
        <FieldCells
          form={form}
          fields={[
            {
              cell: 'col-12',
              name: 'fiscalCondition',
              label: t('providers:fields.fiscalCondition'),
              options: options.fiscalCondition,
            },
            { cell: 'col-12', name: 'address', label: t('fields.address'), maxLength: 300 },
            { cell: 'col-sm-5', name: 'city', label: t('fields.city'), maxLength: 120 },
            { cell: 'col-sm-4', name: 'province', label: t('fields.province'), maxLength: 120 },
            { cell: 'col-sm-3', name: 'postalCode', label: t('fields.postalCode'), maxLength: 20 },
            { cell: 'col-sm-6', name: 'email', label: t('fields.email'), type: 'email', readOnly: patient },
            { cell: 'col-sm-6', name: 'phone', label: t('fields.phone'), inputMode: 'tel' },
            {
              cell: 'col-sm-6',
              name: 'language',
              label: t('fields.language'),
              disabled: patient,
              options: options.language,
            },
            {
              cell: 'col-sm-6',
              name: 'paymentTermDays',
              label: t('fields.paymentTermDays'),
              type: 'number',
              min: 0,
              max: 365,
              inputClassName: 'text-end',
            },
            { cell: 'col-12', name: 'notes', label: t('fields.notes'), rows: 2 },
          ]}
        />
        <div className="col-12">
          <SwitchField
            id={`${id}-active`}
            label={t('fields.active')}
            hint={t('form.activeHint')}
            input={form.register('active')}
          />
        </div>
      </fieldset>
    </FormDialog>
  );
}
