import { normalizeDecimal } from '@odontia/shared/decimal-input';
import type { PaymentMethod } from '@odontia/shared/enums';
import { paymentMethods } from '@odontia/shared/enums';
import type { CashSession } from '@odontia/shared/schemas/cash-registers';
import { manualCashMovementKinds } from '@odontia/shared/schemas/cash-registers';
import { Lock, LockOpen, Plus } from 'lucide-react';
import { type FormEvent, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BusyIcon } from '../../components/busy-icon';
import { type Column, DataTable } from '../../components/data-table';
import { FormDialog } from '../../components/dialog-frame';
import { FormField, fieldCodeText, inputClass } from '../../components/form-field';
import { PdfButton } from '../../components/pdf-button';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useInstantFormat } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import { fromCents, toCents, useCurrencyFormat } from '../commercial/money-format';
import {
  cashApi,
  lastRegister,
  useAddMovement,
  useCashRegisters,
  useCashSessions,
  useCloseSession,
  useOpenSession,
  useRegisterState,
  useSessionMovements,
} from './api';

/**
 * `/cash` (Caja, issue 40): the front desk's register. Pick the register; open it with the cash
 * counted in the drawer (the carried balance proposed, the difference shown as you type); follow
 * the session's movements live; add a manual income, expense or withdrawal with its reason; close
 * it counting each method (expected and difference as you type; a difference needs an
 * explanation); the closings with their Z report.
 */

/** Cents of a typed amount ("12.500,50" → 1250050), NaN when it is not one. */
const typedCents = (value: string) => (value.trim() === '' ? Number.NaN : toCents(normalizeDecimal(value) ?? value));

function useMoney() {
  const user = useSessionUser();
  const format = useCurrencyFormat();
  return (amount: string | null | undefined) => format(amount, user?.account.currency ?? null);
}

export function CashPage() {
  const { t } = useTranslation('cash');
  const id = useId();
  const registers = useCashRegisters();
  const active = useMemo(() => (registers.data?.data ?? []).filter((row) => row.active), [registers.data]);
  const [registerId, setRegisterId] = useState(lastRegister.get);
  useEffect(() => {
    if (active.length > 0 && !active.some((row) => row.id === registerId)) setRegisterId(active[0]?.id ?? '');
  }, [active, registerId]);
  const choose = (value: string) => {
    setRegisterId(value);
    lastRegister.set(value);
  };

  return (
    <div className="d-flex flex-column gap-3" data-testid="cash-page">
      <div className="d-flex flex-wrap align-items-end gap-3">
        <h1 className="h3 mb-0 me-auto">{t('title')}</h1>
        {active.length > 0 ? (
          <div>
            <label htmlFor={`${id}-register`} className="form-label mb-1">
              {t('register')}
            </label>
            <select
              id={`${id}-register`}
              className="form-select"
              value={registerId}
              onChange={(event) => choose(event.target.value)}
              data-testid="cash-register-select"
            >
              {active.map((row) => (
                <option key={row.id} value={row.id}>
                  {row.name}
                </option>
              ))}
            </select>
          </div>
        ) : null}
      </div>
      {registers.isPending ? (
        <p className="text-body-secondary">{t('loading')}</p>
      ) : registers.isError ? (
        <div className="alert alert-danger">{t('loadError')}</div>
      ) : active.length === 0 ? (
        <div className="alert alert-info" data-testid="cash-no-registers">
          {t('noRegisters')} <Link to="/settings/cash-registers">{t('manageRegisters')}</Link>
        </div>
      ) : registerId ? (
        <RegisterPanel key={registerId} registerId={registerId} />
      ) : null}
    </div>
  );
}

function RegisterPanel({ registerId }: { registerId: string }) {
  const { t } = useTranslation('cash');
  const state = useRegisterState(registerId);
  if (state.isPending) return <p className="text-body-secondary">{t('loading')}</p>;
  if (state.isError) return <div className="alert alert-danger">{t('loadError')}</div>;
  const { session, carriedBalance, lastClosing } = state.data;
  return (
    <>
      {session ? (
        <OpenSession session={session} hasPrevious={lastClosing !== null} />
      ) : (
        <OpenForm registerId={registerId} carriedBalance={carriedBalance} lastClosing={lastClosing?.number ?? null} />
      )}
      <Closings registerId={registerId} />
    </>
  );
}

