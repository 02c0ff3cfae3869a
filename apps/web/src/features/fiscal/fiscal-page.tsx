import { FormDialog } from '../../components/dialog-frame';
import { SettingsPageFrame, SettingsRecordForm, SettingsSection } from '../../components/settings-page-frame';
import '../../lib/zod-setup';
import {
  type FiscalCountry,
  fiscalConditionsByCountry,
  fiscalCountries,
  taxIdKindsByCountry,
} from '@odontia/shared/commercial';
import {
  type FiscalData,
  type PointOfSale,
  pointOfSaleContracts,
  updateFiscalDataSchema,
} from '@odontia/shared/schemas/clinic-fiscal';
import type { TaxIdKind } from '@odontia/shared/tax-ids';
import { ImageUp, Pencil, Plus, Trash2 } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldGrid, TextField } from '../../components/bound-fields';
import { BusyIcon } from '../../components/busy-icon';
import { ConfirmDelete, DeleteRowButton } from '../../components/confirm-delete';
import { FormAlert } from '../../components/form-feedback';
import { SwitchField } from '../../components/switch-field';
import { errorMessage } from '../../lib/api-errors';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { saveRecordDialog } from '../../lib/save-record-dialog';
import { useVersionedSubmit } from '../../lib/use-versioned-submit';
import { useZodForm } from '../../lib/use-zod-form';
import { useClinicTimeZone, useDateTimeFormat } from '../../session/clinic-time';
import {
  useDeletePointOfSale,
  useFiscalData,
  useLogoUrl,
  usePointsOfSale,
  useRemoveLogo,
  useSaveFiscalData,
  useSavePointOfSale,
  useUploadLogo,
} from './api';

/*
 * /settings/fiscal (issue 17, spec §1): the clinic's business and fiscal data, its logo and its
 * points of sale. The country decides which tax-id kinds and fiscal conditions the selects offer;
 * the tax id's check digits are checked by the shared contract here and again by the server.
 */

/** A clinic that has not said its country yet: guessed from its time zone, then its currency. */
function guessedCountry(timeZone: string, currency: string): FiscalCountry {
  if (timeZone.startsWith('America/Argentina') || currency === 'ARS') return 'AR';
  if (['Europe/Madrid', 'Atlantic/Canary', 'Africa/Ceuta'].includes(timeZone)) return 'ES';
  if (
    ['America/Sao_Paulo', 'America/Manaus', 'America/Recife', 'America/Fortaleza', 'America/Bahia'].includes(
      timeZone,
    ) ||
    currency === 'BRL'
  )
    return 'BR';
  if (timeZone === 'Europe/Paris') return 'FR';
  return currency === 'EUR' ? 'ES' : 'other';
}

type FormValues = {
  legalName: string;
  tradeName: string;
  country: FiscalCountry;
  taxIdKind: TaxIdKind;
  taxId: string;
  fiscalCondition: string;
  address: string;
  city: string;
  province: string;
  postalCode: string;
  phone: string;
  phoneMobile: string;
  email: string;
  website: string;
  version: number;
};

function valuesOf(data: FiscalData, timeZone: string): FormValues {
  const country = data.country ?? guessedCountry(timeZone, data.currency);
  return {
    legalName: data.legalName ?? '',
    tradeName: data.tradeName ?? '',
    country,
    taxIdKind: data.taxIdKind ?? taxIdKindsByCountry[country][0] ?? 'other',
    taxId: data.taxId ?? '',
    fiscalCondition: data.fiscalCondition ?? fiscalConditionsByCountry[country][0],
    address: data.address ?? '',
    city: data.city ?? '',
    province: data.province ?? '',
    postalCode: data.postalCode ?? '',
    phone: data.phone ?? '',
    phoneMobile: data.phoneMobile ?? '',
    email: data.email ?? '',
    website: data.website ?? '',
    version: data.version,
  };
}

