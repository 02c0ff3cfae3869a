import { can } from '@odontia/shared/permissions';
import type { BillableAttendance } from '@odontia/shared/schemas/budgets';
import type { Patient } from '@odontia/shared/schemas/patients';
import { FilePlus2, Receipt } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { BusyButton } from '../../components/busy-button';
import { CaptionedTable } from '../../components/captioned-table';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useInstantFormat } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import { useDocumentMoney } from '../commercial/money-format';
import { saleViewPath, useInvoiceDraft, usePatientBilling } from './budgets-api';

/**
 * "Facturación" in a patient's medical history (issue 18): what is not yet invoiced — each
 * billable attendance with its fee and lines, the accepted budgets' pending lines — with
 * "Facturar esta atención" and "Facturar todo lo pendiente" (an invoice draft, opened at once).
 */

function useInvoiceAction(patientId: string) {
  const navigate = useNavigate();
  const draft = useInvoiceDraft(patientId);
  const run = async (attendanceIds: string[] | null) => {
    try {
      const answer = await draft.mutateAsync(attendanceIds);
      toastSuccess(answer.code);
      void navigate(saleViewPath(answer.data.id));
    } catch (error) {
      toastApiError(error);
    }
  };
  return { run, busy: draft.isPending, variables: draft.variables };
}

/** The attendance view's button: an invoice draft of what of this attendance is not yet invoiced. */
export function InvoiceAttendanceButton({ patientId, attendanceId }: { patientId: string; attendanceId: string }) {
  const { t } = useTranslation('budgets');
  const user = useSessionUser();
  const action = useInvoiceAction(patientId);
  if (!user || !can(user.level, 'commercial.write')) return null;
  return (
    <BusyButton
      className="btn btn-outline-primary btn-sm"
      icon={Receipt}
      busy={action.busy}
      onClick={() => void action.run([attendanceId])}
      testId="invoice-attendance"
    >
      {t('billing.invoiceAttendance')}
    </BusyButton>
  );
}

