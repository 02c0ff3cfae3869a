import { normalizeDecimal } from '@odontia/shared/decimal-input';
import { can } from '@odontia/shared/permissions';
import {
  type SettlementBasis,
  type SettlementRuleMethod,
  type SettlementRuleScope,
  settlementBases,
  settlementRuleContracts,
  settlementRuleMethods,
  settlementRuleScopes,
} from '@odontia/shared/schemas/settlements';
import { Calculator, CheckCircle2, Pencil, Plus, Trash2, Wallet } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { BusyIcon } from '../../components/busy-icon';
import { DataTable } from '../../components/data-table';
import { PageTitle } from '../../components/page-title';
import { PdfButton } from '../../components/pdf-button';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useAction } from '../../lib/use-action';
import { useCalendarDateFormat, useClinicToday } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import { useTreatments } from '../agenda/api';
import { useCurrencyFormat } from '../commercial/money-format';
import { useProfessionals } from '../users/professionals';
import {
  type PreviewAnswer,
  type RuleAnswer,
  refreshSettlements,
  rulesApi,
  type SettlementRow,
  settlementsApi,
  usePreview,
  useRules,
  useSettlements,
} from './api';
import './settlements.css';

/**
 * `/settlements` (issue 40): one professional at a time — their rules (a table editor), a period's
 * preview and its confirmation (double-click safe, with the preview's total so a change in
 * between is refused), and the settlements with their PDF and "Pagar" (the provider payment form,
 * prefilled with the payable). Reading needs reports.read; the rules and the confirmation
 * settings.manage; paying commercial.write.
 */
