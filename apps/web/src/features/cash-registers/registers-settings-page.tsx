import type { CashRegister, CashRegisterKind } from '@odontia/shared/schemas/cash-registers';
import { cashRegisterKinds } from '@odontia/shared/schemas/cash-registers';
import { Pencil, Plus } from 'lucide-react';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeleteRowButton } from '../../components/confirm-delete';
import { FormDialog } from '../../components/dialog-frame';
import { FormAlert } from '../../components/form-feedback';
import { FormField, inputClass } from '../../components/form-field';
import { PageTitle } from '../../components/page-title';
import { SettingsSection } from '../../components/settings-page-frame';
import { SwitchField } from '../../components/switch-field';
import { fieldErrorsOf } from '../../lib/api-errors';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useProfessionals } from '../users/professionals';
import { useCashRegisters, useCashSettings, useDeleteRegister, useSaveCashSettings, useSaveRegister } from './api';

/**
 * `/settings/cash-registers` (issue 40): the clinic's registers (the front desk's, a
 * professional's), active or not, and the clinic's rule "a cash collection needs an open register".
 */

export function CashRegistersSettingsPage() {
  const { t } = useTranslation('cash');
  return (
    <div className="d-flex flex-column gap-3" data-testid="cash-registers-page">
      <PageTitle title={t('common:pages.cashRegistersSettings')} />
      <div>
        <h1 className="h3 mb-1">{t('common:pages.cashRegistersSettings')}</h1>
        <p className="text-body-secondary mb-0">{t('settings.intro')}</p>
      </div>
      <RuleSection />
      <RegistersSection />
    </div>
  );
}

function RuleSection() {
  const { t } = useTranslation('cash');
  const id = useId();
  const settings = useCashSettings();
  const save = useSaveCashSettings();
  return (
    <SettingsSection title={t('settings.rule')} testId="cash-rule">
      {settings.isPending ? (
        <p className="text-body-secondary mb-0">{t('loading')}</p>
      ) : settings.isError ? (
        <FormAlert>{t('loadError')}</FormAlert>
      ) : (
        <SwitchField
          id={`${id}-rule`}
          label={t('settings.cashNeedsOpenSession')}
          hint={t('settings.cashNeedsOpenSessionHint')}
          testId="cash-rule-switch"
          input={{
            checked: settings.data.cashNeedsOpenSession,
            disabled: save.isPending,
            onChange: async (event) => {
              try {
                const answer = await save.mutateAsync({
                  cashNeedsOpenSession: event.target.checked,
                  version: settings.data.version,
                });
                if (answer.code) toastSuccess(answer.code);
              } catch (error) {
                toastApiError(error);
              }
            },
          }}
        />
      )}
    </SettingsSection>
  );
}

