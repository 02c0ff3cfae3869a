import { splitLines } from '@odontia/shared/payer-split';
import { can } from '@odontia/shared/permissions';
import type { Patient } from '@odontia/shared/schemas/patients';
import type { Affiliation, PayerInvoiceResult } from '@odontia/shared/schemas/payers';
import { Pencil, Receipt, Save } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BusyIcon } from '../../components/busy-icon';
import { type Column, DataTable } from '../../components/data-table';
import { DateInput } from '../../components/date-input';
import { describedField, FormField, inputClass } from '../../components/form-field';
import { IconButton } from '../../components/icon-button';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useFormErrors } from '../../lib/form-errors';
import { placeStateErrors } from '../../lib/state-form-errors';
import { useCalendarDateFormat, useClinicToday } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import { useMoneyFormat } from '../inventory/format';
import { useAffiliations, useCoverage, useInvoiceWithPayer, usePlans, useSaveAffiliation } from './api';
import { PayerSelect } from './payer-select';

/**
 * "Obra social" in a patient's record (issue 40): the patient's affiliations (payer, plan, member
 * number, validity; one primary), and invoicing what is not yet invoiced split between the patient
 * and the payer — the preview computed with the same `splitLines` the server issues with, the
 * authorization number asked where the rule requires it — into two invoices.
 */

/**
 * A new affiliation, or the one being edited (`affiliation`); `ending` opens it with its end date
 * set to today (the patient left the payer), the same form and validations.
 */
