import { decimalSeparatorOf } from '@odontia/shared/decimal-input';
import { can } from '@odontia/shared/permissions';
import {
  type CoverageRule,
  coverageLimitKinds,
  coverageModes,
  type Payer,
  type PayerInput,
  type PayerPlan,
  payerContracts,
  payerKinds,
} from '@odontia/shared/schemas/payers';
import { Pencil, Plus, Save, Trash2 } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BusyIcon } from '../../components/busy-icon';
import { DeleteRowButton } from '../../components/confirm-delete';
import { type Column, DataTable } from '../../components/data-table';
import { FieldCells } from '../../components/field-cells';
import { describedField, FormField, inputClass } from '../../components/form-field';
import { IconButton } from '../../components/icon-button';
import { PageTitle } from '../../components/page-title';
import { ValueOptions } from '../../components/value-options';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useFormErrors } from '../../lib/form-errors';
import { placeStateErrors } from '../../lib/state-form-errors';
import { useZodForm } from '../../lib/use-zod-form';
import { useSessionUser } from '../../session/session';
import { useMoneyFormat, useNumberFormat } from '../inventory/format';
import { usePayers, usePlans, useRemovePlan, useSavePayer, useSavePlan, useTreatments } from './api';

/**
 * `/payers` (issue 40): the clinic's obras sociales, prepagas, mutuas and insurers; for the one
 * chosen, its plans with their coverage rules (by treatment, by group of the price list, or the
 * rest: a percentage, a fixed amount or a copay, an annual limit, authorization required).
 */

/**
 * A form kept in React state: a refusal that names fields shows under them (the first one revealed),
 * anything else as a toast.
 */
function useStateErrors() {
  const formErrors = useFormErrors();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const report = (error: unknown) => {
    if (!placeStateErrors(error, setErrors, formErrors.reveal)) toastApiError(error);
  };
  const forget = (prefix: string) =>
    setErrors((current) => Object.fromEntries(Object.entries(current).filter(([path]) => !path.startsWith(prefix))));
  return { ref: formErrors.ref, errors, report, forget, clear: () => setErrors({}) };
}

const newPayer: PayerInput = { kind: 'obra_social', name: '', code: '', taxId: '', paymentTermDays: '30' };

function PayerForm({ onSaved }: { onSaved: (payer: Payer) => void }) {
  const { t } = useTranslation('payers');
  const save = useSavePayer();
  const form = useZodForm(payerContracts.create, newPayer);
  const onSubmit = form.submit(async (body) => {
    try {
      const answer = await save.mutateAsync({ id: null, body });
      toastSuccess(answer.code ?? 'payer_created');
      form.reset(newPayer);
      onSaved(answer.data);
    } catch (error) {
      if (!form.formErrors.place(error, form.setError)) toastApiError(error);
    }
  });
  return (
    <form
      ref={form.formErrors.ref}
      noValidate
      className="card mb-4"
      onSubmit={(event) => void onSubmit(event)}
      data-testid="payer-form"
    >
      <div className="card-body">
        <h2 className="h5">{t('payers.new')}</h2>
        <div className="row g-2 align-items-end">
          <FieldCells
            form={form}
            fields={[
              {
                cell: 'col-md-2',
                name: 'kind',
                label: t('fields.kind'),
                options: payerKinds.map((value) => ({ value, label: t(`kinds.${value}`) })),
              },
              {
                cell: 'col-md-4',
                name: 'name',
                label: t('fields.name'),
                required: true,
                maxLength: 120,
                testId: 'payer-name',
              },
              { cell: 'col-md-2', name: 'code', label: t('fields.code'), maxLength: 30 },
              { cell: 'col-md-2', name: 'taxId', label: t('fields.taxId'), maxLength: 20 },
              { cell: 'col-md-1', name: 'paymentTermDays', label: t('fields.term'), inputMode: 'numeric' },
            ]}
          />
          <div className="col-md-1">
            <button type="submit" className="btn btn-primary w-100" disabled={save.isPending} data-testid="payer-save">
              <BusyIcon busy={save.isPending} icon={Save} />
              {t('actions.save')}
            </button>
          </div>
        </div>
      </div>
    </form>
  );
}

interface RuleDraft {
  target: string;
  mode: (typeof coverageModes)[number];
  value: string;
  limitKind: 'none' | 'sessions' | 'amount';
  limitValue: string;
  authorizationRequired: boolean;
}
const emptyRule: RuleDraft = {
  target: '*',
  mode: 'percentage',
  value: '',
  limitKind: 'none',
  limitValue: '',
  authorizationRequired: false,
};

