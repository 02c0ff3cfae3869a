import {
  type EinvoiceEnvironment,
  type EinvoiceRegime,
  type EinvoiceSettings,
  einvoiceEnvironments,
  einvoiceRegimes,
} from '@odontia/shared/schemas/einvoicing';
import { ArrowLeft, RotateCw } from 'lucide-react';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FieldFeedback, FormAlert } from '../../components/form-feedback';
import { SettingsPageFrame, SettingsRecordForm, SettingsSection } from '../../components/settings-page-frame';
import { fieldErrorsOf } from '../../lib/api-errors';
import { apiErrorText, toastApiError, toastSuccess } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { useDateTimeFormat } from '../../session/clinic-time';
import { useEinvoicingSettings, useSaveEinvoicingSettings } from './api';
import { CertificateSection } from './certificate-section';
import { ConnectionTestSection, QueueSection, SeriesSection } from './einvoicing-status-sections';

/*
 * `/settings/einvoicing` (issue 39; settings.manage): where the clinic's issued documents go — no
 * authority (an internal record without fiscal validity), ARCA (Argentina) or Verifactu (Spain) —
 * in which environment, with which certificate, each point of sale's number at ARCA, the series as
 * the authority numbers them, the queue, and a connection test. The certificate is never shown
 * back: only what it says.
 */

type Values = {
  regime: EinvoiceRegime;
  environment: EinvoiceEnvironment;
  /** The authority's number per point of sale code, as typed. */
  numbers: Record<string, string>;
};

function valuesOf(data: EinvoiceSettings): Values {
  return {
    regime: data.regime,
    environment: data.environment,
    numbers: Object.fromEntries(data.pointsOfSale.map((row) => [row.code, String(row.authorityNumber)])),
  };
}

