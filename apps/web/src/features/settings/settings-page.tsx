import { instalmentReminderDaysMax } from '@odontia/shared/payment-plans';
import { recallMessageDaysMax } from '@odontia/shared/recalls';
import { FormDialog } from '../../components/dialog-frame';
import { LinkCards } from '../../components/link-cards';
import { SettingsPageFrame, SettingsRecordForm, SettingsSection } from '../../components/settings-page-frame';
import '../../lib/zod-setup';
import { saleDocumentTypes } from '@odontia/shared/commercial';
import { currencies, currencyIsoCodes, dateFormats, languages } from '@odontia/shared/enums';
import {
  type ClinicSettings,
  clinicSettingsUpdateSchema,
  lockMinutesBounds,
  type NumberingRow,
  reminderLeadBounds,
  setNextNumberSchema,
} from '@odontia/shared/schemas/clinic-settings';
import { CalendarClock, FileCheck2, FileSignature, Landmark, MessageSquare, Pencil, Store, Users } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FieldGrid, TextField } from '../../components/bound-fields';
import { FormAlert } from '../../components/form-feedback';
import { SwitchField } from '../../components/switch-field';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { languageNames } from '../../lib/i18n';
import { useVersionedSubmit } from '../../lib/use-versioned-submit';
import { useZodForm } from '../../lib/use-zod-form';
import { useDateTimeFormat } from '../../session/clinic-time';
import { formatExample } from '../profile/forms';
import { useClinicSettings, useNumbering, useSaveClinicSettings, useSetNextNumber } from './api';
import { BrandColorField } from './brand-color-field';
import { OnlineBookingSection } from './online-booking-section';

/*
 * /settings (issue 19, spec §1 "system settings"): the clinic's own settings — what a new user or
 * patient starts with, its time zone, the screen lock, the e-mail reminders, the upload limit —
 * and the numbering of its sales per point of sale. The fiscal data, the points of sale, the
 * agenda's hours and the consent templates have their own pages, linked from here, so one
 * settings area shows everything. A user's own language, date format and currency stay in /profile.
 */

/** Every IANA zone this browser knows, with the clinic's own even when it is not listed ('UTC'). */
function timeZoneOptions(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([current, 'UTC', ...known])].sort((a, b) => a.localeCompare(b));
}

function valuesOf(data: ClinicSettings) {
  return {
    currency: data.currency,
    dateFormat: data.dateFormat,
    defaultLanguage: data.defaultLanguage,
    timeZone: data.timeZone,
    lockAfterMinutes: String(data.lockAfterMinutes),
    remindersEnabled: data.remindersEnabled,
    reminderLeadMinutes: String(data.reminderLeadMinutes),
    uploadMaxMb: data.uploadMaxMb === null ? '' : String(data.uploadMaxMb),
    portalPaymentInstructions: data.portalPaymentInstructions ?? '',
    recallMessageDays: String(data.recallMessageDays),
    instalmentReminderDays: String(data.instalmentReminderDays),
    brandColor: data.brandColor ?? '',
    version: data.version,
  };
}

