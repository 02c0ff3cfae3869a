import type { MessageChannel, PatientConsents } from '@odontia/shared/schemas/messages';
import { Check, X } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogFrame } from '../../components/dialog-frame';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useInstantFormat } from '../../session/clinic-time';
import { useRecordConsent } from './api';

type Current = PatientConsents['current'][number];

function ConsentBadge({ row }: { row: Current }) {
  const { t } = useTranslation('messaging');
  const day = useInstantFormat('date');
  const state = row.granted === null ? 'unknown' : row.granted ? 'granted' : 'refused';
  const classes = { granted: 'text-bg-success', refused: 'text-bg-danger', unknown: 'bg-body-secondary text-body' };
  return (
    <>
      <span className={`badge ${classes[state]}`} data-testid="consent-state" data-state={state}>
        {t(`consent.states.${state}`)}
      </span>
      <div className="small text-body-secondary">
        {row.since ? t('consent.since', { date: day(row.since) }) : t(`consent.unknownMeans.${row.channel}`)}
      </div>
    </>
  );
}

/** Recording a yes or a no, with an optional note (how the patient said it). */
function ConsentDialog({
  patientId,
  patientName,
  channel,
  granted,
  onDone,
}: {
  patientId: string;
  patientName: string;
  channel: MessageChannel;
  granted: boolean;
  onDone: () => void;
}) {
  const { t } = useTranslation('messaging');
  const id = useId();
  const record = useRecordConsent(patientId);
  const sending = useRef(false);
  const [note, setNote] = useState('');
  const confirm = async () => {
    if (sending.current) return;
    sending.current = true;
    try {
      const answer = await record.mutateAsync({ channel, granted, note });
      toastSuccess(answer.code);
      onDone();
    } catch (error) {
      toastApiError(error);
    } finally {
      sending.current = false;
    }
  };
  const what = granted ? 'grant' : 'refuse';
  return (
    <DialogFrame
      onHide={onDone}
      testId="consent-dialog"
      title={t(`consent.${what}Title`, { patient: patientName, channel: t(`channels.${channel}`) })}
      closeLabel={t('close')}
      cancelLabel={t('cancel')}
      confirm={{
        label: t(`consent.${what}Confirm`),
        onClick: () => void confirm(),
        className: granted ? 'btn-success' : 'btn-danger',
        busy: record.isPending,
        disabled: record.isPending,
        testId: 'consent-confirm',
      }}
    >
      <p>{t(`consent.${what}Text`, { channel: t(`channels.${channel}`) })}</p>
      <label htmlFor={`${id}-note`} className="form-label">
        {t('consent.note')}
      </label>
      <textarea
        id={`${id}-note`}
        className="form-control"
        rows={2}
        maxLength={500}
        value={note}
        aria-describedby={`${id}-note-hint`}
        onChange={(event) => setNote(event.target.value)}
        data-testid="consent-note"
      />
      <div id={`${id}-note-hint`} className="form-text">
        {t('consent.noteHint')}
      </div>
    </DialogFrame>
  );
}

/** The patient's consent now, per channel, and where each channel's messages go. */
export function ConsentTable({
  patientId,
  patientName,
  consents,
  canWrite,
}: {
  patientId: string;
  patientName: string;
  consents: PatientConsents;
  canWrite: boolean;
}) {
  const { t } = useTranslation('messaging');
  const [asking, setAsking] = useState<{ channel: MessageChannel; granted: boolean } | null>(null);
  return (
    <>
      <ul className="list-group mb-0" aria-label={t('consent.title')} data-testid="consent-table">
        {consents.current.map((row) => {
          const name = t(`channels.${row.channel}`);
          return (
            <li
              key={row.channel}
              className="list-group-item d-flex flex-wrap align-items-center gap-2"
              data-testid="consent-row"
              data-channel={row.channel}
            >
              <div className="consent-channel me-auto">
                <div className="fw-semibold">{name}</div>
                <div className="small text-break">
                  {row.address ?? <span className="text-body-secondary">{t(`consent.noAddress.${row.channel}`)}</span>}
                </div>
              </div>
              <div className="consent-state">
                <ConsentBadge row={row} />
              </div>
              {canWrite ? (
                <div className="d-flex gap-1">
                  <button
                    type="button"
                    className="btn btn-sm btn-outline-success"
                    disabled={row.granted === true}
                    onClick={() => setAsking({ channel: row.channel, granted: true })}
                    data-testid={`consent-grant-${row.channel}`}
                  >
                    <Check size={14} aria-hidden="true" className="me-1" />
                    {t('consent.grant')}
                    <span className="visually-hidden"> ({name})</span>
                  </button>
                  <button
                    type="button"
                    className="btn btn-sm btn-outline-danger"
                    disabled={row.granted === false}
                    onClick={() => setAsking({ channel: row.channel, granted: false })}
                    data-testid={`consent-refuse-${row.channel}`}
                  >
                    <X size={14} aria-hidden="true" className="me-1" />
                    {t('consent.refuse')}
                    <span className="visually-hidden"> ({name})</span>
                  </button>
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
      {asking ? (
        <ConsentDialog
          patientId={patientId}
          patientName={patientName}
          channel={asking.channel}
          granted={asking.granted}
          onDone={() => setAsking(null)}
        />
      ) : null}
    </>
  );
}

/** Every change of the patient's consent, newest first: who recorded it, and how. */
export function ConsentHistory({ history }: { history: PatientConsents['history'] }) {
  const { t } = useTranslation('messaging');
  const when = useInstantFormat('dateTime');
  if (history.length === 0) {
    return (
      <p className="small text-body-secondary mb-0" data-testid="consent-history-empty">
        {t('consent.historyEmpty')}
      </p>
    );
  }
  return (
    <ul className="list-unstyled small mb-0" data-testid="consent-history">
      {history.map((entry) => (
        <li key={entry.id} className="mb-1" data-testid="consent-history-entry">
          <span className="text-body-secondary">{when(entry.recordedAt)}</span> · {t(`channels.${entry.channel}`)} ·{' '}
          <span className="fw-semibold">{t(entry.granted ? 'consent.granted' : 'consent.refused')}</span> ·{' '}
          {t(`consent.sources.${entry.source}`, { who: entry.recordedByName ?? t('consent.someone') })}
          {entry.note ? <div className="text-body-secondary">{entry.note}</div> : null}
        </li>
      ))}
    </ul>
  );
}