/** A typed ARCA number: null when left empty, undefined when it is not one (1 to 99998). */
function authorityNumberOf(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (!trimmed) return null;
  if (!/^\d{1,5}$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value >= 1 && value <= 99998 ? value : undefined;
}

/** One choice of a radio group drawn as a card: the native radio (arrow keys move), its title and text. */
function RadioCard({
  name,
  value,
  checked,
  title,
  text,
  onChange,
  testId,
}: {
  name: string;
  value: string;
  checked: boolean;
  title: string;
  text: string;
  onChange: () => void;
  testId: string;
}) {
  const id = useId();
  return (
    <div className="col-md-4">
      <div className={`border rounded p-3 h-100 ${checked ? 'border-primary border-2 bg-primary-subtle' : ''}`}>
        <div className="form-check mb-0">
          <input
            className="form-check-input"
            type="radio"
            name={name}
            id={id}
            value={value}
            checked={checked}
            onChange={onChange}
            aria-describedby={`${id}-text`}
            data-testid={testId}
          />
          <label className="form-check-label fw-semibold" htmlFor={id}>
            {title}
          </label>
          {/* On the chosen card's tinted background the secondary grey is too faint: the body colour. */}
          <div id={`${id}-text`} className={`small ${checked ? 'text-body' : 'text-body-secondary'}`}>
            {text}
          </div>
        </div>
      </div>
    </div>
  );
}

function EinvoicingForm({
  data,
  conflict,
  onConflict,
  onSaved,
  onReload,
}: {
  data: EinvoiceSettings;
  conflict: boolean;
  onConflict: () => void;
  onSaved: () => void;
  onReload: () => void;
}) {
  const { t, i18n } = useTranslation('einvoicing');
  const id = useId();
  const dateTime = useDateTimeFormat();
  const ref = useRef<HTMLFormElement>(null);
  const save = useSaveEinvoicingSettings();
  const sending = useRef(false);
  const [values, setValues] = useState(() => valuesOf(data));
  const [invalid, setInvalid] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // A double click sends one request.
    if (sending.current) return;
    const wrong: Record<string, string> = {};
    const pointsOfSale = data.pointsOfSale.map((row) => {
      const authorityNumber = authorityNumberOf(values.numbers[row.code] ?? '');
      if (authorityNumber === undefined) wrong[row.code] = t('pointsOfSale.invalid');
      return { code: row.code, authorityNumber: authorityNumber ?? null };
    });
    setInvalid(wrong);
    setProblem(null);
    if (Object.keys(wrong).length > 0) return;
    sending.current = true;
    try {
      const answer = await save.mutateAsync({
        regime: values.regime,
        environment: values.environment,
        pointsOfSale,
        version: data.version,
      });
      onSaved();
      toastSuccess(answer.code ?? 'einvoice_settings_updated');
    } catch (error) {
      if (isApiError(error) && error.code === 'version_conflict') {
        onConflict();
        return;
      }
      // A point of sale's number the server refused: under its field.
      const fields = fieldErrorsOf(error).flatMap((field) => {
        const match = /^pointsOfSale\.(\d+)\./.exec(field.path);
        const row = match ? data.pointsOfSale[Number(match[1])] : undefined;
        return row ? [[row.code, t('pointsOfSale.invalid')] as const] : [];
      });
      if (fields.length > 0) {
        setInvalid(Object.fromEntries(fields));
        return;
      }
      if (isApiError(error) && ['einvoice_regime_invalid', 'einvoice_certificate_required'].includes(error.code)) {
        const reason = typeof error.details?.reason === 'string' ? error.details.reason : '';
        const key = `problems.${error.code}.${reason}`;
        setProblem(reason && i18n.exists(`einvoicing:${key}`) ? t(key) : apiErrorText(error));
        return;
      }
      toastApiError(error);
    } finally {
      sending.current = false;
    }
  };

  const arca = values.regime === 'arca';
  return (
    <SettingsRecordForm
      ref={ref}
      onSubmit={submit}
      prefix="einvoicing"
      busy={save.isPending}
      conflict={null}
      saveLabel={t('save')}
      savedAt={data.updatedAt ? t('savedAt', { when: dateTime(data.updatedAt) }) : null}
    >
      {conflict ? (
        <div className="alert alert-warning mb-0" role="alert" data-testid="einvoicing-conflict">
          <p className="mb-2">{t('conflict')}</p>
          <button
            type="button"
            className="btn btn-sm btn-outline-secondary"
            onClick={onReload}
            data-testid="einvoicing-reload"
          >
            <RotateCw size={14} aria-hidden="true" />
            <span className="ms-1">{t('reload')}</span>
          </button>
        </div>
      ) : null}
      {problem ? <FormAlert testId="einvoicing-problem">{problem}</FormAlert> : null}
      <SettingsSection title={t('sections.regime')} testId="einvoicing-regime">
        <fieldset>
          <legend className="form-label fs-6">{t('regimes.legend')}</legend>
          <div className="row g-2">
            {einvoiceRegimes.map((regime) => (
              <RadioCard
                key={regime}
                name={`${id}-regime`}
                value={regime}
                checked={values.regime === regime}
                title={t(`regimes.${regime}.title`)}
                text={t(`regimes.${regime}.text`)}
                onChange={() => setValues({ ...values, regime })}
                testId={`einvoicing-regime-${regime}`}
              />
            ))}
          </div>
        </fieldset>
        {values.regime === 'local' ? (
          <div className="alert alert-info mb-0" data-testid="einvoicing-local-note">
            {t('regimes.localNote')}
          </div>
        ) : null}
      </SettingsSection>
      {values.regime !== 'local' ? (
        <SettingsSection
          title={t('sections.environment')}
          intro={t('environments.intro', { authority: t(`authorities.${values.regime}`) })}
          testId="einvoicing-environment"
        >
          <fieldset>
            <legend className="form-label fs-6">{t('environments.legend')}</legend>
            <div className="row g-2">
              {einvoiceEnvironments.map((environment) => (
                <RadioCard
                  key={environment}
                  name={`${id}-environment`}
                  value={environment}
                  checked={values.environment === environment}
                  title={t(`environments.${environment}.title`)}
                  text={t(`environments.${environment}.text`)}
                  onChange={() => setValues({ ...values, environment })}
                  testId={`einvoicing-environment-${environment}`}
                />
              ))}
            </div>
          </fieldset>
          {values.environment === 'production' ? (
            <div className="alert alert-warning mb-0" role="note" data-testid="einvoicing-production-warning">
              {t('environments.productionWarning', { authority: t(`authorities.${values.regime}`) })}
            </div>
          ) : null}
        </SettingsSection>
      ) : null}
      {arca ? (
        <SettingsSection
          title={t('sections.pointsOfSale')}
          intro={t('pointsOfSale.intro')}
          testId="einvoicing-points-of-sale"
        >
          {data.pointsOfSale.length === 0 ? (
            <p className="text-body-secondary mb-0" data-testid="einvoicing-pos-empty">
              {t('pointsOfSale.empty')} <Link to="/settings/fiscal">{t('pointsOfSale.fiscalLink')}</Link>
            </p>
          ) : (
            <div className="table-responsive">
              <table className="table table-sm align-middle mb-0" data-testid="einvoicing-pos-table">
                <caption className="visually-hidden">{t('sections.pointsOfSale')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('pointsOfSale.code')}</th>
                    <th scope="col">{t('pointsOfSale.name')}</th>
                    <th scope="col" style={{ width: '14rem' }}>
                      {t('pointsOfSale.authorityNumber')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.pointsOfSale.map((row) => {
                    const inputId = `${id}-pos-${row.code}`;
                    const error = invalid[row.code];
                    return (
                      <tr key={row.code} data-testid="einvoicing-pos-row" data-code={row.code}>
                        <th scope="row" className="fw-normal font-monospace">
                          {row.code}
                        </th>
                        <td className="text-break">
                          {row.name}
                          {row.active ? null : (
                            <span className="badge text-bg-secondary ms-2">{t('pointsOfSale.inactive')}</span>
                          )}
                        </td>
                        <td>
                          <label htmlFor={inputId} className="visually-hidden">
                            {t('pointsOfSale.numberLabel', { code: row.code, name: row.name })}
                          </label>
                          <input
                            id={inputId}
                            className={`form-control form-control-sm${error ? ' is-invalid' : ''}`}
                            inputMode="numeric"
                            maxLength={5}
                            value={values.numbers[row.code] ?? ''}
                            onChange={(event) =>
                              setValues({ ...values, numbers: { ...values.numbers, [row.code]: event.target.value } })
                            }
                            aria-invalid={error ? true : undefined}
                            aria-describedby={error ? `${inputId}-error` : undefined}
                            data-testid="einvoicing-pos-number"
                          />
                          <FieldFeedback id={`${inputId}-error`} message={error} />
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}
        </SettingsSection>
      ) : null}
    </SettingsRecordForm>
  );
}

export function EinvoicingSettingsPage() {
  const { t } = useTranslation(['einvoicing', 'common']);
  const settings = useEinvoicingSettings();
  const [conflict, setConflict] = useState(false);
  return (
    <>
      <Link to="/settings" className="d-inline-flex align-items-center gap-1 mb-2 small">
        <ArrowLeft size={14} aria-hidden="true" />
        {t('back')}
      </Link>
      <SettingsPageFrame
        title={t('common:pages.einvoicingSettings')}
        intro={t('intro')}
        testId="einvoicing-page"
        query={settings}
        loadError={t('loadError')}
        loaded={({ data }) => (
          <>
            {/* A save, or the reload after a stale one, starts the form afresh from what is stored. */}
            <EinvoicingForm
              key={data.version}
              data={data}
              conflict={conflict}
              onConflict={() => setConflict(true)}
              onSaved={() => setConflict(false)}
              onReload={() => void settings.refetch().then(() => setConflict(false))}
            />
            <CertificateSection data={data} />
            <SeriesSection data={data} />
            <QueueSection data={data} />
            <ConnectionTestSection data={data} />
          </>
        )}
      />
    </>
  );
}