function OpenForm({
  registerId,
  carriedBalance,
  lastClosing,
}: {
  registerId: string;
  carriedBalance: string;
  lastClosing: string | null;
}) {
  const { t } = useTranslation('cash');
  const id = useId();
  const money = useMoney();
  const open = useOpenSession(registerId);
  const [float, setFloat] = useState(carriedBalance);
  const [notes, setNotes] = useState('');
  const cents = typedCents(float);
  const difference = Number.isNaN(cents) ? null : cents - toCents(carriedBalance);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const answer = await open.mutateAsync({ openingFloat: float, notes: notes.trim() || undefined });
      toastSuccess(answer.code ?? 'cash_session_opened');
    } catch (error) {
      toastApiError(error);
    }
  };
  return (
    <form className="card" noValidate onSubmit={(event) => void submit(event)} data-testid="cash-open-form">
      <div className="card-body">
        <h2 className="h5">
          <span className="badge text-bg-secondary me-2" data-testid="cash-state">
            {t('closed')}
          </span>
          {t('openTitle')}
        </h2>
        <p className="text-body-secondary">
          {lastClosing ? t('carried', { amount: money(carriedBalance), number: lastClosing }) : t('firstOpening')}
        </p>
        <div className="row g-3">
          <FormField id={`${id}-float`} label={t('openingFloat')} className="col-sm-6 col-lg-4">
            <input
              id={`${id}-float`}
              className={inputClass(undefined)}
              inputMode="decimal"
              autoComplete="off"
              value={float}
              onChange={(event) => setFloat(event.target.value)}
              data-testid="cash-opening-float"
            />
          </FormField>
          <FormField id={`${id}-notes`} label={t('openingNotes')} className="col-sm-6 col-lg-8">
            <input
              id={`${id}-notes`}
              className={inputClass(undefined)}
              maxLength={500}
              value={notes}
              onChange={(event) => setNotes(event.target.value)}
            />
          </FormField>
        </div>
        {lastClosing && difference !== null && difference !== 0 ? (
          <p className="text-warning-emphasis mb-0" data-testid="cash-opening-difference">
            {t('openingDifference', { amount: money(fromCents(difference)) })}
          </p>
        ) : null}
      </div>
      <div className="card-footer d-flex justify-content-end">
        <button type="submit" className="btn btn-primary" disabled={open.isPending} data-testid="cash-open">
          <BusyIcon busy={open.isPending} icon={LockOpen} />
          {t('open')}
        </button>
      </div>
    </form>
  );
}