function FiscalForm({ data }: { data: FiscalData }) {
  const { t } = useTranslation('fiscal');
  const dateTime = useDateTimeFormat();
  const save = useSaveFiscalData();
  const timeZone = useClinicTimeZone();
  const form = useZodForm(updateFiscalDataSchema, valuesOf(data, timeZone));
  const country = form.watch('country') as FiscalCountry;
  const taxIdKind = form.watch('taxIdKind');
  const fiscalCondition = form.watch('fiscalCondition');
  const kinds = taxIdKindsByCountry[country] ?? taxIdKindsByCountry.other;
  const conditions: readonly string[] = fiscalConditionsByCountry[country] ?? fiscalConditionsByCountry.other;
  // Another country: its own kinds and conditions (the first of each until one is picked).
  useEffect(() => {
    if (!taxIdKind || !kinds.includes(taxIdKind)) form.setValue('taxIdKind', kinds[0] ?? 'other');
    if (!conditions.includes(fiscalCondition)) form.setValue('fiscalCondition', conditions[0] ?? 'other');
  }, [kinds, conditions, taxIdKind, fiscalCondition, form]);

  const { saveVersioned, conflict } = useVersionedSubmit(
    form,
    save.mutateAsync,
    (saved) => valuesOf(saved, timeZone),
    'fiscal_data_updated',
  );
  const onSubmit = form.submit(saveVersioned);

  return (
    <SettingsRecordForm
      ref={form.formErrors.ref}
      onSubmit={onSubmit}
      prefix="fiscal"
      busy={save.isPending}
      conflict={conflict ? t('conflict') : null}
      saveLabel={t('actions.save')}
      savedAt={data.legalName ? t('savedAt', { when: dateTime(data.updatedAt) }) : null}
    >
      <SettingsSection title={t('sections.identity')} testId="fiscal-identity">
        <FieldGrid
          form={form}
          fields={[
            {
              name: 'legalName',
              label: t('fields.legalName'),
              required: true,
              maxLength: 160,
              className: 'col-md-6',
              testId: 'fiscal-legalName',
            },
            {
              name: 'tradeName',
              label: t('fields.tradeName'),
              maxLength: 160,
              hint: t('hints.tradeName'),
              className: 'col-md-6',
              testId: 'fiscal-tradeName',
            },
            {
              name: 'country',
              label: t('fields.country'),
              required: true,
              options: fiscalCountries.map((value) => ({ value, label: t(`countries.${value}`) })),
              className: 'col-md-4',
              testId: 'fiscal-country',
            },
            {
              name: 'taxIdKind',
              label: t('fields.taxIdKind'),
              required: true,
              options: kinds.map((value) => ({ value, label: t(`taxIdKinds.${value}`) })),
              className: 'col-md-3',
              testId: 'fiscal-taxIdKind',
            },
            {
              name: 'taxId',
              label: t('fields.taxId'),
              hint: t('hints.taxId'),
              maxLength: 30,
              autoCapitalize: 'characters',
              spellCheck: false,
              className: 'col-md-5',
              testId: 'fiscal-taxId',
            },
            {
              name: 'fiscalCondition',
              label: t('fields.fiscalCondition'),
              required: true,
              options: conditions.map((value) => ({ value, label: t(`conditions.${value}`) })),
              className: 'col-md-6',
              testId: 'fiscal-fiscalCondition',
            },
          ]}
        />
      </SettingsSection>
      <SettingsSection title={t('sections.contact')} intro={t('hints.phone')} testId="fiscal-contact">
        <FieldGrid
          form={form}
          fields={[
            {
              name: 'address',
              label: t('fields.address'),
              maxLength: 300,
              autoComplete: 'street-address',
              className: 'col-md-6',
              testId: 'fiscal-address',
            },
            { name: 'city', label: t('fields.city'), maxLength: 120, className: 'col-md-6' },
            { name: 'province', label: t('fields.province'), maxLength: 120, className: 'col-md-6' },
            {
              name: 'postalCode',
              label: t('fields.postalCode'),
              maxLength: 20,
              autoComplete: 'postal-code',
              className: 'col-md-6',
            },
            { name: 'phone', label: t('fields.phone'), type: 'tel', autoComplete: 'tel', className: 'col-md-6' },
            { name: 'phoneMobile', label: t('fields.phoneMobile'), type: 'tel', className: 'col-md-6' },
            {
              name: 'email',
              label: t('fields.email'),
              type: 'email',
              autoComplete: 'email',
              className: 'col-md-6',
              testId: 'fiscal-email',
            },
            { name: 'website', label: t('fields.website'), type: 'url', maxLength: 200, className: 'col-md-6' },
          ]}
        />
      </SettingsSection>
    </SettingsRecordForm>
  );
}