/** A stored decimal ('12500.50') as people type it in the interface language ('12500,50' but in English). */
function useDecimalInput(): (value: string) => string {
  const { i18n } = useTranslation();
  const separator = decimalSeparatorOf(i18n.resolvedLanguage ?? i18n.language ?? 'es');
  return (value) => value.replace(/\.00$/, '').replace('.', separator);
}

/** A stored rule as the form edits it (its amounts as people type them in the interface language). */
function draftOf(rule: CoverageRule, decimal: (value: string) => string): RuleDraft {
  return {
    target: rule.treatmentId ? `t:${rule.treatmentId}` : rule.treatmentGroup ? `g:${rule.treatmentGroup}` : '*',
    mode: rule.mode,
    value: decimal(rule.value),
    limitKind: rule.limitKind,
    limitValue:
      rule.limitValue === null
        ? ''
        : rule.limitKind === 'sessions'
          ? rule.limitValue.replace(/\.00$/, '')
          : decimal(rule.limitValue),
    authorizationRequired: rule.authorizationRequired,
  };
}

/** A new plan, or the plan being edited (`plan`): its name and its coverage rules. */
function PlanForm({ payerId, plan, onDone }: { payerId: string; plan?: PayerPlan; onDone?: () => void }) {
  const { t } = useTranslation('payers');
  const id = useId();
  const decimal = useDecimalInput();
  const save = useSavePlan(payerId);
  const problems = useStateErrors();
  const treatments = useTreatments();
  const groups = [...new Set((treatments.data?.data ?? []).flatMap((row) => (row.groupName ? [row.groupName] : [])))];
  const [name, setName] = useState(plan?.name ?? '');
  const [rules, setRules] = useState<RuleDraft[]>(
    plan ? plan.rules.map((rule) => draftOf(rule, decimal)) : [{ ...emptyRule }],
  );
  const change = (index: number, patch: Partial<RuleDraft>) => {
    setRules((current) => current.map((rule, at) => (at === index ? { ...rule, ...patch } : rule)));
    // What the server refused of this rule goes once the rule changes.
    problems.forget(`rules.${index}.`);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const answer = await save.mutateAsync({
        id: plan?.id ?? null,
        ...(plan ? { version: plan.version } : {}),
        body: {
          name,
          code: plan?.code ?? null,
          active: plan?.active ?? true,
          rules: rules.map((rule) => ({
            treatmentId: rule.target.startsWith('t:') ? rule.target.slice(2) : null,
            treatmentGroup: rule.target.startsWith('g:') ? rule.target.slice(2) : null,
            mode: rule.mode,
            value: rule.value,
            limitKind: rule.limitKind,
            limitValue: rule.limitKind === 'none' ? null : rule.limitValue,
            authorizationRequired: rule.authorizationRequired,
          })),
        },
      });
      toastSuccess(answer.code ?? (plan ? 'payer_plan_updated' : 'payer_plan_created'));
      problems.clear();
      if (onDone) onDone();
      else {
        setName('');
        setRules([{ ...emptyRule }]);
      }
    } catch (error) {
      problems.report(error);
    }
  };
  const ruleField = (index: number, name: keyof RuleDraft | 'treatmentId') => {
    const error = problems.errors[`rules.${index}.${name}`];
    return { id: `${id}-${index}-${name}`, error, className: `${ruleCells[name] ?? 'col-md-2'}` };
  };
  return (
    <form
      ref={problems.ref}
      className="border rounded p-3 mb-3"
      onSubmit={(event) => void submit(event)}
      aria-label={plan ? t('plans.editOf', { name: plan.name }) : t('plans.new')}
      data-testid={plan ? 'plan-edit-form' : 'plan-form'}
    >
      <h3 className="h6">{plan ? t('plans.editOf', { name: plan.name }) : t('plans.new')}</h3>
      <FormField id={`${id}-name`} label={t('fields.planName')} error={problems.errors.name} className="mb-2 col-md-4">
        <input
          {...describedField(`${id}-name`, problems.errors.name)}
          className={inputClass(problems.errors.name)}
          value={name}
          required
          maxLength={120}
          onChange={(event) => setName(event.target.value)}
          data-testid="plan-name"
        />
      </FormField>
      {rules.map((rule, index) => {
        const value = ruleField(index, 'value');
        const limitValue = ruleField(index, 'limitValue');
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the rows are positions of the form.
          <fieldset key={index} className="row g-2 align-items-end mb-2" data-testid="rule-row">
            <legend className="visually-hidden">{t('plans.rule', { n: index + 1 })}</legend>
            <FormField {...ruleField(index, 'target')} label={t('fields.target')}>
              <select
                id={`${id}-${index}-target`}
                className="form-select"
                value={rule.target}
                onChange={(event) => change(index, { target: event.target.value })}
                data-testid="rule-target"
              >
                <option value="*">{t('plans.everythingElse')}</option>
                {groups.map((group) => (
                  <option key={group} value={`g:${group}`}>
                    {t('plans.group', { group })}
                  </option>
                ))}
                {(treatments.data?.data ?? []).map((row) => (
                  <option key={row.id} value={`t:${row.id}`}>
                    {row.code ? `${row.code} · ${row.name}` : row.name}
                  </option>
                ))}
              </select>
            </FormField>
            <FormField {...ruleField(index, 'mode')} label={t('fields.mode')}>
              <select
                id={`${id}-${index}-mode`}
                className="form-select"
                value={rule.mode}
                onChange={(event) => change(index, { mode: event.target.value as RuleDraft['mode'] })}
                data-testid="rule-mode"
              >
                <ValueOptions values={coverageModes} label={(mode) => t(`modes.${mode}`)} />
              </select>
            </FormField>
            <FormField {...value} label={t(`valueOf.${rule.mode}`)}>
              <input
                {...describedField(value.id, value.error)}
                className={inputClass(value.error)}
                inputMode="decimal"
                value={rule.value}
                required
                onChange={(event) => change(index, { value: event.target.value })}
                data-testid="rule-value"
              />
            </FormField>
            <FormField {...ruleField(index, 'limitKind')} label={t('fields.limit')}>
              <select
                id={`${id}-${index}-limitKind`}
                className="form-select"
                value={rule.limitKind}
                onChange={(event) => change(index, { limitKind: event.target.value as RuleDraft['limitKind'] })}
                data-testid="rule-limit"
              >
                <ValueOptions values={coverageLimitKinds} label={(kind) => t(`limits.${kind}`)} />
              </select>
            </FormField>
            <FormField {...limitValue} label={t('fields.limitValue')}>
              <input
                {...describedField(limitValue.id, limitValue.error)}
                className={inputClass(limitValue.error)}
                inputMode="decimal"
                disabled={rule.limitKind === 'none'}
                value={rule.limitValue}
                onChange={(event) => change(index, { limitValue: event.target.value })}
                data-testid="rule-limit-value"
              />
            </FormField>
            <div className="col-auto form-check ms-2 mb-2">
              <input
                id={`${id}-${index}-auth`}
                type="checkbox"
                className="form-check-input"
                checked={rule.authorizationRequired}
                onChange={(event) => change(index, { authorizationRequired: event.target.checked })}
                data-testid="rule-authorization"
              />
              <label className="form-check-label" htmlFor={`${id}-${index}-auth`}>
                {t('fields.authorization')}
              </label>
            </div>
            <div className="col-auto">
              <IconButton
                icon={Trash2}
                className="btn btn-outline-danger"
                label={t('plans.removeRule', { n: index + 1 })}
                onClick={() => setRules((current) => current.filter((_, at) => at !== index))}
              />
            </div>
          </fieldset>
        );
      })}
      <div className="d-flex flex-wrap gap-2">
        <button
          type="button"
          className="btn btn-outline-secondary"
          onClick={() => setRules((current) => [...current, { ...emptyRule }])}
          data-testid="rule-add"
        >
          <Plus size={16} aria-hidden="true" className="me-1" />
          {t('plans.addRule')}
        </button>
        {onDone ? (
          <button type="button" className="btn btn-outline-secondary" onClick={onDone} data-testid="plan-cancel">
            {t('actions.cancel')}
          </button>
        ) : null}
        <button type="submit" className="btn btn-primary" disabled={save.isPending} data-testid="plan-save">
          <BusyIcon busy={save.isPending} icon={Save} />
          {t('plans.save')}
        </button>
      </div>
    </form>
  );
}

