import '../../lib/zod-setup';
import { fiscalConditions, fiscalConditionsByCountry } from '@odontia/shared/commercial';
import { type Currency, currencies } from '@odontia/shared/enums';
import { type Provider, providerContracts } from '@odontia/shared/schemas/providers';
import { formatTaxId, type TaxIdKind, taxIdKinds } from '@odontia/shared/tax-ids';
import { Banknote, Contact, FileText, Handshake, IdCard, NotebookPen } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { BackAndSaveActions } from '../../components/back-and-save-actions';
import { SelectField, TextField } from '../../components/bound-fields';
import { IconCard } from '../../components/icon-card';
import { SwitchField } from '../../components/switch-field';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { useZodForm } from '../../lib/use-zod-form';
import { useSessionUser } from '../../session/session';
import { TaxIdField } from '../commercial/tax-id-field';
import { type ProviderAnswer, providerPaths, useSaveProvider } from './api';

/** The country whose fiscal conditions go with a tax-id kind (none: every country's). */
const countryOfKind: Partial<Record<TaxIdKind, keyof typeof fiscalConditionsByCountry>> = {
  cuit: 'AR',
  nif: 'ES',
  cpf: 'BR',
  cnpj: 'BR',
  siren: 'FR',
  siret: 'FR',
};

type UpdateSchema = typeof providerContracts.update;
type Values = z.input<UpdateSchema>;
type FieldName = Exclude<keyof Values & string, 'version'>;

const text = (value: string | null | undefined) => value ?? '';

export function formValuesOf(provider: Provider | null, currency: Currency): Values {
  return {
    // As its kind prints it (20-12345678-6); stored without separators.
    nif: formatTaxId(provider?.taxIdKind, provider?.nif),
    taxIdKind: provider?.taxIdKind ?? null,
    fantasyName: text(provider?.fantasyName),
    bussinesName: text(provider?.bussinesName),
    companyName: text(provider?.companyName),
    fiscalCondition: provider?.fiscalCondition ?? null,
    bankName: text(provider?.bankName),
    bankAccount: text(provider?.bankAccount),
    bankKey: text(provider?.bankKey),
    currency: provider?.currency ?? currency,
    contactName: text(provider?.contactName),
    commercialAddress: text(provider?.commercialAddress),
    phoneAreaBussines: text(provider?.phoneAreaBussines),
    phoneBusiness: text(provider?.phoneBusiness),
    phoneMobile: text(provider?.phoneMobile),
    email: text(provider?.email),
    paymentTermDays: provider?.paymentTermDays ?? 30,
    notes: text(provider?.notes),
    active: provider?.active ?? true,
    version: provider?.version ?? 1,
  };
}

/** A select left on "none" sends '': that is no value. */
const prepare = (values: Values): Values => ({
  ...values,
  taxIdKind: values.taxIdKind || null,
  fiscalCondition: values.fiscalCondition || null,
});

const fieldNames = Object.keys(formValuesOf(null, 'argentine_peso')).filter((name) => name !== 'version');

function Section(props: { title: string; icon: ReactNode; children: ReactNode }) {
  return <IconCard {...props} className="patient-form-card mb-0" grid />;
}

interface Duplicate {
  id: string;
  fantasyName: string;
}

/**
 * Create or edit a provider: every field of spec §3 in sections, checked with the shared contract
 * (tax id check digits included) before it leaves; a taken tax id shows a link to the provider
 * that has it, a stale save hands the current provider to `onConflict`.
 */