function LogoSection({ data }: { data: FiscalData }) {
  const { t } = useTranslation('fiscal');
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const url = useLogoUrl(data.logoSha256);
  const upload = useUploadLogo();
  const remove = useRemoveLogo();
  const [problem, setProblem] = useState<string | null>(null);
  const [confirm, setConfirm] = useState(false);
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setProblem(null);
    try {
      const answer = await upload.mutateAsync(file);
      toastSuccess(answer.code ?? 'logo_updated');
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      if (input.current) input.current.value = '';
    }
  };
  return (
    <SettingsSection title={t('sections.logo')} intro={t('logo.hint')} testId="fiscal-logo">
      <div className="d-flex flex-wrap align-items-center gap-3">
        <div
          className="border rounded d-flex align-items-center justify-content-center p-2 bg-body-tertiary"
          style={{ width: 220, height: 100 }}
        >
          {url ? (
            <img
              src={url}
              alt={t('logo.alt')}
              style={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }}
              data-testid="fiscal-logo-preview"
            />
          ) : (
            <span className="small text-body-secondary text-center">{t('logo.none')}</span>
          )}
        </div>
        <div className="d-flex flex-wrap gap-2">
          <label htmlFor={inputId} className="visually-hidden">
            {t('logo.file')}
          </label>
          <input
            ref={input}
            id={inputId}
            type="file"
            accept="image/png,image/jpeg"
            className="visually-hidden"
            aria-describedby={problem ? `${inputId}-error` : undefined}
            onChange={(event) => void onFile(event.target.files?.[0])}
            data-testid="fiscal-logo-input"
          />
          <button
            type="button"
            className="btn btn-outline-primary"
            onClick={() => input.current?.click()}
            disabled={upload.isPending}
            data-testid="fiscal-logo-upload"
          >
            <BusyIcon busy={upload.isPending} icon={ImageUp} />
            <span className="ms-1">{data.logoSha256 ? t('actions.replaceLogo') : t('actions.uploadLogo')}</span>
          </button>
          {data.logoSha256 ? (
            <button
              type="button"
              className="btn btn-outline-danger"
              onClick={() => setConfirm(true)}
              data-testid="fiscal-logo-remove"
            >
              <Trash2 size={16} aria-hidden="true" />
              <span className="ms-1">{t('actions.removeLogo')}</span>
            </button>
          ) : null}
        </div>
      </div>
      {problem ? (
        <div id={`${inputId}-error`} className="text-danger small" role="alert" data-testid="fiscal-logo-error">
          {problem}
        </div>
      ) : null}
      <ConfirmDelete
        show={confirm}
        title={t('logo.removeTitle')}
        confirmLabel={t('actions.removeLogo')}
        pending={remove.isPending}
        onCancel={() => setConfirm(false)}
        onConfirm={async () => {
          try {
            const answer = await remove.mutateAsync();
            toastSuccess(answer.code ?? 'logo_removed');
            setConfirm(false);
          } catch (error) {
            toastApiError(error);
          }
        }}
      >
        {t('logo.removeText')}
      </ConfirmDelete>
    </SettingsSection>
  );
}

function PointOfSaleDialog({ record, onDone }: { record: PointOfSale | null; onDone: () => void }) {
  const { t } = useTranslation('fiscal');
  const id = useId();
  const save = useSavePointOfSale(record?.id);
  const valuesFor = (row: PointOfSale | null) => ({
    code: row?.code ?? '',
    name: row?.name ?? '',
    active: row?.active ?? true,
    version: row?.version ?? 0,
  });
  const form = useZodForm(pointOfSaleContracts.update, valuesFor(record), {
    validateWith: record ? undefined : pointOfSaleContracts.create,
  });
  const [conflict, setConflict] = useState(false);
  const onSubmit = form.submit((body) =>
    saveRecordDialog(form, {
      save: () => save.mutateAsync(record ? body : { code: body.code, name: body.name, active: body.active }),
      valuesOf: valuesFor,
      onDone,
      onConflict: () => setConflict(true),
      place: { codeFields: { point_of_sale_exists: 'code' } },
    }),
  );
  return (
    <FormDialog
      ref={form.formErrors.ref}
      onHide={onDone}
      onSubmit={(event) => void onSubmit(event)}
      testId="pos-form"
      title={record ? t('pointsOfSale.edit') : t('pointsOfSale.new')}
      closeLabel={t('actions.close')}
      cancelLabel={t('actions.cancel')}
      submit={{
        label: <span className="ms-1">{record ? t('actions.saveRecord') : t('actions.create')}</span>,
        busy: save.isPending,
        disabled: save.isPending,
        testId: 'pos-save',
      }}
    >
      {conflict ? (
        <div className="alert alert-warning" role="alert">
          {t('conflict')}
        </div>
      ) : null}
      <fieldset disabled={save.isPending} className="d-flex flex-column gap-3">
        <TextField
          form={form}
          name="code"
          label={t('pointsOfSale.code')}
          required
          inputMode="numeric"
          maxLength={5}
          hint={t('pointsOfSale.codeHint')}
          data-testid="pos-code"
        />
        <TextField
          form={form}
          name="name"
          label={t('pointsOfSale.name')}
          required
          maxLength={120}
          data-testid="pos-name"
        />
        <SwitchField
          id={`${id}-active`}
          label={t('pointsOfSale.active')}
          input={form.register('active')}
          testId="pos-active"
        />
      </fieldset>
    </FormDialog>
  );
}

