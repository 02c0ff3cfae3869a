import '../../lib/zod-setup';
import { recallChannels, recallOutcomes } from '@odontia/shared/enums';
import {
  recallAttemptRequestSchema,
  recallBookRequestSchema,
  recallCloseRequestSchema,
  recallStaffCloseReasons,
} from '@odontia/shared/schemas/recalls';
import type { FieldValues, Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { BoundForm } from '../../components/bound-fields';
import { FormDialog } from '../../components/dialog-frame';
import { type CellField, FieldCells } from '../../components/field-cells';
import { useZodForm } from '../../lib/use-zod-form';
import { useInstantFormat } from '../../session/clinic-time';
import { usePatientAppointments } from '../appointments/api';
import { type RecallRow, useRecall, useRecallStep } from './api';

export type RecallStepKind = 'attempt' | 'book' | 'close';

interface StepProps {
  recall: RecallRow;
  onDone: () => void;
}

/** The note both steps that keep one offer. */
const noteField = <T extends { note?: string }>(label: string, testId: string): CellField<T> => ({
  cell: 'col-12',
  name: 'note' as Path<T>,
  label,
  rows: 2,
  maxLength: 1000,
  testId,
});

/**
 * The dialog of a step: the recall's patient and treatment in the title, the step's fields (none
 * while there is nothing to choose), what follows them, Cancel and the step's button, which sends
 * the form's body as the step.
 */
function StepFrame<T extends FieldValues, Body>({
  recall,
  onDone,
  kind,
  form,
  send,
  busy,
  fields,
  children,
}: StepProps & {
  kind: RecallStepKind;
  form: BoundForm<T> & {
    formErrors: { ref: React.RefObject<HTMLFormElement | null> };
    submit: (onValid: (body: Body) => Promise<void>) => (event?: React.BaseSyntheticEvent) => Promise<void>;
  };
  send: (body: Body) => Promise<unknown>;
  busy: boolean;
  fields: CellField<T>[] | null;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation(['recalls', 'common']);
  return (
    <FormDialog
      ref={form.formErrors.ref}
      onHide={onDone}
      onSubmit={(event) =>
        void form.submit(async (body) => {
          await send(body);
        })(event)
      }
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
      {fields ? (
        <fieldset disabled={busy} className="row g-3">
          <FieldCells form={form} fields={fields} />
        </fieldset>
      ) : null}
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
      send={(body) => step.mutateAsync({ kind: 'attempt', body })}
      busy={step.isPending}
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
        noteField(t('fields.note'), 'recall-attempt-note'),
      ]}
    >
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
  const none = appointments.isSuccess && upcoming.length === 0;
  return (
    <StepFrame
      recall={recall}
      onDone={onDone}
      kind="book"
      form={form}
      send={(body) => step.mutateAsync({ kind: 'book', body })}
      busy={step.isPending}
      fields={
        none
          ? null
          : [
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
            ]
      }
    >
      {none ? (
        <p className="alert alert-info mb-0" role="status">
          {t('steps.book.none')}
        </p>
      ) : null}
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
      send={(body) => step.mutateAsync({ kind: 'close', body })}
      busy={step.isPending}
      fields={[
        {
          cell: 'col-12',
          name: 'reason',
          label: t('fields.closeReason'),
          testId: 'recall-close-reason',
          options: recallStaffCloseReasons.map((value) => ({ value, label: t(`closeReasons.${value}`) })),
        },
        noteField(t('fields.note'), 'recall-close-note'),
      ]}
    />
  );
}

/** The front desk's step on a recall: log an attempt, book it with an appointment, or close it. */
export function RecallStepDialog({ kind, ...props }: StepProps & { kind: RecallStepKind }) {
  if (kind === 'attempt') return <AttemptStep {...props} />;
  if (kind === 'book') return <BookStep {...props} />;
  return <CloseStep {...props} />;
}
