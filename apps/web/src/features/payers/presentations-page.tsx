import { can } from '@odontia/shared/permissions';
import type { Presentation, SplitLine } from '@odontia/shared/schemas/payers';
import { Ban, Check, FileSpreadsheet, HandCoins, PackagePlus, Send } from 'lucide-react';
import { type FormEvent, Fragment, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BusyIcon } from '../../components/busy-icon';
import { type Column, DataTable } from '../../components/data-table';
import { FormField } from '../../components/form-field';
import { JobProgress } from '../../components/job-progress';
import { PageTitle } from '../../components/page-title';
import { PdfButton } from '../../components/pdf-button';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { saveFile } from '../../lib/save-file';
import { useCalendarDateFormat, useCalendarMonthFormat, useClinicToday } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import { useMoneyFormat } from '../inventory/format';
import {
  presentationFile,
  useCreatePresentation,
  usePayPresentation,
  usePresentationLines,
  usePresentationStep,
  usePresentations,
  useReject,
} from './api';
import { PayerSelect } from './payer-select';

/**
 * `/payer-presentations` (issue 40): the monthly presentations to the payers (liquidación a la obra
 * social). Build one (a background job: its progress shows until it is a draft), print it as PDF
 * or download it as XLSX, mark it sent and accepted, record the payer's rejections (débitos) per
 * line — back to the patient or to a loss — and its payment.
 */

function BuildForm() {
  const { t } = useTranslation('payers');
  const id = useId();
  const today = useClinicToday();
  const build = useCreatePresentation();
  const [payerId, setPayerId] = useState('');
  const [month, setMonth] = useState(today.slice(0, 7));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const answer = await build.mutateAsync({ payerId, period: `${month}-01` });
      toastSuccess(answer.code ?? 'payer_presentation_created');
    } catch (error) {
      toastApiError(error);
    }
  };
  return (
    <form className="card mb-4" onSubmit={(event) => void submit(event)} data-testid="presentation-form">
      <div className="card-body">
        <h2 className="h5">{t('presentations.build')}</h2>
        <div className="row g-2 align-items-end">
          <FormField id={`${id}-payer`} label={t('fields.payer')} className="col-md-5">
            <PayerSelect id={`${id}-payer`} value={payerId} onChange={setPayerId} testId="presentation-payer" />
          </FormField>
          <FormField id={`${id}-month`} label={t('fields.period')} className="col-md-3">
            <input
              id={`${id}-month`}
              type="month"
              className="form-control"
              required
              value={month}
              onChange={(event) => setMonth(event.target.value)}
              data-testid="presentation-month"
            />
          </FormField>
          <div className="col-md-4">
            <button
              type="submit"
              className="btn btn-primary"
              disabled={build.isPending}
              data-testid="presentation-build"
            >
              <BusyIcon busy={build.isPending} icon={PackagePlus} />
              {t('presentations.buildButton')}
            </button>
          </div>
        </div>
      </div>
    </form>
  );
}

function RejectForm({
  presentation,
  line,
  onDone,
}: {
  presentation: Presentation;
  line: SplitLine;
  onDone: () => void;
}) {
  const { t } = useTranslation('payers');
  const id = useId();
  const reject = useReject();
  const [amount, setAmount] = useState(line.payerAmount.replace('.', ','));
  const [reason, setReason] = useState('');
  const [destination, setDestination] = useState<'patient' | 'loss'>('patient');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const answer = await reject.mutateAsync({
        id: presentation.id,
        body: { splitLineId: line.id, amount, reason, destination },
      });
      toastSuccess(answer.code ?? 'payer_rejection_recorded');
      onDone();
    } catch (error) {
      toastApiError(error);
    }
  };
  return (
    <form className="row g-2 align-items-end" onSubmit={(event) => void submit(event)} data-testid="rejection-form">
      <div className="col-md-2">
        <label className="form-label" htmlFor={`${id}-amount`}>
          {t('fields.amount')}
        </label>
        <input
          id={`${id}-amount`}
          className="form-control"
          inputMode="decimal"
          required
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          data-testid="rejection-amount"
        />
      </div>
      <div className="col-md-5">
        <label className="form-label" htmlFor={`${id}-reason`}>
          {t('fields.reason')}
        </label>
        <input
          id={`${id}-reason`}
          className="form-control"
          required
          maxLength={500}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          data-testid="rejection-reason"
        />
      </div>
      <div className="col-md-3">
        <label className="form-label" htmlFor={`${id}-destination`}>
          {t('fields.destination')}
        </label>
        <select
          id={`${id}-destination`}
          className="form-select"
          value={destination}
          onChange={(event) => setDestination(event.target.value as 'patient' | 'loss')}
          data-testid="rejection-destination"
        >
          <option value="patient">{t('destinations.patient')}</option>
          <option value="loss">{t('destinations.loss')}</option>
        </select>
      </div>
      <div className="col-md-2">
        <button type="submit" className="btn btn-danger" disabled={reject.isPending} data-testid="rejection-save">
          <BusyIcon busy={reject.isPending} icon={Ban} />
          {t('presentations.recordRejection')}
        </button>
      </div>
    </form>
  );
}