function AffiliationForm({
  patientId,
  affiliation,
  ending = false,
  onDone,
}: {
  patientId: string;
  affiliation?: Affiliation;
  ending?: boolean;
  onDone?: () => void;
}) {
  const { t } = useTranslation('payers');
  const id = useId();
  const today = useClinicToday();
  const [payerId, setPayerId] = useState(affiliation?.payerId ?? '');
  const plans = usePlans(payerId || null);
  const [planId, setPlanId] = useState(affiliation?.planId ?? '');
  const [memberNumber, setMemberNumber] = useState(affiliation?.memberNumber ?? '');
  const [validFrom, setValidFrom] = useState(affiliation?.validFrom ?? today);
  const [validTo, setValidTo] = useState(ending ? today : (affiliation?.validTo ?? ''));
  const [primary, setPrimary] = useState(affiliation?.primary ?? true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const formErrors = useFormErrors();
  const save = useSaveAffiliation(patientId);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const answer = await save.mutateAsync({
        id: affiliation?.id ?? null,
        ...(affiliation ? { version: affiliation.version } : {}),
        body: {
          payerId,
          planId,
          memberNumber,
          validFrom,
          validTo: validTo || null,
          primary,
          notes: affiliation?.notes ?? null,
        },
      });
      toastSuccess(answer.code ?? (affiliation ? 'affiliation_updated' : 'affiliation_created'));
      setErrors({});
      if (onDone) onDone();
      else setMemberNumber('');
    } catch (error) {
      if (!placeStateErrors(error, setErrors, formErrors.reveal)) toastApiError(error);
    }
  };
  const field = (name: string) => ({ id: `${id}-${name}`, error: errors[name] });
  const title = affiliation
    ? t(ending ? 'affiliations.endOf' : 'affiliations.editOf', { payer: affiliation.payerName })
    : t('affiliations.new');
  return (
    <form
      ref={formErrors.ref}
      className={affiliation ? 'border rounded p-3 mb-3' : 'mb-3'}
      onSubmit={(event) => void submit(event)}
      aria-label={title}
      data-testid={affiliation ? 'affiliation-edit-form' : 'affiliation-form'}
    >
      {affiliation ? <h3 className="h6">{title}</h3> : null}
      <div className="row g-2 align-items-end">
        <FormField {...field('payerId')} label={t('fields.payer')} className="col-md-3">
          <PayerSelect
            id={`${id}-payerId`}
            value={payerId}
            error={errors.payerId}
            onChange={(value) => {
              setPayerId(value);
              setPlanId('');
            }}
            testId="affiliation-payer"
          />
        </FormField>
        <FormField {...field('planId')} label={t('fields.plan')} className="col-md-3">
          <select
            {...describedField(`${id}-planId`, errors.planId)}
            className="form-select"
            required
            value={planId}
            onChange={(event) => setPlanId(event.target.value)}
            data-testid="affiliation-plan"
          >
            <option value="">{t('affiliations.choosePlan')}</option>
            {(plans.data?.data ?? []).map((plan) => (
              <option key={plan.id} value={plan.id}>
                {plan.name}
              </option>
            ))}
          </select>
        </FormField>
        <FormField {...field('memberNumber')} label={t('fields.member')} className="col-md-2">
          <input
            {...describedField(`${id}-memberNumber`, errors.memberNumber)}
            className={inputClass(errors.memberNumber)}
            required
            maxLength={40}
            value={memberNumber}
            onChange={(event) => setMemberNumber(event.target.value)}
            data-testid="affiliation-member"
          />
        </FormField>
        <FormField {...field('validFrom')} label={t('fields.validFrom')} className="col-md-2">
          <DateInput
            {...describedField(`${id}-validFrom`, errors.validFrom)}
            name="validFrom"
            className={inputClass(errors.validFrom)}
            aria-required
            value={validFrom}
            onChange={(event) => setValidFrom(event.target.value)}
            data-testid="affiliation-from"
          />
        </FormField>
        <FormField {...field('validTo')} label={t('fields.validTo')} className="col-md-2">
          <DateInput
            {...describedField(`${id}-validTo`, errors.validTo)}
            name="validTo"
            className={inputClass(errors.validTo)}
            value={validTo}
            onChange={(event) => setValidTo(event.target.value)}
            data-testid="affiliation-to"
          />
        </FormField>
        <div className="col-auto form-check ms-2 mb-2">
          <input
            id={`${id}-primary`}
            type="checkbox"
            className="form-check-input"
            checked={primary}
            onChange={(event) => setPrimary(event.target.checked)}
            data-testid="affiliation-primary"
          />
          <label className="form-check-label" htmlFor={`${id}-primary`}>
            {t('affiliations.primary')}
          </label>
        </div>
        <div className="col-md-auto d-flex flex-wrap gap-2">
          {onDone ? (
            <button
              type="button"
              className="btn btn-outline-secondary"
              onClick={onDone}
              data-testid="affiliation-cancel"
            >
              {t('actions.cancel')}
            </button>
          ) : null}
          <button type="submit" className="btn btn-primary" disabled={save.isPending} data-testid="affiliation-save">
            <BusyIcon busy={save.isPending} icon={Save} />
            {affiliation ? (ending ? t('affiliations.end') : t('actions.save')) : t('affiliations.save')}
          </button>
        </div>
      </div>
    </form>
  );
}