export function SettlementsPage() {
  const { t } = useTranslation(['settlements', 'common']);
  const user = useSessionUser();
  const canManage = user ? can(user.level, 'settings.manage') : false;
  const canPay = user ? can(user.level, 'commercial.write') : false;
  const [params, setParams] = useSearchParams();
  const professionals = useProfessionals();
  const professionalId = params.get('professionalId') ?? '';
  const id = useId();
  const choose = (value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set('professionalId', value);
        else next.delete('professionalId');
        return next;
      },
      { replace: true },
    );
  return (
    <div className="settlements-page d-flex flex-column gap-3">
      <PageTitle title={t('common:pages.settlements')} />
      <p className="text-body-secondary mb-0">{t('intro')}</p>
      <div className="card">
        <div className="card-body d-flex flex-wrap gap-3 align-items-end">
          <div>
            <label htmlFor={`${id}-professional`} className="form-label">
              {t('professional')}
            </label>
            <select
              id={`${id}-professional`}
              className="form-select"
              value={professionalId}
              onChange={(event) => choose(event.target.value)}
              data-testid="settlements-professional"
            >
              <option value="">{t('chooseProfessional')}</option>
              {(professionals.data ?? []).map((professional) => (
                <option key={professional.id} value={professional.id}>
                  {professional.completeName}
                </option>
              ))}
            </select>
          </div>
        </div>
      </div>
      {professionalId ? (
        <>
          <RulesCard professionalId={professionalId} canManage={canManage} />
          {canManage ? <PeriodCard professionalId={professionalId} /> : null}
        </>
      ) : null}
      <SettlementsCard professionalId={professionalId} canPay={canPay} />
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Rules

interface RuleDraft {
  id: string | null;
  version: number;
  scope: SettlementRuleScope;
  treatmentId: string;
  groupName: string;
  method: SettlementRuleMethod;
  value: string;
  basis: SettlementBasis;
  deductLabCost: boolean;
  validFrom: string;
}

const emptyDraft = (today: string): RuleDraft => ({
  id: null,
  version: 1,
  scope: 'default',
  treatmentId: '',
  groupName: '',
  method: 'percentage',
  value: '',
  basis: 'collected',
  deductLabCost: false,
  validFrom: `${today.slice(0, 7)}-01`,
});

const typedValue = (value: string, language: string) => {
  const trimmed = value.replace(/\.00$/, '');
  return language.startsWith('en') ? trimmed : trimmed.replace('.', ',');
};

function RulesCard({ professionalId, canManage }: { professionalId: string; canManage: boolean }) {
  const { t, i18n } = useTranslation(['settlements', 'common']);
  const today = useClinicToday();
  const rules = useRules(professionalId);
  const treatments = useTreatments();
  const money = useCurrencyFormat();
  const day = useCalendarDateFormat();
  const [draft, setDraft] = useState<RuleDraft | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const language = i18n.resolvedLanguage ?? i18n.language;

  const save = useAction({
    // A rule moves no money (no Idempotency-Key); useAction still drops a second click while saving.
    mutationFn: (body: RuleDraft) => {
      const fields = {
        professionalId,
        scope: body.scope,
        treatmentId: body.scope === 'treatment' ? body.treatmentId : null,
        groupName: body.scope === 'group' ? body.groupName : null,
        method: body.method,
        value: normalizeDecimal(body.value) ?? body.value,
        basis: body.basis,
        deductLabCost: body.deductLabCost,
        validFrom: body.validFrom,
      };
      return body.id
        ? rulesApi.update({ params: { id: body.id }, body: { ...fields, version: body.version } })
        : rulesApi.create({ body: fields });
    },
  });
  const remove = useAction({
    mutationFn: (ruleId: string) => rulesApi.remove({ params: { id: ruleId } }),
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!draft) return;
    const checked = settlementRuleContracts.create.safeParse({
      professionalId,
      scope: draft.scope,
      treatmentId: draft.scope === 'treatment' ? draft.treatmentId || null : null,
      groupName: draft.scope === 'group' ? draft.groupName : null,
      method: draft.method,
      value: draft.value,
      basis: draft.basis,
      deductLabCost: draft.deductLabCost,
      validFrom: draft.validFrom,
    });
    if (!checked.success) {
      const found: Record<string, string> = {};
      for (const issue of checked.error.issues) found[String(issue.path[0])] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    try {
      const answer = await save.mutateAsync(draft);
      if (answer.code) toastSuccess(answer.code);
      setDraft(null);
      await refreshSettlements();
    } catch (error) {
      toastApiError(error);
    }
  };

  const edit = (rule: RuleAnswer) =>
    setDraft({
      id: rule.id,
      version: rule.version,
      scope: rule.scope,
      treatmentId: rule.treatmentId ?? '',
      groupName: rule.groupName ?? '',
      method: rule.method,
      value: typedValue(rule.value, language),
      basis: rule.basis,
      deductLabCost: rule.deductLabCost,
      validFrom: rule.validFrom,
    });

  const drop = async (rule: RuleAnswer) => {
    if (!window.confirm(t('rules.confirmDelete'))) return;
    try {
      const answer = await remove.mutateAsync(rule.id);
      toastSuccess(answer.code);
      await refreshSettlements();
    } catch (error) {
      toastApiError(error);
    }
  };

  const target = (rule: RuleAnswer) =>
    rule.scope === 'treatment'
      ? (rule.treatmentName ?? '—')
      : rule.scope === 'group'
        ? t('rules.groupNamed', { group: rule.groupName })
        : t('rules.everything');
  const valueText = (rule: RuleAnswer) =>
    rule.method === 'percentage'
      ? `${new Intl.NumberFormat(language, { maximumFractionDigits: 2 }).format(Number(rule.value))} %`
      : t('rules.perUnit', { amount: money(rule.value) });

  const set = <K extends keyof RuleDraft>(name: K, value: RuleDraft[K]) =>
    setDraft((current) => (current ? { ...current, [name]: value } : current));
  const fieldId = useId();
  const fieldError = (name: string) =>
    errors[name] ? (
      <div className="invalid-feedback d-block" id={`${fieldId}-${name}-error`}>
        {t(`errors.${errors[name]}`, { defaultValue: t('errors.invalid_value') })}
      </div>
    ) : null;
  const invalid = (name: string) =>
    errors[name] ? { 'aria-invalid': true, 'aria-describedby': `${fieldId}-${name}-error` } : {};

  return (
    <section className="card" aria-labelledby={`${fieldId}-rules`} data-testid="settlement-rules">
      <div className="card-header d-flex flex-wrap justify-content-between align-items-center gap-2">
        <h2 className="h6 mb-0" id={`${fieldId}-rules`}>
          {t('rules.title')}
        </h2>
        {canManage && !draft ? (
          <button
            type="button"
            className="btn btn-primary btn-sm"
            onClick={() => setDraft(emptyDraft(today))}
            data-testid="rule-add"
          >
            <Plus size={16} aria-hidden="true" className="me-1" />
            {t('rules.add')}
          </button>
        ) : null}
      </div>
      {draft ? (
        <form
          className="card-body border-bottom"
          noValidate
          onSubmit={(event) => void submit(event)}
          data-testid="rule-form"
        >
          <div className="row g-3">
            <div className="col-sm-6 col-lg-3">
              <label className="form-label" htmlFor={`${fieldId}-scope`}>
                {t('rules.scope')}
              </label>
              <select
                id={`${fieldId}-scope`}
                className="form-select"
                value={draft.scope}
                onChange={(event) => set('scope', event.target.value as SettlementRuleScope)}
              >
                {settlementRuleScopes.map((scope) => (
                  <option key={scope} value={scope}>
                    {t(`rules.scopes.${scope}`)}
                  </option>
                ))}
              </select>
            </div>
            {draft.scope === 'treatment' ? (
              <div className="col-sm-6 col-lg-3">
                <label className="form-label" htmlFor={`${fieldId}-treatmentId`}>
                  {t('rules.treatment')}
                </label>
                <select
                  id={`${fieldId}-treatmentId`}
                  className={`form-select${errors.treatmentId ? ' is-invalid' : ''}`}
                  value={draft.treatmentId}
                  onChange={(event) => set('treatmentId', event.target.value)}
                  {...invalid('treatmentId')}
                >
                  <option value="">{t('rules.chooseTreatment')}</option>
                  {(treatments.data ?? []).map((treatment) => (
                    <option key={treatment.id} value={treatment.id}>
                      {treatment.name}
                    </option>
                  ))}
                </select>
                {fieldError('treatmentId')}
              </div>
            ) : null}
            {draft.scope === 'group' ? (
              <div className="col-sm-6 col-lg-3">
                <label className="form-label" htmlFor={`${fieldId}-groupName`}>
                  {t('rules.group')}
                </label>
                <input
                  id={`${fieldId}-groupName`}
                  className={`form-control${errors.groupName ? ' is-invalid' : ''}`}
                  value={draft.groupName}
                  list={`${fieldId}-groups`}
                  onChange={(event) => set('groupName', event.target.value)}
                  {...invalid('groupName')}
                />
                <datalist id={`${fieldId}-groups`}>
                  {[...new Set((treatments.data ?? []).flatMap((treatment) => treatment.groupName ?? []))].map(
                    (group) => (
                      <option key={group} value={group} />
                    ),
                  )}
                </datalist>
                {fieldError('groupName')}
              </div>
            ) : null}
            <div className="col-sm-6 col-lg-3">
              <label className="form-label" htmlFor={`${fieldId}-method`}>
                {t('rules.method')}
              </label>
              <select
                id={`${fieldId}-method`}
                className="form-select"
                value={draft.method}
                onChange={(event) => set('method', event.target.value as SettlementRuleMethod)}
              >
                {settlementRuleMethods.map((method) => (
                  <option key={method} value={method}>
                    {t(`rules.methods.${method}`)}
                  </option>
                ))}
              </select>
            </div>
            <div className="col-sm-6 col-lg-3">
              <label className="form-label" htmlFor={`${fieldId}-value`}>
                {draft.method === 'percentage' ? t('rules.percentage') : t('rules.amount')}
              </label>
              <input
                id={`${fieldId}-value`}
                className={`form-control text-end${errors.value ? ' is-invalid' : ''}`}
                inputMode="decimal"
                value={draft.value}
                onChange={(event) => set('value', event.target.value)}
                data-testid="rule-value"
                {...invalid('value')}
              />
              {fieldError('value')}
            </div>
            <div className="col-sm-6 col-lg-3">
              <label className="form-label" htmlFor={`${fieldId}-basis`}>
                {t('rules.basis')}
              </label>
              <select
                id={`${fieldId}-basis`}
                className="form-select"
                value={draft.basis}
                onChange={(event) => set('basis', event.target.value as SettlementBasis)}
              >
                {settlementBases.map((basis) => (
                  <option key={basis} value={basis}>
                    {t(`rules.bases.${basis}`)}
                  </option>
                ))}
              </select>
            </div>
            <div className="col-sm-6 col-lg-3">
              <label className="form-label" htmlFor={`${fieldId}-validFrom`}>
                {t('rules.validFrom')}
              </label>
              <input
                id={`${fieldId}-validFrom`}
                type="date"
                className={`form-control${errors.validFrom ? ' is-invalid' : ''}`}
                value={draft.validFrom}
                onChange={(event) => set('validFrom', event.target.value)}
                {...invalid('validFrom')}
              />
              {fieldError('validFrom')}
            </div>
            <div className="col-sm-6 col-lg-3 d-flex align-items-end">
              <div className="form-check mb-2">
                <input
                  id={`${fieldId}-lab`}
                  type="checkbox"
                  className="form-check-input"
                  checked={draft.deductLabCost}
                  onChange={(event) => set('deductLabCost', event.target.checked)}
                />
                <label className="form-check-label" htmlFor={`${fieldId}-lab`}>
                  {t('rules.deductLabCost')}
                </label>
              </div>
            </div>
          </div>
          <div className="d-flex gap-2 mt-3">
            <button type="submit" className="btn btn-primary" disabled={save.isPending} data-testid="rule-save">
              <BusyIcon busy={save.isPending} icon={CheckCircle2} />
              {t('rules.save')}
            </button>
            <button type="button" className="btn btn-outline-secondary" onClick={() => setDraft(null)}>
              {t('rules.cancel')}
            </button>
          </div>
        </form>
      ) : null}
      <DataTable<RuleAnswer>
        label={t('rules.title')}
        compact
        columns={[
          { key: 'target', header: t('rules.appliesTo'), cell: target, primary: true },
          { key: 'value', header: t('rules.value'), cell: valueText },
          { key: 'basis', header: t('rules.basis'), cell: (rule) => t(`rules.bases.${rule.basis}`) },
          {
            key: 'lab',
            header: t('rules.lab'),
            cell: (rule) => (rule.deductLabCost ? t('rules.labDeducted') : t('rules.labNot')),
          },
          { key: 'validFrom', header: t('rules.validFrom'), cell: (rule) => day(rule.validFrom) },
          ...(canManage
            ? [
                {
                  key: 'actions',
                  header: <span className="visually-hidden">{t('rules.actions')}</span>,
                  className: 'text-end text-nowrap',
                  cell: (rule: RuleAnswer) => (
                    <>
                      <button
                        type="button"
                        className="btn btn-sm btn-outline-secondary me-1"
                        onClick={() => edit(rule)}
                        aria-label={t('rules.editNamed', { target: target(rule) })}
                      >
                        <Pencil size={14} aria-hidden="true" />
                      </button>
                      <button
                        type="button"
                        className="btn btn-sm btn-outline-danger"
                        onClick={() => void drop(rule)}
                        disabled={remove.isPending}
                        aria-label={t('rules.deleteNamed', { target: target(rule) })}
                      >
                        <Trash2 size={14} aria-hidden="true" />
                      </button>
                    </>
                  ),
                },
              ]
            : []),
        ]}
        query={rules}
        rowKey={(rule) => rule.id}
        emptyText={t('rules.empty')}
        emptyTestId="rules-empty"
      />
    </section>
  );
}

// ---------------------------------------------------------------------------------------------
// A period: preview and confirm

function lastMonth(today: string): { from: string; to: string } {
  const [year = 2000, month = 1] = today.split('-').map(Number);
  const first = new Date(Date.UTC(year, month - 2, 1));
  const last = new Date(Date.UTC(year, month - 1, 0));
  return { from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
}

function PeriodCard({ professionalId }: { professionalId: string }) {
  const { t } = useTranslation(['settlements', 'common']);
  const today = useClinicToday();
  const [period, setPeriod] = useState(() => lastMonth(today));
  const [asked, setAsked] = useState<{ professionalId: string; from: string; to: string } | null>(null);
  const preview = usePreview(asked && asked.professionalId === professionalId ? asked : null);
  const money = useCurrencyFormat();
  const day = useCalendarDateFormat();
  const fieldId = useId();
  const confirm = useAction({
    mutationFn: (shown: PreviewAnswer, idempotencyKey) =>
      settlementsApi.confirm({
        body: { professionalId: shown.professionalId, from: shown.from, to: shown.to, expectedTotal: shown.total },
        idempotencyKey,
      }),
  });
  const run = async (shown: PreviewAnswer) => {
    try {
      const answer = await confirm.mutateAsync(shown);
      if (answer.code) toastSuccess(answer.code);
      setAsked(null);
      await refreshSettlements();
    } catch (error) {
      toastApiError(error);
      await preview.refetch();
    }
  };
  const shown = preview.data;
  type Line = PreviewAnswer['lines'][number];
  return (
    <section className="card" aria-labelledby={`${fieldId}-period`} data-testid="settlement-period">
      <div className="card-header">
        <h2 className="h6 mb-0" id={`${fieldId}-period`}>
          {t('period.title')}
        </h2>
      </div>
      <form
        className="card-body d-flex flex-wrap gap-3 align-items-end"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setAsked({ professionalId, ...period });
        }}
      >
        <div>
          <label className="form-label" htmlFor={`${fieldId}-from`}>
            {t('period.from')}
          </label>
          <input
            id={`${fieldId}-from`}
            type="date"
            className="form-control"
            value={period.from}
            onChange={(event) => setPeriod((current) => ({ ...current, from: event.target.value }))}
            data-testid="period-from"
          />
        </div>
        <div>
          <label className="form-label" htmlFor={`${fieldId}-to`}>
            {t('period.to')}
          </label>
          <input
            id={`${fieldId}-to`}
            type="date"
            className="form-control"
            value={period.to}
            onChange={(event) => setPeriod((current) => ({ ...current, to: event.target.value }))}
            data-testid="period-to"
          />
        </div>
        <button type="submit" className="btn btn-outline-primary" data-testid="period-preview">
          <BusyIcon busy={preview.isFetching} icon={Calculator} />
          {t('period.preview')}
        </button>
      </form>
      {preview.isError ? (
        <div className="card-body pt-0">
          <div className="alert alert-danger mb-0" role="alert">
            {t('period.previewFailed')}
          </div>
        </div>
      ) : null}
      {shown ? (
        <div className="card-body border-top" data-testid="settlement-preview">
          <dl className="row mb-3 settlement-totals">
            <div className="col-6 col-md-3">
              <dt className="small text-body-secondary fw-normal">{t('totals.base')}</dt>
              <dd className="mb-0">{money(shown.baseTotal, shown.currency)}</dd>
            </div>
            <div className="col-6 col-md-3">
              <dt className="small text-body-secondary fw-normal">{t('totals.labCost')}</dt>
              <dd className="mb-0">{money(shown.labCostTotal, shown.currency)}</dd>
            </div>
            <div className="col-6 col-md-3">
              <dt className="small text-body-secondary fw-normal">{t('totals.adjustments')}</dt>
              <dd className="mb-0">{money(shown.adjustmentTotal, shown.currency)}</dd>
            </div>
            <div className="col-6 col-md-3">
              <dt className="small text-body-secondary fw-normal">{t('totals.total')}</dt>
              <dd className="mb-0 fw-bold fs-5" data-testid="preview-total">
                {money(shown.total, shown.currency)}
              </dd>
            </div>
          </dl>
          {shown.overlaps ? (
            <div className="alert alert-warning" role="status">
              {t('period.overlaps')}
            </div>
          ) : null}
          {shown.lineCount > shown.lines.length ? (
            <p className="small text-body-secondary">
              {t('period.firstLines', { shown: shown.lines.length, count: shown.lineCount })}
            </p>
          ) : null}
          <DataTable<Line>
            label={t('period.lines')}
            compact
            columns={[
              { key: 'description', header: t('lines.treatment'), cell: (line) => line.description, primary: true },
              { key: 'date', header: t('lines.date'), cell: (line) => day(line.sourceDate) },
              {
                key: 'document',
                header: t('lines.document'),
                cell: (line) => {
                  const [type = '', number = ''] = line.documentLabel.split(':');
                  return `${t(`documentTypes.${type}`, { defaultValue: type })} ${number}`;
                },
              },
              { key: 'patient', header: t('lines.patient'), cell: (line) => line.patientName ?? '—' },
              {
                key: 'source',
                header: t('lines.source'),
                cell: (line) => (
                  <>
                    {t(`sources.${line.sourceKind}`)}
                    {line.kind === 'adjustment' ? (
                      <span className="badge text-bg-warning ms-1">{t('lines.adjustment')}</span>
                    ) : null}
                  </>
                ),
              },
              {
                key: 'base',
                header: t('lines.base'),
                className: 'text-end',
                cell: (line) => money(line.base, shown.currency),
              },
              {
                key: 'lab',
                header: t('lines.labCost'),
                className: 'text-end',
                cell: (line) => money(line.labCost, shown.currency),
              },
              {
                key: 'amount',
                header: t('lines.amount'),
                className: 'text-end',
                cell: (line) => money(line.amount, shown.currency),
              },
            ]}
            query={{
              data: { data: shown.lines, total: shown.lines.length },
              isPending: false,
              isError: false,
              isFetching: preview.isFetching,
              refetch: preview.refetch,
            }}
            rowKey={(line) => `${line.sourceKind}:${line.sourceId}:${line.documentLineId}`}
            emptyText={t('period.empty')}
          />
          <div className="d-flex flex-wrap gap-2 align-items-center mt-3">
            <button
              type="button"
              className="btn btn-primary"
              disabled={confirm.isPending || shown.lineCount === 0 || shown.overlaps || Number(shown.total) < 0}
              onClick={() => void run(shown)}
              data-testid="settlement-confirm"
            >
              <BusyIcon busy={confirm.isPending} icon={CheckCircle2} />
              {t('period.confirm', { total: money(shown.total, shown.currency) })}
            </button>
            {Number(shown.total) < 0 ? <span className="text-body-secondary small">{t('period.negative')}</span> : null}
          </div>
        </div>
      ) : null}
    </section>
  );
}

// ---------------------------------------------------------------------------------------------
// The settlements

const pageSize = 20;

function SettlementsCard({ professionalId, canPay }: { professionalId: string; canPay: boolean }) {
  const { t } = useTranslation(['settlements', 'common']);
  const [page, setPage] = useState(1);
  const list = useSettlements(professionalId, page, pageSize);
  const money = useCurrencyFormat();
  const day = useCalendarDateFormat();
  const fieldId = useId();
  const statusBadge = (row: SettlementRow) => {
    const tone =
      row.status === 'paid'
        ? 'text-bg-success'
        : row.status === 'pending'
          ? 'text-bg-warning'
          : row.status === 'partially_paid'
            ? 'text-bg-info'
            : 'text-bg-secondary';
    return <span className={`badge ${tone}`}>{t(`status.${row.status}`)}</span>;
  };
  return (
    <section className="card" aria-labelledby={`${fieldId}-list`} data-testid="settlements-list">
      <div className="card-header">
        <h2 className="h6 mb-0" id={`${fieldId}-list`}>
          {t('list.title')}
        </h2>
      </div>
      <DataTable<SettlementRow>
        label={t('list.title')}
        columns={[
          { key: 'number', header: t('list.number'), cell: (row) => row.number, primary: true },
          { key: 'professional', header: t('professional'), cell: (row) => row.professionalName },
          {
            key: 'period',
            header: t('list.period'),
            cell: (row) => `${day(row.periodFrom)} – ${day(row.periodTo)}`,
          },
          {
            key: 'total',
            header: t('list.total'),
            className: 'text-end',
            cell: (row) => money(row.total, row.currency),
          },
          {
            key: 'open',
            header: t('list.open'),
            className: 'text-end',
            cell: (row) => money(row.openAmount, row.currency),
          },
          { key: 'status', header: t('list.status'), cell: statusBadge },
          {
            key: 'actions',
            header: <span className="visually-hidden">{t('list.actions')}</span>,
            className: 'text-end text-nowrap',
            cell: (row) => (
              <div className="d-inline-flex gap-1">
                <PdfButton
                  small
                  load={() => settlementsApi.pdf({ params: { id: row.id } })}
                  fallbackName={`${row.number}.pdf`}
                  label={t('list.pdf')}
                  testId={`settlement-pdf-${row.number}`}
                />
                {canPay && row.documentId && Number(row.openAmount) > 0 ? (
                  <Link
                    className="btn btn-sm btn-primary"
                    to={`/payments/create?${new URLSearchParams({
                      providerId: row.providerId,
                      documentId: row.documentId,
                      amount: row.openAmount,
                    }).toString()}`}
                    data-testid={`settlement-pay-${row.number}`}
                  >
                    <Wallet size={14} aria-hidden="true" className="me-1" />
                    {t('list.pay')}
                  </Link>
                ) : null}
              </div>
            ),
          },
        ]}
        query={list}
        rowKey={(row) => row.id}
        emptyText={t('list.empty')}
        emptyTestId="settlements-empty"
        pagination={{ page, pageSize, onPage: setPage, onlyWhenNeeded: true }}
      />
    </section>
  );
}
