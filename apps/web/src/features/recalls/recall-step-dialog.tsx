import '../../lib/zod-setup';
import { recallChannels, recallOutcomes } from '@odontia/shared/enums';
import {
  recallAttemptRequestSchema,
  recallBookRequestSchema,
  recallCloseRequestSchema,
  recallStaffCloseReasons,
} from '@odontia/shared/schemas/recalls';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/dialog-frame';
import { FieldCells } from '../../components/field-cells';
import { useZodForm } from '../../lib/use-zod-form';
import { useInstantFormat } from '../../session/clinic-time';
import { usePatientAppointments } from '../appointments/api';
import { type RecallRow, useRecall, useRecallStep } from './api';

export type RecallStepKind = 'attempt' | 'book' | 'close';

interface StepProps {
  recall: RecallRow;
  onDone: () => void;
}

/** The dialog's frame: the recall's patient and treatment in the title, Cancel and the step's button. */
function StepFrame({
  recall,
  onDone,
  kind,
  form,
  onSubmit,
  busy,
  children,
}: StepProps & {
  kind: RecallStepKind;
  form: { formErrors: { ref: React.RefObject<HTMLFormElement | null> } };
  onSubmit: (event: React.FormEvent<HTMLFormElement>) => void;
  busy: boolean;
  children: React.ReactNode;
}) {
  const { t } = useTranslation(['recalls', 'common']);
  return (
    <FormDialog
      ref={form.formErrors.ref}
      onHide={onDone}
      onSubmit={onSubmit}
      testId={`recall-${kind}-form`}
      title={t(`steps.${kind}.title`, { patient: recall.patientName })}
      closeLabel={t('common:close')}
      cancelLabel={t('steps.cancel')}
      submit={{ label: t(`steps.${kind}.submit`), busy, disabled: busy, testId: `recall-${kind}-save` }}
    >
      <p className="text-body-secondary">
        {recall.treatmentName}
        {recall.reason ? ` · ${recall.reason}` : ''}
        {recall.patientPhone ? ` · ${recall.patientPhone}` : ''}
      </p>
      {children}
    </FormDialog>
  );
}

function AttemptStep({ recall, onDone }: StepProps) {
  const { t } = useTranslation('recalls');
  const step = useRecallStep(recall.id, onDone);
  const form = useZodForm(recallAttemptRequestSchema, { channel: 'phone', outcome: 'reached', note: '' });
  const history = useRecall(recall.id);
  const when = useInstantFormat();
  const attempts = history.data?.data.attempts ?? [];
  return (
    <StepFrame
      recall={recall}
      onDone={onDone}
      kind="attempt"
      form={form}
      busy={step.isPending}
      onSubmit={(event) =>
        void form.submit((body) => step.mutateAsync({ kind: 'attempt', body }).then(() => {}))(event)
      }
    >
      <fieldset disabled={step.isPending} className="row g-3">
        <FieldCells
          form={form}
          fields={[
            {
              cell: 'col-sm-6',
              name: 'channel',
              label: t('fields.channel'),
              testId: 'recall-attempt-channel',
              options: recallChannels.map((value) => ({ value, label: t(`channels.${value}`) })),
            },
            {
              cell: 'col-sm-6',
              name: 'outcome',
              label: t('fields.outcome'),
              testId: 'recall-attempt-outcome',
              options: recallOutcomes.map((value) => ({ value, label: t(`outcomes.${value}`) })),
            },
            {
              cell: 'col-12',
              name: 'note',
              label: t('fields.note'),
              rows: 2,
              maxLength: 1000,
              testId: 'recall-attempt-note',
            },
          ]}
        />
      </fieldset>
      {attempts.length > 0 ? (
        <section className="mt-3" aria-labelledby={`recall-attempts-${recall.id}`}>
          <h3 id={`recall-attempts-${recall.id}`} className="h6">
            {t('steps.attempt.history')}
          </h3>
          <ul className="list-unstyled small mb-0" data-testid="recall-attempts">
            {attempts.map((attempt) => (
              <li key={attempt.id} className="mb-1">
                <span className="text-body-secondary">{when(attempt.createdAt)}</span> ·{' '}
                {t(`channels.${attempt.channel}`)} · {t(`outcomes.${attempt.outcome}`)}
                {attempt.automatic ? ` · ${t('steps.attempt.automatic')}` : ''}
                {attempt.createdByName ? ` · ${attempt.createdByName}` : ''}
                {attempt.note ? <div>{attempt.note}</div> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </StepFrame>
  );
}

function BookStep({ recall, onDone }: StepProps) {
  const { t } = useTranslation('recalls');
  const step = useRecallStep(recall.id, onDone);
  const appointments = usePatientAppointments(recall.patientId, 1, 50);
  const when = useInstantFormat();
  const upcoming = (appointments.data?.data ?? []).filter(
    (appointment) => appointment.status === 'scheduled' && Date.parse(appointment.startsAt) > Date.now(),
  );
  const form = useZodForm(recallBookRequestSchema, { appointmentId: '' });
  return (
    <StepFrame
      recall={recall}
      onDone={onDone}
      kind="book"
      form={form}
      busy={step.isPending}
      onSubmit={(event) => void form.submit((body) => step.mutateAsync({ kind: 'book', body }).then(() => {}))(event)}
    >
      {appointments.isSuccess && upcoming.length === 0 ? (
        <p className="alert alert-info mb-0" role="status">
          {t('steps.book.none')}
        </p>
      ) : (
        <fieldset disabled={step.isPending} className="row g-3">
          <FieldCells
            form={form}
            fields={[
              {
                cell: 'col-12',
                name: 'appointmentId',
                label: t('fields.appointment'),
                required: true,
                testId: 'recall-book-appointment',
                options: [
                  { value: '', label: t('steps.book.pick') },
                  ...upcoming.map((appointment) => ({
                    value: appointment.id,
                    label: `${when(appointment.startsAt)} · ${appointment.professionalName}${
                      appointment.treatmentName ? ` · ${appointment.treatmentName}` : ''
                    }`,
                  })),
                ],
              },
            ]}
          />
        </fieldset>
      )}
    </StepFrame>
  );
}

function CloseStep({ recall, onDone }: StepProps) {
  const { t } = useTranslation('recalls');
  const step = useRecallStep(recall.id, onDone);
  const form = useZodForm(recallCloseRequestSchema, { reason: 'declined', note: '' });
  return (
    <StepFrame
      recall={recall}
      onDone={onDone}
      kind="close"
      form={form}
      busy={step.isPending}
      onSubmit={(event) => void form.submit((body) => step.mutateAsync({ kind: 'close', body }).then(() => {}))(event)}
    >
      <fieldset disabled={step.isPending} className="row g-3">
        <FieldCells
          form={form}
          fields={[
            {
              cell: 'col-12',
              name: 'reason',
              label: t('fields.closeReason'),
              testId: 'recall-close-reason',
              options: recallStaffCloseReasons.map((value) => ({ value, label: t(`closeReasons.${value}`) })),
            },
            {
              cell: 'col-12',
              name: 'note',
              label: t('fields.note'),
              rows: 2,
              maxLength: 1000,
              testId: 'recall-close-note',
            },
          ]}
        />
      </fieldset>
    </StepFrame>
  );
}

/** The front desk's step on a recall: log an attempt, book it with an appointment, or close it. */
export function RecallStepDialog({ kind, ...props }: StepProps & { kind: RecallStepKind }) {
  if (kind === 'attempt') return <AttemptStep {...props} />;
  if (kind === 'book') return <BookStep {...props} />;
  return <CloseStep {...props} />;
}