function Affiliations({ patientId, canWrite }: { patientId: string; canWrite: boolean }) {
  const { t } = useTranslation('payers');
  const day = useCalendarDateFormat();
  const today = useClinicToday();
  const affiliations = useAffiliations(patientId);
  const [open, setOpen] = useState<{ id: string; ending: boolean } | null>(null);
  const rows = affiliations.data?.data ?? [];
  const edited = rows.find((row) => row.id === open?.id);
  const columns: Column<Affiliation>[] = [
    {
      key: 'payer',
      header: t('fields.payer'),
      primary: true,
      cell: (row) => (
        <>
          {row.payerName}{' '}
          {row.primary ? <span className="badge text-bg-primary">{t('affiliations.primary')}</span> : null}
        </>
      ),
    },
    { key: 'plan', header: t('fields.plan'), cell: (row) => row.planName },
    { key: 'member', header: t('fields.member'), cell: (row) => row.memberNumber },
    {
      key: 'validity',
      header: t('fields.validity'),
      cell: (row) => (
        <span data-testid="affiliation-validity">
          {day(row.validFrom)} – {row.validTo ? day(row.validTo) : t('affiliations.open')}
        </span>
      ),
    },
    ...(canWrite
      ? [
          {
            key: 'actions',
            header: <span className="visually-hidden">{t('payers.actions')}</span>,
            className: 'text-end',
            cell: (row: Affiliation) => (
              <div className="d-flex flex-wrap gap-1 justify-content-end">
                <IconButton
                  icon={Pencil}
                  label={t('affiliations.editOf', { payer: row.payerName })}
                  onClick={() => setOpen({ id: row.id, ending: false })}
                  size={14}
                  testId="affiliation-edit"
                />
                {row.validTo === null || row.validTo > today ? (
                  <button
                    type="button"
                    className="btn btn-sm btn-outline-secondary"
                    onClick={() => setOpen({ id: row.id, ending: true })}
                    aria-label={t('affiliations.endOf', { payer: row.payerName })}
                    data-testid="affiliation-end"
                  >
                    {t('affiliations.end')}
                  </button>
                ) : null}
              </div>
            ),
          },
        ]
      : []),
  ];
  return (
    <section className="card mb-3" aria-labelledby="affiliations-title" data-testid="affiliations">
      <div className="card-body">
        <h2 className="h5" id="affiliations-title">
          {t('affiliations.title')}
        </h2>
        {canWrite && !edited ? <AffiliationForm patientId={patientId} /> : null}
        {edited && open ? (
          <AffiliationForm
            key={`${edited.id}-${open.ending}`}
            patientId={patientId}
            affiliation={edited}
            ending={open.ending}
            onDone={() => setOpen(null)}
          />
        ) : null}
      </div>
      <DataTable<Affiliation>
        columns={columns}
        query={affiliations}
        rowKey={(row) => row.id}
        label={t('affiliations.title')}
        emptyText={t('affiliations.empty')}
        compact
        rowProps={() => ({ 'data-testid': 'affiliation-row' })}
      />
    </section>
  );
}

/**
 * Invoicing split with the payer: the patient's attendances not yet invoiced, or (`budgetId`, from
 * the budget's conversion) an accepted budget's lines not yet invoiced — the same preview and engine.
 */