function OpenSession({ session, hasPrevious }: { session: CashSession; hasPrevious: boolean }) {
  const { t } = useTranslation(['cash', 'payments']);
  const money = useMoney();
  const at = useInstantFormat();
  const [dialog, setDialog] = useState<'movement' | 'close' | null>(null);
  return (
    <>
      <section className="card" aria-labelledby="cash-open-title" data-testid="cash-session">
        <div className="card-body">
          <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
            <h2 id="cash-open-title" className="h5 mb-0 me-auto">
              <span className="badge text-bg-success me-2" data-testid="cash-state">
                {t('isOpen')}
              </span>
              {session.registerName}
            </h2>
            <button
              type="button"
              className="btn btn-outline-primary"
              onClick={() => setDialog('movement')}
              data-testid="cash-manual"
            >
              <Plus size={16} aria-hidden="true" className="me-1" />
              {t('manualMovement')}
            </button>
            <PdfButton
              load={() => cashApi.zReport({ params: { id: session.id } })}
              fallbackName="caja.pdf"
              label={t('partialReport')}
              testId="cash-partial-report"
            />
            <button
              type="button"
              className="btn btn-danger"
              onClick={() => setDialog('close')}
              data-testid="cash-close"
            >
              <Lock size={16} aria-hidden="true" className="me-1" />
              {t('close')}
            </button>
          </div>
          <p className="text-body-secondary small mb-3">
            {t('openedBy', { at: at(session.openedAt), name: session.openedByName ?? '—' })} ·{' '}
            {t('floatWas', { amount: money(session.openingFloat) })}
            {hasPrevious && session.openingDifference !== '0.00'
              ? ` · ${t('openingDifference', { amount: money(session.openingDifference) })}`
              : ''}
          </p>
          <div className="table-responsive position-relative">
            <table className="table table-sm align-middle mb-0" data-testid="cash-methods">
              <caption className="visually-hidden">{t('byMethod')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('method')}</th>
                  <th scope="col" className="text-end">
                    {t('income')}
                  </th>
                  <th scope="col" className="text-end">
                    {t('outgo')}
                  </th>
                  <th scope="col" className="text-end">
                    {t('expected')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {session.methods.map((row) => (
                  <tr key={row.method} data-testid={`cash-method-${row.method}`}>
                    <th scope="row" className="fw-normal">
                      {t(`payments:methods.${row.method}`)}
                    </th>
                    <td className="text-end">{money(row.income)}</td>
                    <td className="text-end">{money(row.outgo)}</td>
                    <td className="text-end fw-semibold">{money(row.expected)}</td>
                  </tr>
                ))}
                {session.methods.length === 0 ? (
                  <tr>
                    <td colSpan={4} className="text-body-secondary">
                      {t('noMovements')}
                    </td>
                  </tr>
                ) : null}
              </tbody>
            </table>
          </div>
        </div>
      </section>
      <Movements sessionId={session.id} />
      {dialog === 'movement' ? <MovementDialog sessionId={session.id} onDone={() => setDialog(null)} /> : null}
      {dialog === 'close' ? <CloseDialog session={session} onDone={() => setDialog(null)} /> : null}
    </>
  );
}

type MovementRow = NonNullable<ReturnType<typeof useSessionMovements>['data']>['data'][number];
type ClosingRow = NonNullable<ReturnType<typeof useCashSessions>['data']>['data'][number];

const movementsPageSize = 20;
const closingsPageSize = 10;

function Movements({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation(['cash', 'payments']);
  const money = useMoney();
  const at = useInstantFormat('time');
  const [page, setPage] = useState(1);
  const movements = useSessionMovements(sessionId, page);
  const columns: Column<MovementRow>[] = [
    { key: 'time', header: t('time'), cell: (row) => at(row.createdAt) },
    { key: 'kind', header: t('kind'), primary: true, cell: (row) => t(`kinds.${row.kind}`) },
    { key: 'method', header: t('method'), cell: (row) => t(`payments:methods.${row.method}`) },
    {
      key: 'detail',
      header: t('detail'),
      className: 'text-break',
      cell: (row) => (row.kind === 'opening' ? t('kinds.opening') : row.description),
    },
    {
      key: 'amount',
      header: t('amount'),
      className: 'text-end',
      cell: (row) => (
        <span className={row.amount.startsWith('-') ? 'text-danger-emphasis' : ''}>{money(row.amount)}</span>
      ),
    },
  ];
  return (
    <section className="card" aria-labelledby="cash-movements-title">
      <div className="card-body pb-0">
        <h2 id="cash-movements-title" className="h5">
          {t('movements')}
        </h2>
      </div>
      <DataTable<MovementRow>
        className="table-sm"
        compact
        label={t('movements')}
        emptyText={t('noMovements')}
        columns={columns}
        query={movements}
        rowKey={(row) => row.id}
        rowProps={() => ({ 'data-testid': 'cash-movement' })}
        pagination={{ page, pageSize: movementsPageSize, onPage: setPage, onlyWhenNeeded: true }}
      />
    </section>
  );
}

function MovementDialog({ sessionId, onDone }: { sessionId: string; onDone: () => void }) {
  const { t } = useTranslation(['cash', 'payments']);
  const id = useId();
  const add = useAddMovement(sessionId);
  const [kind, setKind] = useState<(typeof manualCashMovementKinds)[number]>('income');
  const [method, setMethod] = useState<PaymentMethod>('cash_payment');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ amount?: string; reason?: string }>({});
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const cents = typedCents(amount);
    const found = {
      ...(Number.isNaN(cents)
        ? { amount: amount.trim() ? 'invalid_number' : 'required' }
        : cents <= 0
          ? { amount: 'too_small' }
          : {}),
      ...(reason.trim() ? {} : { reason: 'required' }),
    };
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      const answer = await add.mutateAsync({ kind, method, amount, reason: reason.trim() });
      toastSuccess(answer.code ?? 'cash_movement_created');
      onDone();
    } catch (error) {
      toastApiError(error);
    }
  };
  return (
    <FormDialog
      ref={{ current: null }}
      onHide={onDone}
      onSubmit={(event) => void submit(event)}
      testId="cash-movement-form"
      title={t('manualMovement')}
      closeLabel={t('closeDialog')}
      cancelLabel={t('cancel')}
      submit={{ label: t('save'), busy: add.isPending, disabled: add.isPending, testId: 'cash-movement-save' }}
    >
      <fieldset disabled={add.isPending}>
        <FormField id={`${id}-kind`} label={t('kind')}>
          <select
            id={`${id}-kind`}
            className="form-select"
            value={kind}
            onChange={(event) => setKind(event.target.value as typeof kind)}
            data-testid="cash-movement-kind"
          >
            {manualCashMovementKinds.map((value) => (
              <option key={value} value={value}>
                {t(`kinds.${value}`)}
              </option>
            ))}
          </select>
        </FormField>
        <FormField id={`${id}-method`} label={t('method')}>
          <select
            id={`${id}-method`}
            className="form-select"
            value={method}
            onChange={(event) => setMethod(event.target.value as PaymentMethod)}
          >
            {paymentMethods.map((value) => (
              <option key={value} value={value}>
                {t(`payments:methods.${value}`)}
              </option>
            ))}
          </select>
        </FormField>
        <FormField id={`${id}-amount`} label={t('amount')} error={errors.amount}>
          <input
            id={`${id}-amount`}
            className={inputClass(errors.amount)}
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
            aria-invalid={Boolean(errors.amount)}
            aria-describedby={errors.amount ? `${id}-amount-error` : undefined}
            data-testid="cash-movement-amount"
          />
        </FormField>
        <FormField id={`${id}-reason`} label={t('reason')} error={errors.reason}>
          <input
            id={`${id}-reason`}
            className={inputClass(errors.reason)}
            maxLength={200}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            aria-invalid={Boolean(errors.reason)}
            aria-describedby={errors.reason ? `${id}-reason-error` : undefined}
            data-testid="cash-movement-reason"
          />
        </FormField>
      </fieldset>
    </FormDialog>
  );
}