function PointOfSaleActions({ row, onEdit }: { row: PointOfSale; onEdit: () => void }) {
  const { t } = useTranslation('fiscal');
  const remove = useDeletePointOfSale(row.id);
  const toggle = useSavePointOfSale(row.id);
  const label = `${row.code} — ${row.name}`;
  return (
    <div className="d-flex flex-wrap gap-1 justify-content-end">
      <button
        type="button"
        className="btn btn-sm btn-outline-secondary"
        onClick={onEdit}
        aria-label={`${t('actions.edit')}: ${label}`}
        data-testid="pos-edit"
      >
        <Pencil size={14} aria-hidden="true" />
      </button>
      <button
        type="button"
        className="btn btn-sm btn-outline-secondary"
        disabled={toggle.isPending}
        onClick={async () => {
          try {
            const answer = await toggle.mutateAsync({
              code: row.code,
              name: row.name,
              active: !row.active,
              version: row.version,
            });
            if (answer.code) toastSuccess(answer.code);
          } catch (error) {
            toastApiError(error);
          }
        }}
        data-testid="pos-toggle"
      >
        {row.active ? t('actions.deactivate') : t('actions.activate')}
        <span className="visually-hidden">: {label}</span>
      </button>
      <DeleteRowButton
        remove={remove}
        label={`${t('actions.delete')}: ${label}`}
        title={t('pointsOfSale.deleteTitle')}
        testId="pos-delete"
      >
        {t('pointsOfSale.deleteText', { code: row.code, name: row.name })}
      </DeleteRowButton>
    </div>
  );
}

function PointsOfSaleSection() {
  const { t } = useTranslation('fiscal');
  const list = usePointsOfSale();
  const [editing, setEditing] = useState<PointOfSale | 'new' | null>(null);
  return (
    <SettingsSection title={t('sections.pointsOfSale')} intro={t('pointsOfSale.intro')} testId="fiscal-points-of-sale">
      <div>
        <button
          type="button"
          className="btn btn-outline-primary"
          onClick={() => setEditing('new')}
          data-testid="pos-new"
        >
          <Plus size={16} aria-hidden="true" />
          <span className="ms-1">{t('actions.add')}</span>
        </button>
      </div>
      {list.isPending ? (
        <p className="text-body-secondary mb-0">{t('loading')}</p>
      ) : list.isError ? (
        <FormAlert>{t('loadError')}</FormAlert>
      ) : list.data.data.length === 0 ? (
        <p className="text-body-secondary mb-0" data-testid="pos-empty">
          {t('pointsOfSale.empty')}
        </p>
      ) : (
        <div className="table-responsive">
          <table className="table table-sm align-middle mb-0" data-testid="pos-table">
            <thead>
              <tr>
                <th scope="col">{t('pointsOfSale.code')}</th>
                <th scope="col">{t('pointsOfSale.name')}</th>
                <th scope="col">{t('pointsOfSale.status')}</th>
                <th scope="col" className="text-end">
                  {t('pointsOfSale.actions')}
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((row) => (
                <tr key={row.id} data-testid="pos-row">
                  <td className="font-monospace">{row.code}</td>
                  <td className="text-break">{row.name}</td>
                  <td>
                    <span className={`badge ${row.active ? 'text-bg-success' : 'text-bg-secondary'}`}>
                      {row.active ? t('pointsOfSale.active') : t('pointsOfSale.inactive')}
                    </span>
                  </td>
                  <td>
                    <PointOfSaleActions row={row} onEdit={() => setEditing(row)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing ? (
        <PointOfSaleDialog record={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
      ) : null}
    </SettingsSection>
  );
}

export function FiscalSettingsPage() {
  const { t } = useTranslation('fiscal');
  const fiscal = useFiscalData();
  return (
    <SettingsPageFrame
      title={t('common:pages.fiscalSettings')}
      intro={t('intro')}
      testId="fiscal-page"
      query={fiscal}
      loadError={t('loadError')}
      loaded={({ data }) => (
        <>
          <FiscalForm key={data.version} data={data} />
          <LogoSection data={data} />
        </>
      )}
    >
      <PointsOfSaleSection />
    </SettingsPageFrame>
  );
}