function AttendanceCard({
  attendance,
  currency,
  canWrite,
  action,
}: {
  attendance: BillableAttendance;
  currency: Parameters<ReturnType<typeof useDocumentMoney>>[1];
  canWrite: boolean;
  action: ReturnType<typeof useInvoiceAction>;
}) {
  const { t } = useTranslation('budgets');
  const format = useDocumentMoney();
  const when = useInstantFormat();
  const busy = action.busy && action.variables?.[0] === attendance.id;
  const headingId = `billing-${attendance.id}`;
  return (
    <li className="card" data-testid="billing-attendance" aria-labelledby={headingId}>
      <div className="card-body d-flex flex-column gap-2">
        <div className="d-flex flex-wrap gap-2 align-items-start">
          <div className="me-auto">
            <h3 className="h6 mb-0" id={headingId}>
              {attendance.titleResume}
            </h3>
            <div className="small text-body-secondary">
              {when(attendance.date)}
              {attendance.professionalName ? ` · ${attendance.professionalName}` : null}
              {attendance.finished ? null : ` · ${t('billing.open')}`}
            </div>
          </div>
          {canWrite ? (
            <BusyButton
              className="btn btn-outline-primary btn-sm"
              icon={Receipt}
              busy={busy}
              disabled={action.busy}
              onClick={() => void action.run([attendance.id])}
              testId="billing-invoice-one"
            >
              {t('billing.invoiceAttendance')}
            </BusyButton>
          ) : null}
        </div>
        <CaptionedTable
          className="table table-sm mb-0"
          caption={t('billing.piecesCaption', { title: attendance.titleResume })}
          head={[
            { label: t('billing.description') },
            { label: t('billing.tooth') },
            { label: t('billing.quantity'), className: 'text-end' },
            { label: t('billing.unitPrice'), className: 'text-end' },
            { label: t('billing.vat'), className: 'text-end' },
            { label: t('billing.total'), className: 'text-end' },
          ]}
        >
          <tbody>
            {attendance.pieces.map((piece) => (
              <tr key={`${piece.kind}-${piece.sourceId}`}>
                <td>
                  {piece.kind === 'attendance_fee' ? t('billing.fee', { title: piece.description }) : piece.description}
                </td>
                <td>{piece.tooth ?? '—'}</td>
                <td className="text-end">{String(Number.parseFloat(piece.quantity))}</td>
                <td className="text-end text-nowrap">{format(piece.unitPrice, currency)}</td>
                <td className="text-end">{`${Number.parseFloat(piece.vatRate)} %`}</td>
                <td className="text-end text-nowrap">{format(piece.total, currency)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={5}>
                {t('billing.attendanceTotal')}
              </th>
              <td className="text-end fw-semibold text-nowrap">{format(attendance.total, currency)}</td>
            </tr>
          </tfoot>
        </CaptionedTable>
      </div>
    </li>
  );
}

export function PatientBillingTab({ patient }: { patient: Patient }) {
  const { t } = useTranslation('budgets');
  const user = useSessionUser();
  const canRead = user ? can(user.level, 'commercial.read') : false;
  const canWrite = user ? can(user.level, 'commercial.write') : false;
  const query = usePatientBilling(patient.id, canRead);
  const action = useInvoiceAction(patient.id);
  const format = useDocumentMoney();
  if (!canRead) {
    return <p className="text-body-secondary p-3 mb-0">{t('billing.noAccess')}</p>;
  }
  if (query.isError) {
    return (
      <div className="p-3">
        <p className="text-danger">{t('billing.loadError')}</p>
        <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => void query.refetch()}>
          {t('common.retry')}
        </button>
      </div>
    );
  }
  const billing = query.data;
  if (!billing) return <p className="text-body-secondary p-3 mb-0">{t('billing.loading')}</p>;
  const nothing = billing.attendances.length === 0 && billing.budgets.length === 0;
  return (
    <div className="d-flex flex-column gap-3 p-3" data-testid="tab-billing">
      <div className="d-flex flex-wrap gap-2 align-items-center">
        <h2 className="h5 mb-0 me-auto">{t('billing.title')}</h2>
        {billing.attendances.length ? (
          <span className="text-body-secondary" data-testid="billing-total">
            {t('billing.pendingTotal', { amount: format(billing.total, billing.currency) })}
          </span>
        ) : null}
        {canWrite && billing.attendances.length ? (
          <BusyButton
            className="btn btn-primary"
            icon={FilePlus2}
            busy={action.busy && action.variables === null}
            disabled={action.busy}
            onClick={() => void action.run(null)}
            testId="billing-invoice-all"
          >
            {t('billing.invoiceAll')}
          </BusyButton>
        ) : null}
      </div>
      {nothing ? (
        <p className="text-body-secondary mb-0" data-testid="billing-empty">
          {t('billing.empty')}
        </p>
      ) : null}
      {billing.attendances.length ? (
        <BillingSection id="billing-attendances" title={t('billing.attendances')}>
          {billing.attendances.map((attendance) => (
            <AttendanceCard
              key={attendance.id}
              attendance={attendance}
              currency={billing.currency}
              canWrite={canWrite}
              action={action}
            />
          ))}
        </BillingSection>
      ) : null}
      {billing.budgets.length ? (
        <BillingSection id="billing-budgets" title={t('billing.budgets')}>
          {billing.budgets.map((budget) => (
            <li key={budget.id} className="card" data-testid="billing-budget">
              <div className="card-body">
                <div className="d-flex flex-wrap gap-2 align-items-center mb-2">
                  <Link to={saleViewPath(budget.id)} className="me-auto fw-semibold">
                    {t('billing.budget', {
                      number: [budget.pointOfService, budget.documentNumber].filter(Boolean).join('-'),
                    })}
                  </Link>
                  <span className="text-body-secondary">{format(budget.total, budget.currency)}</span>
                </div>
                <ul className="small mb-0">
                  {budget.lines.map((line) => (
                    <li key={line.id}>
                      {line.description}
                      {line.tooth ? ` · ${t('billing.toothShort', { tooth: line.tooth })}` : null}
                      {` · ${t('billing.doneOf', {
                        done: Number.parseFloat(line.done),
                        quantity: Number.parseFloat(line.quantity),
                      })}`}
                    </li>
                  ))}
                </ul>
              </div>
            </li>
          ))}
        </BillingSection>
      ) : null}
    </div>
  );
}

/** A titled list of the billing's cards (its attendances, its budgets). */
function BillingSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h3 className="h6" id={id}>
        {title}
      </h3>
      <ul className="list-unstyled d-flex flex-column gap-2 mb-0">{children}</ul>
    </section>
  );
}