export function SplitInvoice({
  patientId,
  canWrite,
  budgetId,
}: {
  patientId: string;
  canWrite: boolean;
  budgetId?: string;
}) {
  const { t } = useTranslation('payers');
  const id = useId();
  const money = useMoneyFormat();
  const coverage = useCoverage(patientId, budgetId);
  const invoice = useInvoiceWithPayer(patientId);
  const [numbers, setNumbers] = useState<Record<string, string>>({});
  const [result, setResult] = useState<PayerInvoiceResult['data'] | null>(null);
  const data = coverage.data?.data;
  if (!data) return null;
  const preview = splitLines(
    data.lines.map((line) => ({ total: line.total, quantity: line.quantity, rule: line.rule })),
    data.usage,
  );
  const submit = async () => {
    try {
      const answer = await invoice.mutateAsync({
        attendanceIds: null,
        budgetId: budgetId ?? null,
        authorizations: Object.entries(numbers)
          .filter(([, number]) => number.trim() !== '')
          .map(([sourceId, number]) => ({ sourceId, number })),
      });
      toastSuccess(answer.code);
      setResult(answer.data);
      setNumbers({});
    } catch (error) {
      toastApiError(error);
    }
  };
  return (
    <section className="card" aria-labelledby={`${id}-split-title`} data-testid="split-invoice">
      <div className="card-body">
        <h2 className="h5" id={`${id}-split-title`}>
          {budgetId ? t('split.budgetTitle') : t('split.title')}
        </h2>
        {result ? (
          <div className="alert alert-success" data-testid="split-result">
            <p className="mb-1">{t('split.issued')}</p>
            <ul className="mb-0">
              {result.patientInvoiceId ? (
                <li>
                  <Link to={`/sales/view/${result.patientInvoiceId}`} data-testid="split-patient-invoice">
                    {t('split.patientInvoice', { amount: money(result.patientTotal) })}
                  </Link>
                </li>
              ) : null}
              {result.payerInvoiceId ? (
                <li>
                  <Link to={`/sales/view/${result.payerInvoiceId}`} data-testid="split-payer-invoice">
                    {t('split.payerInvoice', { amount: money(result.payerTotal) })}
                  </Link>
                </li>
              ) : null}
            </ul>
          </div>
        ) : null}
        {!data.affiliation ? (
          <p className="text-body-secondary mb-0" data-testid="split-no-affiliation">
            {t('split.noAffiliation')}
          </p>
        ) : data.lines.length === 0 ? (
          <p className="text-body-secondary mb-0" data-testid="split-nothing">
            {t('split.nothing')}
          </p>
        ) : (
          <>
            <p className="text-body-secondary">
              {t('split.intro', { payer: data.affiliation.payerName, member: data.affiliation.memberNumber })}
            </p>
            <section
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a table that scrolls sideways on a phone is reached by keyboard.
              tabIndex={0}
              className="table-responsive"
              style={{ overflowX: 'auto', contain: 'inline-size' }}
              aria-labelledby={`${id}-split-title`}
            >
              <table className="table table-sm align-middle">
                <caption className="visually-hidden">{t('split.title')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('fields.treatment')}</th>
                    <th scope="col" className="text-end">
                      {t('split.lineTotal')}
                    </th>
                    <th scope="col" className="text-end">
                      {t('split.patientPart')}
                    </th>
                    <th scope="col" className="text-end">
                      {t('split.payerPart')}
                    </th>
                    <th scope="col">{t('fields.authorizationNumber')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.lines.map((line, index) => {
                    const parts = preview.lines[index];
                    const needsNumber = line.rule?.authorizationRequired && parts?.payerAmount !== '0.00';
                    return (
                      <tr key={line.sourceId} data-testid="split-line">
                        <td>
                          {line.description}
                          {parts && parts.rounding !== 'exact' && parts.rounding !== 'not_covered' ? (
                            <div className="small text-body-secondary">{t(`rounding.${parts.rounding}`)}</div>
                          ) : null}
                        </td>
                        <td className="text-end text-nowrap">{money(line.total)}</td>
                        <td className="text-end text-nowrap" data-testid="split-patient">
                          {money(parts?.patientAmount)}
                        </td>
                        <td className="text-end text-nowrap" data-testid="split-payer">
                          {money(parts?.payerAmount)}
                        </td>
                        <td>
                          {needsNumber ? (
                            <>
                              <label className="visually-hidden" htmlFor={`${id}-${line.sourceId}`}>
                                {t('split.authorizationFor', { line: line.description })}
                              </label>
                              <input
                                id={`${id}-${line.sourceId}`}
                                className="form-control form-control-sm"
                                required
                                maxLength={40}
                                value={numbers[line.sourceId] ?? ''}
                                onChange={(event) =>
                                  setNumbers((current) => ({ ...current, [line.sourceId]: event.target.value }))
                                }
                                data-testid="split-authorization"
                              />
                            </>
                          ) : (
                            '—'
                          )}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
                <tfoot>
                  <tr className="fw-semibold">
                    <th scope="row">{t('split.totals')}</th>
                    <td />
                    <td className="text-end text-nowrap" data-testid="split-patient-total">
                      {money(preview.patientTotal)}
                    </td>
                    <td className="text-end text-nowrap" data-testid="split-payer-total">
                      {money(preview.payerTotal)}
                    </td>
                    <td />
                  </tr>
                </tfoot>
              </table>
            </section>
            {canWrite ? (
              <button
                type="button"
                className="btn btn-primary"
                disabled={invoice.isPending}
                onClick={() => void submit()}
                data-testid="split-issue"
              >
                <BusyIcon busy={invoice.isPending} icon={Receipt} />
                {t('split.issue')}
              </button>
            ) : null}
          </>
        )}
      </div>
    </section>
  );
}

export function PatientPayerTab({ patient }: { patient: Patient }) {
  const user = useSessionUser();
  const canAffiliate = user ? can(user.level, 'patients.write') : false;
  const canInvoice = user ? can(user.level, 'commercial.write') : false;
  const canRead = user ? can(user.level, 'commercial.read') : false;
  return (
    <div data-testid="patient-payer-tab">
      <Affiliations patientId={patient.id} canWrite={canAffiliate} />
      {canRead ? <SplitInvoice patientId={patient.id} canWrite={canInvoice} /> : null}
    </div>
  );
}