export function ProviderForm({
  provider,
  onConflict,
  actions,
}: {
  provider: Provider | null;
  onConflict?: (current: Provider | null) => void;
  actions?: ReactNode;
}) {
  const { t } = useTranslation(['providers', 'common']);
  const navigate = useNavigate();
  const id = useId();
  const user = useSessionUser();
  const editing = provider !== null;
  const save = useSaveProvider(provider?.id);
  const [duplicate, setDuplicate] = useState<Duplicate | null>(null);
  const form = useZodForm(
    providerContracts.update,
    formValuesOf(provider, user?.account.currency ?? 'argentine_peso'),
    {
      prepare,
      validateWith: editing ? undefined : providerContracts.create,
    },
  );
  const kind = useWatch({ control: form.control, name: 'taxIdKind' });
  const country = kind ? countryOfKind[kind] : undefined;
  const conditions: readonly string[] = country ? fiscalConditionsByCountry[country] : fiscalConditions;

  const onSubmit = form.submit(async (values) => {
    setDuplicate(null);
    try {
      const answer: ProviderAnswer = await save.mutateAsync(values);
      if (answer.code) toastSuccess(answer.code);
      if (editing) form.reset(formValuesOf(answer.data, answer.data.currency));
      else void navigate(providerPaths.edit(answer.data.id), { replace: true });
    } catch (error) {
      if (!isApiError(error)) {
        toastApiError(error);
        return;
      }
      if (error.code === 'version_conflict' && onConflict) {
        onConflict((error.details as { current?: Provider } | undefined)?.current ?? null);
        return;
      }
      if (error.code === 'provider_tax_id_exists') {
        form.setError('nif', { type: 'server', message: 'provider_tax_id_exists' });
        const holder = (error.details as { provider?: Duplicate } | undefined)?.provider;
        if (holder?.id) setDuplicate(holder);
        form.formErrors.reveal();
        return;
      }
      if (!form.formErrors.place(error, form.setError, { fields: fieldNames })) toastApiError(error);
    }
  });

  const { isSubmitting, isDirty } = form.formState;
  const field = (name: FieldName, col: string, options: Record<string, unknown> = {}) => (
    <div className={col} key={name}>
      <TextField form={form} name={name} label={t(`fields.${name}`)} {...options} />
    </div>
  );
  const select = (name: FieldName, col: string, options: { value: string; label: string }[], extra = {}) => (
    <div className={col} key={name}>
      <SelectField form={form} name={name} label={t(`fields.${name}`)} options={options} {...extra} />
    </div>
  );

  return (
    <form ref={form.formErrors.ref} noValidate onSubmit={(event) => void onSubmit(event)} data-testid="provider-form">
      <fieldset disabled={isSubmitting} className="patient-form">
        <div className="patient-form-layout">
          <div className="patient-form-column">
            <Section title={t('form.sections.names')} icon={<Handshake size={18} aria-hidden="true" />}>
              {field('fantasyName', 'col-12', { required: true, hint: t('form.hints.fantasyName') })}
              {field('bussinesName', 'col-md-6', { hint: t('form.hints.bussinesName') })}
              {field('companyName', 'col-md-6', { hint: t('form.hints.companyName') })}
            </Section>
            <Section title={t('form.sections.fiscal')} icon={<IdCard size={18} aria-hidden="true" />}>
              {select('taxIdKind', 'col-sm-5', [
                { value: '', label: t('form.none') },
                ...taxIdKinds.map((value) => ({ value, label: t(`taxIdKinds.${value}`) })),
              ])}
              <TaxIdField
                form={form}
                name="nif"
                label={t('fields.nif')}
                hint={t('form.hints.nif')}
                className="col-sm-7"
                testId="provider-nif"
              >
                {duplicate ? (
                  <Link
                    to={providerPaths.edit(duplicate.id)}
                    className="small d-inline-block mt-1"
                    data-testid="duplicate-link"
                  >
                    {t('form.openExisting', { name: duplicate.fantasyName })}
                  </Link>
                ) : null}
              </TaxIdField>
              {select('fiscalCondition', 'col-12', [
                { value: '', label: t('form.none') },
                ...conditions.map((value) => ({ value, label: t(`fiscalConditions.${value}`) })),
              ])}
            </Section>
            <Section title={t('form.sections.terms')} icon={<FileText size={18} aria-hidden="true" />}>
              {select(
                'currency',
                'col-sm-6',
                currencies.map((value) => ({ value, label: t(`currencies.${value}`) })),
                { required: true },
              )}
              {field('paymentTermDays', 'col-sm-6', {
                type: 'number',
                inputMode: 'numeric',
                min: 0,
                max: 365,
                hint: t('form.hints.paymentTermDays'),
              })}
            </Section>
          </div>
          <div className="patient-form-column">
            <Section title={t('form.sections.contact')} icon={<Contact size={18} aria-hidden="true" />}>
              {field('contactName', 'col-md-6')}
              {field('email', 'col-md-6', { type: 'email', inputMode: 'email' })}
              {field('commercialAddress', 'col-12')}
              {field('phoneAreaBussines', 'col-4 col-sm-3', { inputMode: 'tel' })}
              {field('phoneBusiness', 'col-8 col-sm-4', { type: 'tel', inputMode: 'tel' })}
              {field('phoneMobile', 'col-sm-5', { type: 'tel', inputMode: 'tel' })}
            </Section>
            <Section title={t('form.sections.bank')} icon={<Banknote size={18} aria-hidden="true" />}>
              {field('bankName', 'col-12')}
              {field('bankAccount', 'col-md-7', { hint: t('form.hints.bankAccount') })}
              {field('bankKey', 'col-md-5', { hint: t('form.hints.bankKey') })}
            </Section>
            <Section title={t('form.sections.notes')} icon={<NotebookPen size={18} aria-hidden="true" />}>
              {field('notes', 'col-12', { rows: 3 })}
              <div className="col-12">
                <SwitchField
                  id={`${id}-active`}
                  label={t('fields.active')}
                  hint={t('form.hints.active')}
                  className="mb-0"
                  input={form.register('active')}
                />
              </div>
            </Section>
          </div>
        </div>
      </fieldset>
      <BackAndSaveActions
        className="patient-form-actions"
        backTo={providerPaths.list}
        backText={t('form.back')}
        saving={isSubmitting}
        editing={editing}
        dirty={isDirty}
        saveText={editing ? t('form.save') : t('form.create')}
        testId="provider-save"
      >
        {actions ? <div className="me-auto d-flex flex-wrap gap-2">{actions}</div> : null}
      </BackAndSaveActions>
    </form>
  );
}