function SettingsForm({ data }: { data: ClinicSettings }) {
  const { t } = useTranslation('settings');
  const id = useId();
  const dateTime = useDateTimeFormat();
  const save = useSaveClinicSettings();
  const schema = useMemo(() => clinicSettingsUpdateSchema(data.uploadMaxMbLimit), [data.uploadMaxMbLimit]);
  const form = useZodForm(schema, valuesOf(data));
  const zones = useMemo(() => timeZoneOptions(data.timeZone), [data.timeZone]);
  const remindersOn = form.watch('remindersEnabled');

  const { saveVersioned, conflict } = useVersionedSubmit(form, save.mutateAsync, valuesOf, 'system_setting_updated');
  const onSubmit = form.submit(saveVersioned);

  return (
    <SettingsRecordForm
      ref={form.formErrors.ref}
      onSubmit={onSubmit}
      prefix="settings"
      busy={save.isPending}
      conflict={conflict ? t('conflict') : null}
      saveLabel={t('actions.save')}
      savedAt={t('savedAt', { when: dateTime(data.updatedAt) })}
    >
      <SettingsSection title={t('sections.regional')} intro={t('intros.regional')} testId="settings-regional">
        <FieldGrid
          form={form}
          fields={[
            {
              name: 'defaultLanguage',
              label: t('fields.defaultLanguage'),
              hint: t('hints.defaultLanguage'),
              required: true,
              options: languages.map((value) => ({ value, label: languageNames[value] })),
              className: 'col-md-6',
              testId: 'settings-defaultLanguage',
            },
            {
              name: 'dateFormat',
              label: t('fields.dateFormat'),
              hint: t('hints.dateFormat'),
              required: true,
              options: dateFormats.map((value) => ({
                value,
                label: t('dateFormatOption', {
                  format: t(`profile:dateFormats.${value}`),
                  example: formatExample(value),
                }),
              })),
              className: 'col-md-6',
              testId: 'settings-dateFormat',
            },
            {
              name: 'currency',
              label: t('fields.currency'),
              hint: t('hints.currency'),
              required: true,
              options: currencies.map((value) => ({
                value,
                label: `${t(`profile:currencies.${value}`)} (${currencyIsoCodes[value]})`,
              })),
              className: 'col-md-6',
              testId: 'settings-currency',
            },
            {
              name: 'timeZone',
              label: t('fields.timeZone'),
              hint: t('hints.timeZone'),
              required: true,
              options: zones.map((value) => ({ value, label: value.replaceAll('_', ' ') })),
              className: 'col-md-6',
              testId: 'settings-timeZone',
            },
          ]}
        />
      </SettingsSection>
      <SettingsSection title={t('sections.security')} testId="settings-security">
        <FieldGrid
          form={form}
          fields={[
            {
              name: 'lockAfterMinutes',
              label: t('fields.lockAfterMinutes'),
              hint: t('hints.lockAfterMinutes', lockMinutesBounds),
              required: true,
              type: 'number',
              inputMode: 'numeric',
              min: lockMinutesBounds.min,
              max: lockMinutesBounds.max,
              className: 'col-md-6',
              testId: 'settings-lockAfterMinutes',
            },
            {
              name: 'uploadMaxMb',
              label: t('fields.uploadMaxMb'),
              hint: t('hints.uploadMaxMb', { max: data.uploadMaxMbLimit }),
              type: 'number',
              inputMode: 'numeric',
              min: 1,
              max: Math.floor(data.uploadMaxMbLimit),
              placeholder: String(data.uploadMaxMbLimit),
              className: 'col-md-6',
              testId: 'settings-uploadMaxMb',
            },
          ]}
        />
      </SettingsSection>
      <SettingsSection title={t('sections.reminders')} intro={t('intros.reminders')} testId="settings-reminders">
        <div className="row g-3 align-items-start">
          <div className="col-md-6">
            <SwitchField
              id={`${id}-reminders`}
              label={t('fields.remindersEnabled')}
              className="mt-md-4"
              input={form.register('remindersEnabled')}
              testId="settings-remindersEnabled"
            />
          </div>
          <TextField
            form={form}
            name="reminderLeadMinutes"
            label={t('fields.reminderLeadMinutes')}
            hint={t('hints.reminderLeadMinutes', reminderLeadBounds)}
            required
            type="number"
            inputMode="numeric"
            min={reminderLeadBounds.min}
            max={reminderLeadBounds.max}
            readOnly={!remindersOn}
            className="col-md-6"
            data-testid="settings-reminderLeadMinutes"
          />
          <TextField
            form={form}
            name="recallMessageDays"
            label={t('fields.recallMessageDays')}
            hint={t('hints.recallMessageDays', { max: recallMessageDaysMax })}
            required
            type="number"
            inputMode="numeric"
            min={0}
            max={recallMessageDaysMax}
            className="col-md-6"
            data-testid="settings-recallMessageDays"
          />
          <TextField
            form={form}
            name="instalmentReminderDays"
            label={t('fields.instalmentReminderDays')}
            hint={t('hints.instalmentReminderDays', { max: instalmentReminderDaysMax })}
            required
            type="number"
            inputMode="numeric"
            min={0}
            max={instalmentReminderDaysMax}
            className="col-md-6"
            data-testid="settings-instalmentReminderDays"
          />
        </div>
      </SettingsSection>
      <SettingsSection title={t('sections.portal')} intro={t('intros.portal')} testId="settings-portal">
        <TextField
          form={form}
          name="portalPaymentInstructions"
          label={t('fields.portalPaymentInstructions')}
          hint={t('hints.portalPaymentInstructions')}
          rows={4}
          data-testid="settings-portalPaymentInstructions"
        />
        <BrandColorField form={form} name="brandColor" />
      </SettingsSection>
    </SettingsRecordForm>
  );
}