/** The Bootstrap cell of each field of a rule's row. */
const ruleCells: Partial<Record<keyof RuleDraft | 'treatmentId', string>> = {
  target: 'col-md-3',
  limitValue: 'col-md-1',
};

function RuleText({ rule }: { rule: PayerPlan['rules'][number] }) {
  const { t } = useTranslation('payers');
  const money = useMoneyFormat();
  const number = useNumberFormat();
  // A percentage and a count of sessions read as numbers of the interface language ("70 %", "2").
  const value = rule.mode === 'percentage' ? `${number(Number(rule.value))} %` : money(rule.value);
  const limit = rule.limitKind === 'amount' ? money(rule.limitValue) : number(Number(rule.limitValue));
  return (
    <>
      {t(`modes.${rule.mode}`)} {value}
      {rule.limitKind !== 'none' ? ` · ${t(`limitText.${rule.limitKind}`, { value: limit })}` : ''}
      {rule.authorizationRequired ? ` · ${t('fields.authorization')}` : ''}
    </>
  );
}

function PlanCard({
  payerId,
  plan,
  canWrite,
  canDelete,
}: {
  payerId: string;
  plan: PayerPlan;
  canWrite: boolean;
  canDelete: boolean;
}) {
  const { t } = useTranslation('payers');
  const [editing, setEditing] = useState(false);
  const remove = useRemovePlan(payerId, plan.id);
  if (editing) return <PlanForm payerId={payerId} plan={plan} onDone={() => setEditing(false)} />;
  return (
    <div className="mb-3" data-testid="plan">
      <div className="d-flex align-items-center gap-2 mb-1">
        <h3 className="h6 mb-0 me-auto">{plan.name}</h3>
        {canWrite ? (
          <IconButton
            icon={Pencil}
            label={t('plans.edit', { name: plan.name })}
            onClick={() => setEditing(true)}
            size={14}
            testId="plan-edit"
          />
        ) : null}
        {canDelete ? (
          <DeleteRowButton
            remove={remove}
            label={t('plans.delete', { name: plan.name })}
            title={t('plans.delete', { name: plan.name })}
            testId="plan-delete"
          >
            {t('plans.deleteText', { name: plan.name })}
          </DeleteRowButton>
        ) : null}
      </div>
      <table className="table table-sm">
        <caption className="visually-hidden">{t('plans.rulesOf', { name: plan.name })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('fields.target')}</th>
            <th scope="col">{t('fields.coverage')}</th>
          </tr>
        </thead>
        <tbody>
          {plan.rules.map((rule) => (
            <tr key={rule.id}>
              <td>
                {rule.treatmentName ??
                  (rule.treatmentGroup ? t('plans.group', { group: rule.treatmentGroup }) : t('plans.everythingElse'))}
              </td>
              <td data-testid="plan-rule">
                <RuleText rule={rule} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Plans({ payer, canWrite, canDelete }: { payer: Payer; canWrite: boolean; canDelete: boolean }) {
  const { t } = useTranslation('payers');
  const plans = usePlans(payer.id);
  return (
    <section className="card" aria-labelledby="plans-title" data-testid="plans">
      <div className="card-body">
        <h2 className="h5" id="plans-title">
          {t('plans.title', { name: payer.name })}
        </h2>
        {canWrite ? <PlanForm payerId={payer.id} /> : null}
        {(plans.data?.data ?? []).length === 0 ? (
          <p className="text-body-secondary mb-0">{t('plans.empty')}</p>
        ) : (
          (plans.data?.data ?? []).map((plan) => (
            <PlanCard key={plan.id} payerId={payer.id} plan={plan} canWrite={canWrite} canDelete={canDelete} />
          ))
        )}
      </div>
    </section>
  );
}

export function PayersPage() {
  const { t } = useTranslation(['payers', 'common']);
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'commercial.write') : false;
  const canDelete = user ? can(user.level, 'commercial.delete') : false;
  const payers = usePayers();
  const [chosen, setChosen] = useState<string | null>(null);
  const selected = (payers.data?.data ?? []).find((row) => row.id === chosen) ?? null;
  const columns: Column<Payer>[] = [
    { key: 'name', header: t('fields.name'), primary: true, className: 'fw-semibold', cell: (row) => row.name },
    { key: 'kind', header: t('fields.kind'), cell: (row) => t(`kinds.${row.kind}`) },
    { key: 'code', header: t('fields.code'), cell: (row) => row.code ?? '—' },
    { key: 'term', header: t('fields.term'), cell: (row) => t('payers.days', { count: row.paymentTermDays }) },
    {
      key: 'actions',
      header: <span className="visually-hidden">{t('payers.actions')}</span>,
      className: 'text-end',
      cell: (row) => (
        <button
          type="button"
          className={`btn btn-sm btn-outline-primary${row.id === chosen ? ' active' : ''}`}
          onClick={() => setChosen(row.id)}
          aria-pressed={row.id === chosen}
          data-testid="payer-plans"
        >
          {t('payers.plans')}
          <span className="visually-hidden"> {t('payers.ofPayer', { name: row.name })}</span>
        </button>
      ),
    },
  ];
  return (
    <>
      <PageTitle title={t('common:pages.payers')} />
      <p className="text-body-secondary">{t('payers.intro')}</p>
      {canWrite ? <PayerForm onSaved={(payer) => setChosen(payer.id)} /> : null}
      <section className="card mb-4" data-testid="payers-list">
        <DataTable<Payer>
          columns={columns}
          query={payers}
          rowKey={(row) => row.id}
          label={t('common:pages.payers')}
          emptyText={t('payers.empty')}
          rowProps={() => ({ 'data-testid': 'payer-row' })}
        />
      </section>
      {selected ? <Plans payer={selected} canWrite={canWrite} canDelete={canDelete} /> : null}
    </>
  );
}