function Lines({ presentation, canReject }: { presentation: Presentation; canReject: boolean }) {
  const { t } = useTranslation('payers');
  const money = useMoneyFormat();
  const day = useCalendarDateFormat();
  const lines = usePresentationLines(presentation.id);
  const [rejecting, setRejecting] = useState<string | null>(null);
  const open = ['sent', 'accepted', 'partially_accepted'].includes(presentation.status);
  return (
    <section className="card mt-3" aria-labelledby="lines-title" data-testid="presentation-lines">
      <div className="card-body">
        <h2 className="h5" id="lines-title">
          {t('presentations.linesOf', { number: presentation.number, payer: presentation.payerName })}
        </h2>
        <section
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a table that scrolls sideways on a phone is reached by keyboard.
          tabIndex={0}
          className="table-responsive"
          style={{ overflowX: 'auto', contain: 'inline-size' }}
          aria-labelledby="lines-title"
        >
          <table className="table table-sm align-middle">
            <caption className="visually-hidden">{t('presentations.linesCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('fields.date')}</th>
                <th scope="col">{t('fields.member')}</th>
                <th scope="col">{t('fields.patient')}</th>
                <th scope="col">{t('fields.treatment')}</th>
                <th scope="col">{t('fields.authorizationNumber')}</th>
                <th scope="col" className="text-end">
                  {t('fields.amount')}
                </th>
                <th scope="col">{t('fields.rejection')}</th>
              </tr>
            </thead>
            <tbody>
              {(lines.data?.data ?? []).map((line) => (
                <Fragment key={line.id}>
                  <tr data-testid="presentation-line">
                    <td className="text-nowrap">{day(line.date)}</td>
                    <td>{line.memberNumber}</td>
                    <td>{line.patientName}</td>
                    <td>
                      {line.treatmentCode ? `${line.treatmentCode} · ` : ''}
                      {line.description}
                    </td>
                    <td>{line.authorizationNumber ?? '—'}</td>
                    <td className="text-end text-nowrap">{money(line.payerAmount)}</td>
                    <td>
                      {line.rejection ? (
                        <span data-testid="line-rejection">
                          {t('presentations.rejected', {
                            amount: money(line.rejection.amount),
                            destination: t(`destinations.${line.rejection.destination}`),
                          })}
                        </span>
                      ) : open && canReject ? (
                        <button
                          type="button"
                          className="btn btn-sm btn-outline-danger"
                          onClick={() => setRejecting(rejecting === line.id ? null : line.id)}
                          aria-expanded={rejecting === line.id}
                          data-testid="line-reject"
                        >
                          {t('presentations.reject')}
                        </button>
                      ) : (
                        '—'
                      )}
                    </td>
                  </tr>
                  {rejecting === line.id ? (
                    <tr>
                      <td colSpan={7}>
                        <RejectForm presentation={presentation} line={line} onDone={() => setRejecting(null)} />
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              ))}
            </tbody>
          </table>
        </section>
      </div>
    </section>
  );
}

/** The step a presentation takes next on its button: a draft is sent, a sent one accepted. */
const nextSteps: Partial<
  Record<
    Presentation['status'],
    { step: 'send' | 'accept'; icon: typeof Send; label: 'presentations.markSent' | 'presentations.markAccepted' }
  >
> = {
  draft: { step: 'send', icon: Send, label: 'presentations.markSent' },
  sent: { step: 'accept', icon: Check, label: 'presentations.markAccepted' },
};

function Actions({ presentation, canWrite }: { presentation: Presentation; canWrite: boolean }) {
  const { t } = useTranslation('payers');
  const today = useClinicToday();
  const step = usePresentationStep();
  const pay = usePayPresentation();
  const run = async (work: () => Promise<{ code?: string | undefined }>) => {
    try {
      const answer = await work();
      if (answer.code) toastSuccess(answer.code);
    } catch (error) {
      toastApiError(error);
    }
  };
  if (presentation.status === 'building') return null;
  const next = nextSteps[presentation.status];
  return (
    <div className="d-flex flex-wrap gap-1 justify-content-end">
      <PdfButton
        small
        icon="download"
        label="PDF"
        fallbackName={`presentacion-${presentation.number}.pdf`}
        load={() => presentationFile(presentation.id, 'pdf')}
        testId="presentation-pdf"
      />
      <button
        type="button"
        className="btn btn-sm btn-outline-secondary"
        onClick={() =>
          void presentationFile(presentation.id, 'xlsx')
            .then((file) => saveFile(file.blob, file.fileName ?? `presentacion-${presentation.number}.xlsx`))
            .catch(toastApiError)
        }
        data-testid="presentation-xlsx"
      >
        <FileSpreadsheet size={16} aria-hidden="true" className="me-1" />
        XLSX
      </button>
      {canWrite && next ? (
        <button
          type="button"
          className="btn btn-sm btn-outline-primary"
          disabled={step.isPending}
          onClick={() =>
            void run(() => step.mutateAsync({ id: presentation.id, step: next.step, version: presentation.version }))
          }
          data-testid={`presentation-${next.step}`}
        >
          <BusyIcon busy={step.isPending} icon={next.icon} />
          {t(next.label)}
        </button>
      ) : null}
      {canWrite && ['accepted', 'partially_accepted'].includes(presentation.status) ? (
        <button
          type="button"
          className="btn btn-sm btn-outline-success"
          disabled={pay.isPending}
          onClick={() =>
            void run(() =>
              pay.mutateAsync({
                id: presentation.id,
                body: { version: presentation.version, date: today, method: 'bank_transfer' },
              }),
            )
          }
          data-testid="presentation-pay"
        >
          <BusyIcon busy={pay.isPending} icon={HandCoins} />
          {t('presentations.recordPayment')}
        </button>
      ) : null}
    </div>
  );
}

export function PayerPresentationsPage() {
  const { t } = useTranslation(['payers', 'common']);
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'commercial.write') : false;
  const canReject = user ? can(user.level, 'commercial.delete') : false;
  const money = useMoneyFormat();
  const month = useCalendarMonthFormat();
  const [page, setPage] = useState(1);
  const presentations = usePresentations(page);
  const [shown, setShown] = useState<string | null>(null);
  const selected = (presentations.data?.data ?? []).find((row) => row.id === shown) ?? null;
  const columns: Column<Presentation>[] = [
    {
      key: 'payer',
      header: t('fields.payer'),
      primary: true,
      className: 'fw-semibold',
      cell: (row) => t('presentations.numbered', { number: row.number, payer: row.payerName }),
    },
    {
      key: 'period',
      header: t('fields.period'),
      cell: (row) => <span data-testid="presentation-period">{month(row.period)}</span>,
    },
    {
      key: 'status',
      header: t('fields.status'),
      cell: (row) =>
        row.status === 'building' ? (
          <JobProgress
            label={t('presentations.building')}
            progress={row.progress}
            showPercent
            testId="presentation-progress"
          />
        ) : (
          <span className="badge text-bg-light border" data-testid="presentation-status">
            {t(`statuses.${row.status}`)}
          </span>
        ),
    },
    {
      key: 'total',
      header: t('fields.total'),
      className: 'text-end text-nowrap',
      cell: (row) => (
        <>
          {money(row.total)}
          <div className="small text-body-secondary">{t('presentations.lineCount', { count: row.lineCount })}</div>
        </>
      ),
    },
    {
      key: 'rejected',
      header: t('fields.rejectedTotal'),
      className: 'text-end text-nowrap',
      cell: (row) => (
        <>
          <span className="d-md-none">{t('fields.rejectedTotal')}: </span>
          {money(row.rejectedTotal)}
        </>
      ),
    },
    {
      key: 'actions',
      header: <span className="visually-hidden">{t('payers.actions')}</span>,
      cell: (row) => (
        <div className="d-flex flex-wrap gap-1 justify-content-md-end">
          <Actions presentation={row} canWrite={canWrite} />
          {row.status !== 'building' ? (
            <button
              type="button"
              className="btn btn-sm btn-outline-secondary"
              onClick={() => setShown(shown === row.id ? null : row.id)}
              aria-expanded={shown === row.id}
              data-testid="presentation-show-lines"
            >
              {t('presentations.showLines')}
            </button>
          ) : null}
        </div>
      ),
    },
  ];
  return (
    <>
      <PageTitle title={t('common:pages.payerPresentations')} />
      <p className="text-body-secondary">{t('presentations.intro')}</p>
      {canWrite ? <BuildForm /> : null}
      <section className="card" data-testid="presentations-list">
        <DataTable<Presentation>
          columns={columns}
          query={presentations}
          rowKey={(row) => row.id}
          label={t('common:pages.payerPresentations')}
          emptyText={t('presentations.empty')}
          rowProps={() => ({ 'data-testid': 'presentation-row' })}
          pagination={{ page, pageSize: 20, onPage: setPage, onlyWhenNeeded: true }}
        />
      </section>
      {selected ? <Lines presentation={selected} canReject={canReject} /> : null}
    </>
  );
}