function NextNumberDialog({ row, onDone }: { row: NumberingRow; onDone: () => void }) {
  const { t } = useTranslation('settings');
  const save = useSetNextNumber();
  const form = useZodForm(setNextNumberSchema, {
    pointOfSale: row.pointOfSale.code,
    documentType: row.documentType,
    nextNumber: String(row.nextNumber),
  });
  const onSubmit = form.submit(async (body) => {
    try {
      const answer = await save.mutateAsync(body);
      toastSuccess(answer.code);
      onDone();
    } catch (error) {
      if (!form.formErrors.place(error, form.setError, { codeFields: { next_number_not_above_issued: 'nextNumber' } }))
        toastApiError(error);
    }
  });
  return (
    <FormDialog
      ref={form.formErrors.ref}
      onHide={onDone}
      onSubmit={(event) => void onSubmit(event)}
      testId="numbering-form"
      title={t('numbering.editTitle', {
        type: t(`sales:types.${row.documentType}`),
        code: row.pointOfSale.code,
      })}
      closeLabel={t('actions.close')}
      cancelLabel={t('actions.cancel')}
      submit={{
        label: <span className="ms-1">{t('actions.save')}</span>,
        busy: save.isPending,
        disabled: save.isPending,
        testId: 'numbering-save',
      }}
      bodyClassName="d-flex flex-column gap-3"
    >
      <p className="mb-0 small text-body-secondary">
        {row.lastIssued > 0 ? t('numbering.lastIssuedText', { number: row.lastIssued }) : t('numbering.noneIssuedText')}
      </p>
      <fieldset disabled={save.isPending}>
        <TextField
          form={form}
          name="nextNumber"
          label={t('numbering.nextNumber')}
          hint={t('numbering.nextHint', { min: row.lastIssued + 1 })}
          required
          type="number"
          inputMode="numeric"
          min={row.lastIssued + 1}
          data-testid="numbering-next"
        />
      </fieldset>
    </FormDialog>
  );
}

/** The rows by point of sale (by code), each one's types in the contract's order. */
function pointsOfSale(rows: NumberingRow[]) {
  const groups = new Map<string, { pointOfSale: NumberingRow['pointOfSale']; rows: NumberingRow[] }>();
  for (const row of rows) {
    const group = groups.get(row.pointOfSale.id) ?? { pointOfSale: row.pointOfSale, rows: [] };
    group.rows.push(row);
    groups.set(row.pointOfSale.id, group);
  }
  const typeOrder = (row: NumberingRow) => saleDocumentTypes.indexOf(row.documentType);
  return [...groups.values()]
    .sort((a, b) => a.pointOfSale.code.localeCompare(b.pointOfSale.code))
    .map((group) => ({ ...group, rows: group.rows.sort((a, b) => typeOrder(a) - typeOrder(b)) }));
}