function RegistersSection() {
  const { t } = useTranslation('cash');
  const list = useCashRegisters();
  const [editing, setEditing] = useState<CashRegister | 'new' | null>(null);
  return (
    <SettingsSection title={t('settings.registers')} testId="cash-registers">
      <div>
        <button
          type="button"
          className="btn btn-outline-primary"
          onClick={() => setEditing('new')}
          data-testid="cash-register-new"
        >
          <Plus size={16} aria-hidden="true" />
          <span className="ms-1">{t('settings.add')}</span>
        </button>
      </div>
      {list.isPending ? (
        <p className="text-body-secondary mb-0">{t('loading')}</p>
      ) : list.isError ? (
        <FormAlert>{t('loadError')}</FormAlert>
      ) : list.data.data.length === 0 ? (
        <p className="text-body-secondary mb-0">{t('noRegisters')}</p>
      ) : (
        <div className="table-responsive position-relative">
          <table className="table table-sm align-middle mb-0" data-testid="cash-registers-table">
            <thead>
              <tr>
                <th scope="col">{t('settings.name')}</th>
                <th scope="col">{t('settings.kind')}</th>
                <th scope="col">{t('settings.status')}</th>
                <th scope="col" className="text-end">
                  {t('settings.actions')}
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((row) => (
                <tr key={row.id} data-testid="cash-register-row">
                  <td className="text-break">{row.name}</td>
                  <td>
                    {t(`settings.kinds.${row.kind}`)}
                    {row.professionalName ? (
                      <div className="small text-body-secondary">{row.professionalName}</div>
                    ) : null}
                  </td>
                  <td>
                    <span className={`badge ${row.active ? 'text-bg-success' : 'text-bg-secondary'}`}>
                      {row.active ? t('settings.active') : t('settings.inactive')}
                    </span>
                  </td>
                  <td>
                    <RegisterActions row={row} onEdit={() => setEditing(row)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing ? <RegisterDialog record={editing === 'new' ? null : editing} onDone={() => setEditing(null)} /> : null}
    </SettingsSection>
  );
}

function RegisterActions({ row, onEdit }: { row: CashRegister; onEdit: () => void }) {
  const { t } = useTranslation('cash');
  const remove = useDeleteRegister(row.id);
  return (
    <div className="d-flex flex-wrap gap-1 justify-content-end">
      <button
        type="button"
        className="btn btn-sm btn-outline-secondary"
        onClick={onEdit}
        aria-label={`${t('settings.edit')}: ${row.name}`}
        data-testid="cash-register-edit"
      >
        <Pencil size={14} aria-hidden="true" />
      </button>
      <DeleteRowButton
        remove={remove}
        label={`${t('settings.delete')}: ${row.name}`}
        title={t('settings.deleteTitle')}
        testId="cash-register-delete"
      >
        {t('settings.deleteText', { name: row.name })}
      </DeleteRowButton>
    </div>
  );
}

function RegisterDialog({ record, onDone }: { record: CashRegister | null; onDone: () => void }) {
  const { t } = useTranslation(['cash', 'clinical']);
  const id = useId();
  const ref = useRef<HTMLFormElement>(null);
  const save = useSaveRegister(record?.id);
  const professionals = useProfessionals();
  const [name, setName] = useState(record?.name ?? '');
  const [kind, setKind] = useState<CashRegisterKind>(record?.kind ?? 'front_desk');
  const [professionalId, setProfessionalId] = useState(record?.professionalId ?? '');
  const [active, setActive] = useState(record?.active ?? true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {
      ...(name.trim() ? {} : { name: 'required' }),
      ...(kind === 'professional' && !professionalId ? { professionalId: 'required' } : {}),
    };
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body = {
      name: name.trim(),
      kind,
      professionalId: kind === 'professional' ? professionalId : null,
      active,
    };
    try {
      const answer = await save.mutateAsync(record ? { ...body, version: record.version } : body);
      if (answer.code) toastSuccess(answer.code);
      onDone();
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (fields.length > 0) setErrors(Object.fromEntries(fields.map((field) => [field.path, field.code])));
      else toastApiError(error);
    }
  };
  return (
    <FormDialog
      ref={ref}
      onHide={onDone}
      onSubmit={(event) => void submit(event)}
      testId="cash-register-form"
      title={record ? t('settings.edit') : t('settings.add')}
      closeLabel={t('closeDialog')}
      cancelLabel={t('cancel')}
      submit={{ label: t('save'), busy: save.isPending, disabled: save.isPending, testId: 'cash-register-save' }}
    >
      <fieldset disabled={save.isPending}>
        <FormField id={`${id}-name`} label={t('settings.name')} error={errors.name}>
          <input
            id={`${id}-name`}
            className={inputClass(errors.name)}
            maxLength={80}
            value={name}
            onChange={(event) => setName(event.target.value)}
            aria-invalid={Boolean(errors.name)}
            aria-describedby={errors.name ? `${id}-name-error` : undefined}
            data-testid="cash-register-name"
          />
        </FormField>
        <FormField id={`${id}-kind`} label={t('settings.kind')}>
          <select
            id={`${id}-kind`}
            className="form-select"
            value={kind}
            onChange={(event) => setKind(event.target.value as CashRegisterKind)}
            data-testid="cash-register-kind"
          >
            {cashRegisterKinds.map((value) => (
              <option key={value} value={value}>
                {t(`settings.kinds.${value}`)}
              </option>
            ))}
          </select>
        </FormField>
        {kind === 'professional' ? (
          <FormField id={`${id}-professional`} label={t('settings.professional')} error={errors.professionalId}>
            <select
              id={`${id}-professional`}
              className={`form-select${errors.professionalId ? ' is-invalid' : ''}`}
              value={professionalId}
              onChange={(event) => setProfessionalId(event.target.value)}
              aria-invalid={Boolean(errors.professionalId)}
              aria-describedby={errors.professionalId ? `${id}-professional-error` : undefined}
            >
              <option value="">{t('settings.pickProfessional')}</option>
              {(professionals.data ?? []).map((professional) => (
                <option key={professional.id} value={professional.id}>
                  {professional.completeName}
                </option>
              ))}
            </select>
          </FormField>
        ) : null}
        <SwitchField
          id={`${id}-active`}
          label={t('settings.active')}
          input={{ checked: active, onChange: (event) => setActive(event.target.checked) }}
        />
      </fieldset>
    </FormDialog>
  );
}