function CloseDialog({ session, onDone }: { session: CashSession; onDone: () => void }) {
  const { t } = useTranslation(['cash', 'payments']);
  const id = useId();
  const money = useMoney();
  const close = useCloseSession(session.id);
  const [counted, setCounted] = useState<Record<string, string>>({});
  const [explanation, setExplanation] = useState('');
  const [errors, setErrors] = useState<{ explanation?: string; counted?: Record<string, string> }>({});
  const rows = session.methods.map((row) => {
    const typed = counted[row.method] ?? '';
    const cents = typedCents(typed);
    return {
      ...row,
      typed,
      difference: Number.isNaN(cents) ? null : cents - toCents(row.expected),
    };
  });
  const differs = rows.some((row) => row.difference !== null && row.difference !== 0);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const countedErrors: Record<string, string> = {};
    for (const row of rows)
      if (row.difference === null) countedErrors[row.method] = row.typed.trim() ? 'invalid_number' : 'required';
    const found = {
      ...(Object.keys(countedErrors).length ? { counted: countedErrors } : {}),
      ...(differs && !explanation.trim() ? { explanation: 'required' } : {}),
    };
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      const answer = await close.mutateAsync({
        version: session.version,
        counted: rows.map((row) => ({ method: row.method, amount: row.typed })),
        explanation: explanation.trim() || undefined,
      });
      toastSuccess(answer.code ?? 'cash_session_closed');
      onDone();
    } catch (error) {
      toastApiError(error);
    }
  };
  return (
    <FormDialog
      ref={{ current: null }}
      onHide={onDone}
      onSubmit={(event) => void submit(event)}
      testId="cash-close-form"
      title={t('closeTitle', { register: session.registerName })}
      closeLabel={t('closeDialog')}
      cancelLabel={t('cancel')}
      size="lg"
      submit={{
        label: t('confirmClose'),
        busy: close.isPending,
        disabled: close.isPending,
        testId: 'cash-close-confirm',
      }}
    >
      <fieldset disabled={close.isPending}>
        <p className="text-body-secondary">{t('closeIntro')}</p>
        <div className="table-responsive position-relative">
          <table className="table table-sm align-middle">
            <thead>
              <tr>
                <th scope="col">{t('method')}</th>
                <th scope="col" className="text-end">
                  {t('expected')}
                </th>
                <th scope="col">{t('counted')}</th>
                <th scope="col" className="text-end">
                  {t('difference')}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const error = errors.counted?.[row.method];
                const label = t('countedOf', { method: t(`payments:methods.${row.method}`) });
                return (
                  <tr key={row.method}>
                    <th scope="row" className="fw-normal">
                      {t(`payments:methods.${row.method}`)}
                    </th>
                    <td className="text-end">{money(row.expected)}</td>
                    <td>
                      <input
                        id={`${id}-${row.method}`}
                        className={`${inputClass(error)} text-end`}
                        inputMode="decimal"
                        autoComplete="off"
                        aria-label={label}
                        aria-invalid={Boolean(error)}
                        value={row.typed}
                        onChange={(event) =>
                          setCounted((current) => ({ ...current, [row.method]: event.target.value }))
                        }
                        data-testid={`cash-count-${row.method}`}
                      />
                      {error ? <div className="invalid-feedback d-block">{fieldCodeText(error)}</div> : null}
                    </td>
                    <td
                      className={`text-end ${row.difference ? 'text-danger-emphasis fw-semibold' : ''}`}
                      data-testid={`cash-difference-${row.method}`}
                    >
                      {row.difference === null ? '—' : money(fromCents(row.difference))}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        <FormField
          id={`${id}-explanation`}
          label={differs ? `${t('explanation')} *` : t('explanation')}
          error={errors.explanation}
          hint={t('explanationHint')}
        >
          <textarea
            id={`${id}-explanation`}
            className={inputClass(errors.explanation)}
            rows={2}
            maxLength={1000}
            value={explanation}
            onChange={(event) => {
              setExplanation(event.target.value);
              if (event.target.value.trim()) setErrors((current) => ({ ...current, explanation: undefined }));
            }}
            aria-invalid={Boolean(errors.explanation)}
            aria-describedby={errors.explanation ? `${id}-explanation-error` : `${id}-explanation-hint`}
            data-testid="cash-explanation"
          />
        </FormField>
      </fieldset>
    </FormDialog>
  );
}

