import { toothZones } from '@odontia/shared/enums';
import type { Dentition, ToothState } from '@odontia/shared/odontogram';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PdfButton } from '../../components/pdf-button';
import { useDateTimeFormat } from '../../session/clinic-time';
import { useRecordList } from '../medical-history/api';
import { KeyboardHelp } from './odontogram-palette';

/**
 * The rest of the tab (zoomed tooth, palette, changes) mounts at the frame after the chart's
 * first paint: the chart shows first, the rest a frame later, out of the chart's way.
 */
export function useShownAfterPaint(painted: boolean): boolean {
  const [restShown, setRestShown] = useState(false);
  useEffect(() => {
    if (!painted || restShown) return;
    let timer = 0;
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => setRestShown(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [painted, restShown]);
  return restShown;
}

/** Permanent, primary or mixed: a segmented control of radios. */
export function DentitionSwitch({ value, onChange }: { value: Dentition; onChange: (value: Dentition) => void }) {
  const { t } = useTranslation(['odontogram', 'clinical']);
  return (
    <div className="btn-group btn-group-sm" role="radiogroup" aria-label={t('dentition.label')}>
      {(['permanent', 'primary', 'mixed'] as const).map((option) => (
        // biome-ignore lint/a11y/useSemanticElements: a segmented control; each button is a radio.
        <button
          key={option}
          type="button"
          role="radio"
          aria-checked={value === option}
          className={`btn ${value === option ? 'btn-primary' : 'btn-outline-primary'}`}
          onClick={() => onChange(option)}
          data-testid={`dentition-${option}`}
        >
          {t(`dentition.${option}`)}
        </button>
      ))}
    </div>
  );
}

/** The chart's history: a slider over the days it changed (the end is now), and the past's notice. */
export function Timeline({
  dates,
  at,
  stopIndex,
  onStop,
}: {
  dates: readonly string[];
  at: string | null;
  stopIndex: number;
  onStop: (stop: number | null) => void;
}) {
  const { t } = useTranslation(['odontogram', 'clinical']);
  const dateTime = useDateTimeFormat();
  return (
    <>
      <div className="odo-timeline" data-testid="odontogram-timeline">
        <label htmlFor="odo-timeline" className="small fw-semibold mb-0 text-nowrap">
          {t('timeline.label')}
        </label>
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary"
          onClick={() => onStop(Math.max(0, stopIndex - 1))}
          disabled={stopIndex === 0 || dates.length === 0}
          aria-label={t('timeline.previous')}
          data-testid="timeline-previous"
        >
          <ChevronLeft size={16} aria-hidden="true" />
        </button>
        <input
          id="odo-timeline"
          type="range"
          className="form-range"
          min={0}
          max={dates.length}
          step={1}
          value={stopIndex}
          disabled={dates.length === 0}
          onChange={(event) => {
            const value = Number(event.target.value);
            onStop(value >= dates.length ? null : value);
          }}
          aria-valuetext={at ? dateTime(at) : t('timeline.now')}
          data-testid="timeline-slider"
        />
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary"
          onClick={() => onStop(stopIndex + 1 >= dates.length ? null : stopIndex + 1)}
          disabled={at === null}
          aria-label={t('timeline.next')}
          data-testid="timeline-next"
        >
          <ChevronRight size={16} aria-hidden="true" />
        </button>
        <span className="small text-nowrap odo-timeline-value" data-testid="timeline-value">
          {at ? t('timeline.at', { date: dateTime(at) }) : t('timeline.now')}
        </span>
      </div>
      {at ? (
        <div
          className="alert alert-info py-2 small d-flex flex-wrap align-items-center gap-2"
          data-testid="timeline-past"
        >
          {t('timeline.readOnly', { date: dateTime(at) })}
          <button type="button" className="btn btn-link btn-sm p-0" onClick={() => onStop(null)}>
            {t('timeline.backToNow')}
          </button>
        </div>
      ) : null}
    </>
  );
}

/** The attendance the next marks go with, and the note of the next mark. */
export function AttendanceAndNote({
  patientId,
  attendanceId,
  onAttendance,
  note,
  onNote,
}: {
  patientId: string;
  attendanceId: string;
  onAttendance: (id: string) => void;
  note: string;
  onNote: (note: string) => void;
}) {
  const { t } = useTranslation(['odontogram', 'clinical']);
  const dateTime = useDateTimeFormat();
  const attendances = useRecordList('attendance', patientId, 1, 20);
  return (
    <div className="odo-attendance">
      <label htmlFor="odo-attendance" className="small fw-semibold mb-0">
        {t('attendance.label')}
      </label>
      <select
        id="odo-attendance"
        className="form-select form-select-sm"
        value={attendanceId}
        onChange={(event) => onAttendance(event.target.value)}
        data-testid="odontogram-attendance"
      >
        <option value="">{t('attendance.none')}</option>
        {(attendances.data?.data ?? []).map((attendance) => (
          <option key={attendance.id} value={attendance.id}>
            {dateTime(attendance.date)} · {attendance.titleResume}
          </option>
        ))}
      </select>
      <label htmlFor="odo-note" className="small fw-semibold mb-0">
        {t('note.label')}
      </label>
      <input
        id="odo-note"
        type="text"
        className="form-control form-control-sm odo-note"
        maxLength={500}
        value={note}
        placeholder={t('note.placeholder')}
        onChange={(event) => onNote(event.target.value)}
        data-testid="odontogram-note"
      />
    </div>
  );
}

/** A tooth's accessible name: its number, then its piece's and its zones' statuses. */
export function useToothLabel() {
  const { t } = useTranslation(['odontogram', 'clinical']);
  return useCallback(
    (tooth: number, state: ToothState | undefined) => {
      const parts = [
        state?.piece ? t(`statuses.${state.piece.status}`) : null,
        ...toothZones.flatMap((zone) =>
          state?.zones[zone] ? [`${t(`zones.${zone}`)} ${t(`statuses.${state.zones[zone]?.status}`)}`] : [],
        ),
      ].filter(Boolean);
      return `${t('tooth', { tooth })}${parts.length ? `: ${parts.join(', ')}` : ''}`;
    },
    [t],
  );
}

/** The tab before its chart: a spinner while it loads, else the load error with a retry. */
export function ChartLoadState({ failed, onRetry }: { failed: boolean; onRetry: () => void }) {
  const { t } = useTranslation(['odontogram', 'clinical']);
  if (!failed) {
    return (
      <div className="text-center py-4" data-testid="tab-odontogram">
        <span className="spinner-border text-primary" role="status">
          <span className="visually-hidden">{t('clinical:common.loading')}</span>
        </span>
      </div>
    );
  }
  return (
    <div className="text-center py-4 text-danger" role="alert" data-testid="tab-odontogram">
      {t('loadError')}
      <button type="button" className="btn btn-link" onClick={onRetry}>
        {t('retry')}
      </button>
    </div>
  );
}

/** The chart's toolbar: the dentition, whether the last mark is saved, the keys' help and the PDF. */
export function OdontogramToolbar(props: {
  dentition: Dentition;
  onDentition: (value: Dentition) => void;
  saveState: 'saving' | 'saved' | null;
  loadPdf: () => Promise<{ blob: Blob; fileName?: string | null }>;
}) {
  const { t } = useTranslation('odontogram');
  return (
    <div className="mh-toolbar flex-wrap gap-2">
      <DentitionSwitch value={props.dentition} onChange={props.onDentition} />
      <span className="me-auto small text-body-secondary" aria-live="polite" data-testid="odontogram-save-state">
        {props.saveState ? t(props.saveState) : ''}
      </span>
      <KeyboardHelp />
      <PdfButton
        load={props.loadPdf}
        fallbackName="odontograma.pdf"
        label={t('print')}
        small
        testId="odontogram-print"
      />
    </div>
  );
}