function NumberingSection() {
  const { t } = useTranslation('settings');
  const numbering = useNumbering();
  const [editing, setEditing] = useState<NumberingRow | null>(null);
  return (
    <SettingsSection title={t('sections.numbering')} intro={t('intros.numbering')} testId="settings-numbering">
      {numbering.isPending ? (
        <p className="text-body-secondary mb-0">{t('loading')}</p>
      ) : numbering.isError ? (
        <FormAlert>{t('loadError')}</FormAlert>
      ) : numbering.data.data.length === 0 ? (
        <p className="text-body-secondary mb-0" data-testid="numbering-empty">
          {t('numbering.empty')} <Link to="/settings/fiscal">{t('numbering.addPointOfSale')}</Link>
        </p>
      ) : (
        <div className="table-responsive">
          <table className="table table-sm align-middle mb-0" data-testid="numbering-table">
            <thead>
              <tr>
                <th scope="col">{t('numbering.documentType')}</th>
                <th scope="col" className="text-end">
                  {t('numbering.lastIssued')}
                </th>
                <th scope="col" className="text-end">
                  {t('numbering.nextNumber')}
                </th>
                <th scope="col" className="text-end">
                  <span className="visually-hidden">{t('numbering.actions')}</span>
                </th>
              </tr>
            </thead>
            {pointsOfSale(numbering.data.data).map(({ pointOfSale, rows }) => (
              <tbody key={pointOfSale.id}>
                <tr>
                  <th scope="colgroup" colSpan={4} className="bg-body-tertiary">
                    {t('numbering.pointOfSaleHeading', { code: pointOfSale.code, name: pointOfSale.name })}
                  </th>
                </tr>
                {rows.map((row) => {
                  const type = t(`sales:types.${row.documentType}`);
                  return (
                    <tr
                      key={row.documentType}
                      data-testid="numbering-row"
                      data-pos={row.pointOfSale.code}
                      data-type={row.documentType}
                    >
                      <th scope="row" className="fw-normal">
                        {type}
                      </th>
                      <td className="text-end font-monospace">{row.lastIssued > 0 ? row.lastIssued : '—'}</td>
                      <td className="text-end font-monospace" data-testid="numbering-next-number">
                        {row.nextNumber}
                      </td>
                      <td className="text-end">
                        <button
                          type="button"
                          className="btn btn-sm btn-outline-secondary"
                          onClick={() => setEditing(row)}
                          aria-label={t('numbering.editLabel', { type, code: row.pointOfSale.code })}
                          data-testid="numbering-edit"
                        >
                          <Pencil size={14} aria-hidden="true" />
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            ))}
          </table>
        </div>
      )}
      {editing ? <NextNumberDialog row={editing} onDone={() => setEditing(null)} /> : null}
    </SettingsSection>
  );
}

/** The other settings pages, one card each. */
function OtherSettings() {
  const { t } = useTranslation('settings');
  const links = [
    { to: '/settings/fiscal', icon: Landmark, key: 'fiscal' },
    { to: '/settings/fiscal', icon: Store, key: 'pointsOfSale' },
    { to: '/settings/einvoicing', icon: FileCheck2, key: 'einvoicing' },
    { to: '/schedules', icon: CalendarClock, key: 'schedules' },
    { to: '/settings/messages', icon: MessageSquare, key: 'messaging' },
    { to: '/settings/authorization-templates', icon: FileSignature, key: 'authorizationTemplates' },
    { to: '/account/users', icon: Users, key: 'users' },
  ] as const;
  return (
    <LinkCards
      label={t('sections.more')}
      heading
      testId="settings-links"
      columnClassName="col-sm-6 col-xl-4"
      links={links}
      t={t}
    />
  );
}

export function SettingsPage() {
  const { t } = useTranslation('settings');
  const settings = useClinicSettings();
  return (
    <SettingsPageFrame
      title={t('common:pages.settings')}
      intro={t('intro')}
      testId="settings-page"
      query={settings}
      loadError={t('loadError')}
      loaded={({ data }) => <SettingsForm key={data.version} data={data} />}
    >
      <NumberingSection />
      <OnlineBookingSection />
      <OtherSettings />
    </SettingsPageFrame>
  );
}