function Closings({ registerId }: { registerId: string }) {
  const { t } = useTranslation('cash');
  const money = useMoney();
  const at = useInstantFormat();
  const [page, setPage] = useState(1);
  const closings = useCashSessions({ registerId, status: 'closed', page, pageSize: closingsPageSize });
  const columns: Column<ClosingRow>[] = [
    {
      key: 'number',
      header: t('number'),
      primary: true,
      cell: (row) => <span className="font-monospace">{row.number}</span>,
    },
    {
      key: 'closedAt',
      header: t('closedAt'),
      cell: (row) => (
        <>
          {at(row.closedAt)}
          <div className="small text-body-secondary">{row.closedByName}</div>
        </>
      ),
    },
    { key: 'expected', header: t('expected'), className: 'text-end', cell: (row) => money(row.expectedTotal) },
    { key: 'counted', header: t('counted'), className: 'text-end', cell: (row) => money(row.countedTotal) },
    {
      key: 'difference',
      header: t('difference'),
      className: 'text-end',
      cell: (row) => (
        <span className={row.differenceTotal !== '0.00' ? 'text-danger-emphasis fw-semibold' : ''}>
          {money(row.differenceTotal)}
        </span>
      ),
    },
    {
      key: 'explanation',
      header: t('explanation'),
      className: 'text-break small',
      cell: (row) => row.explanation ?? '',
    },
    {
      key: 'zReport',
      header: <span className="visually-hidden">{t('zReport')}</span>,
      className: 'text-end',
      cell: (row) => (
        <PdfButton
          load={() => cashApi.zReport({ params: { id: row.id } })}
          fallbackName={`${row.number ?? 'Z'}.pdf`}
          label={t('zReportOf', { number: row.number })}
          small
          testId="cash-z-report"
        />
      ),
    },
  ];
  return (
    <section className="card" aria-labelledby="cash-closings-title">
      <div className="card-body pb-0">
        <h2 id="cash-closings-title" className="h5">
          {t('closings')}
        </h2>
      </div>
      <DataTable<ClosingRow>
        className="table-sm"
        compact
        label={t('closings')}
        emptyText={t('noClosings')}
        columns={columns}
        query={closings}
        rowKey={(row) => row.id}
        rowProps={() => ({ 'data-testid': 'cash-closing' })}
        pagination={{ page, pageSize: closingsPageSize, onPage: setPage, onlyWhenNeeded: true }}
      />
    </section>
  );
}
