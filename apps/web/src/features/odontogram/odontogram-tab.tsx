import { type ToothStatus, type ToothZone, toothZones } from '@odontia/shared/enums';
import {
  chartRows,
  type Dentition,
  paletteStatuses,
  rowsOf,
  statusScopes,
  type ToothState,
} from '@odontia/shared/odontogram';
import type { Patient } from '@odontia/shared/schemas/patients';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { type KeyboardEvent, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PdfButton } from '../../components/pdf-button';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useDateTimeFormat } from '../../session/clinic-time';
import { useRecordList } from '../medical-history/api';
import { useCanWriteClinical } from '../medical-history/clinical-frame';
import { odontogramApi, useChartMarks, useOdontogramChart, useVoidEntry } from './api';
import { neighbourTooth } from './chart-state';
import { OdontogramChart } from './odontogram-chart';
import { markChartPainted } from './render-timing';
import './odontogram.css';
import { ChangesList } from './odontogram-changes';
import { ToothEditor, type UndoableMark, UndoBar } from './odontogram-marks';
import { KeyboardHelp, Palette, zoneKeys } from './odontogram-palette';

function defaultDentition(patient: Patient, hasPrimary: boolean): Dentition {
  if (patient.age < 6) return 'primary';
  if (hasPrimary || patient.age < 13) return 'mixed';
  return 'permanent';
}

/** The "Odontograma" tab of the medical history. */
export function OdontogramTab({ patient }: { patient: Patient }) {
  const { t, ready } = useTranslation(['odontogram', 'clinical']);
  const canWrite = useCanWriteClinical();
  const dateTime = useDateTimeFormat();
  const [stop, setStop] = useState<number | null>(null);
  const nowQuery = useOdontogramChart(patient.id, null);
  const dates = nowQuery.data?.dates ?? [];
  const at = stop === null || stop >= dates.length ? null : (dates[stop] ?? null);
  const pastQuery = useOdontogramChart(patient.id, at, at !== null);
  const chartQuery = at ? pastQuery : nowQuery;
  const chart = chartQuery.data;
  const [dentition, setDentition] = useState<Dentition | null>(null);
  const shownDentition = dentition ?? defaultDentition(patient, nowQuery.data?.hasPrimary ?? false);
  const rows = rowsOf(shownDentition);
  const rowTeeth = useMemo<readonly (readonly number[])[]>(
    () => rowsOf(shownDentition).map((key) => chartRows[key]),
    [shownDentition],
  );
  // No status when the tab opens (issue 14: a first click charted "Caries"): a click before one
  // is chosen selects the tooth only. Each visit of the tab starts without one (the tab remounts).
  const [status, setStatus] = useState<ToothStatus | null>(null);
  const [needsStatus, setNeedsStatus] = useState(false);
  const [undoable, setUndoable] = useState<UndoableMark | null>(null);
  const [focusedTooth, setFocusedTooth] = useState(16);
  const [focusZone, setFocusZone] = useState<ToothZone | null>('occlusal');
  const [attendanceId, setAttendanceId] = useState('');
  const [note, setNote] = useState('');
  const attendances = useRecordList('attendance', patient.id, 1, 20);
  const save = useChartMarks(patient.id);
  const voidEntry = useVoidEntry(patient.id);
  const svgHolder = useRef<HTMLDivElement>(null);
  const moveFocus = useRef(false);
  const readOnly = !canWrite || at !== null;

  const teeth = useMemo(() => new Map((chart?.teeth ?? []).map((state) => [state.tooth, state])), [chart]);
  // The render figure (npm run bench -- odontogram): from the data's arrival to the frame after paint.
  useLayoutEffect(() => {
    if (chart) markChartPainted();
  }, [chart]);

  // The rest of the tab (zoomed tooth, palette, changes) mounts at the frame after the chart's
  // first paint: the chart shows first, the rest a frame later, out of the chart's way.
  const [restShown, setRestShown] = useState(false);
  useEffect(() => {
    if (!chart || restShown) return;
    let timer = 0;
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => setRestShown(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [chart, restShown]);

  // A tooth not shown in this dentition: focus the first one shown.
  useEffect(() => {
    if (!rowTeeth.some((row) => row.includes(focusedTooth))) setFocusedTooth(rowTeeth[0]?.[0] ?? 16);
  }, [rowTeeth, focusedTooth]);

  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    svgHolder.current?.querySelector<SVGGElement>(`[data-tooth="${focusedTooth}"]`)?.focus();
  }, [focusedTooth]);

  const describeMark = (tooth: number, zone: ToothZone | null, marked: ToothStatus) =>
    `${t('tooth', { tooth })} · ${zone ? t(`zones.${zone}`) : t('piece')} · ${t(`statuses.${marked}`)}`;

  /** Saves one mark; once saved, it is offered for undo for a few seconds. */
  const saveMark = (tooth: number, zone: ToothZone | null, marked: ToothStatus, notes = '') => {
    save.mutate(
      {
        marks: [{ tooth, zone, status: marked, ...(notes ? { notes } : {}) }],
        ...(attendanceId ? { attendanceId } : {}),
      },
      {
        onSuccess: (answer) => {
          // The note goes with one mark: once it is saved, the field is cleared.
          if (notes) setNote('');
          setUndoable({ ids: answer.data.map((entry) => entry.id), label: describeMark(tooth, zone, marked) });
        },
        onError: (error) => toastApiError(error),
      },
    );
  };

  const chartMark = (tooth: number, zone: ToothZone | null, chosen: ToothStatus | null) => {
    if (chosen === null) {
      setNeedsStatus(true);
      return;
    }
    const scope = statusScopes[chosen];
    if (scope === 'zone' && zone === null) return;
    const markZone = scope === 'piece' ? null : zone;
    const current = markZone === null ? teeth.get(tooth)?.piece : teeth.get(tooth)?.zones[markZone];
    // The same status again clears it (a mistaken click is undone at once).
    const next: ToothStatus = current?.status === chosen && chosen !== 'healthy' ? 'healthy' : chosen;
    saveMark(tooth, markZone, next, note.trim());
  };

  /** Undo of the last mark: its entries are voided (audited like any void) with an automatic reason. */
  const undo = (mark: UndoableMark) => {
    // Undone from its button: the focus goes back to the chart, not to the page.
    if (document.activeElement?.closest('.odo-undo')) {
      svgHolder.current?.querySelector<SVGGElement>(`[data-tooth="${focusedTooth}"]`)?.focus();
    }
    setUndoable(null);
    const reason = t('undo.reason');
    Promise.all(mark.ids.map((entryId) => voidEntry.mutateAsync({ entryId, reason })))
      .then(() => toastSuccess('odontogram_entry_voided'))
      .catch((error: unknown) => toastApiError(error));
  };

  const chooseStatus = (chosen: ToothStatus) => {
    setStatus(chosen);
    setNeedsStatus(false);
  };

  const pick = (tooth: number, zone: ToothZone | null) => {
    setFocusedTooth(tooth);
    if (zone) setFocusZone(zone);
    if (readOnly) return;
    chartMark(tooth, zone, status);
  };

  const onKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    const key = event.key;
    if (['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'].includes(key)) {
      event.preventDefault();
      moveFocus.current = true;
      setFocusedTooth((tooth) => neighbourTooth(rowTeeth, tooth, key as 'ArrowLeft'));
      return;
    }
    const lower = key.toLowerCase();
    if (lower in zoneKeys && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      setFocusZone(zoneKeys[lower] ?? null);
      return;
    }
    if ((event.ctrlKey || event.metaKey) && lower === 'z' && !event.shiftKey && !event.altKey) {
      if (undoable && !readOnly) {
        event.preventDefault();
        undo(undoable);
      }
      return;
    }
    if (/^[1-9]$/.test(key)) {
      const chosen = paletteStatuses[Number(key) - 1];
      if (chosen) chooseStatus(chosen);
      return;
    }
    if (key === '[' || key === ']') {
      const index = status === null ? (key === ']' ? -1 : 0) : paletteStatuses.indexOf(status);
      const next = (index + (key === ']' ? 1 : -1) + paletteStatuses.length) % paletteStatuses.length;
      const chosen = paletteStatuses[next];
      if (chosen) chooseStatus(chosen);
      return;
    }
    if ((key === 'Enter' || key === ' ') && !readOnly) {
      event.preventDefault();
      chartMark(focusedTooth, focusZone, status);
      return;
    }
    if ((key === 'Delete' || key === 'Backspace') && !readOnly) {
      // An explicit "healthy" (a status chosen by its own key), offered for undo like any mark.
      event.preventDefault();
      saveMark(focusedTooth, focusZone, 'healthy');
    }
  };

  const toothLabel = useCallback(
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

  if (!ready || nowQuery.isPending) {
    return (
      <div className="text-center py-4" data-testid="tab-odontogram">
        <span className="spinner-border text-primary" role="status">
          <span className="visually-hidden">{t('clinical:common.loading')}</span>
        </span>
      </div>
    );
  }
  if (nowQuery.isError || !chart) {
    return (
      <div className="text-center py-4 text-danger" role="alert" data-testid="tab-odontogram">
        {t('loadError')}
        <button type="button" className="btn btn-link" onClick={() => void nowQuery.refetch()}>
          {t('retry')}
        </button>
      </div>
    );
  }
  const stopIndex = at === null ? dates.length : (stop ?? dates.length);
  return (
    <div className="odo-tab" data-testid="tab-odontogram">
      <div className="mh-toolbar flex-wrap gap-2">
        <div className="btn-group btn-group-sm" role="radiogroup" aria-label={t('dentition.label')}>
          {(['permanent', 'primary', 'mixed'] as const).map((value) => (
            // biome-ignore lint/a11y/useSemanticElements: a segmented control; each button is a radio.
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={shownDentition === value}
              className={`btn ${shownDentition === value ? 'btn-primary' : 'btn-outline-primary'}`}
              onClick={() => setDentition(value)}
              data-testid={`dentition-${value}`}
            >
              {t(`dentition.${value}`)}
            </button>
          ))}
        </div>
        <span className="me-auto small text-body-secondary" aria-live="polite" data-testid="odontogram-save-state">
          {save.isPending ? t('saving') : save.isSuccess ? t('saved') : ''}
        </span>
        <KeyboardHelp />
        <PdfButton
          load={() => odontogramApi.pdf(patient.id, at)}
          fallbackName="odontograma.pdf"
          label={t('print')}
          small
          testId="odontogram-print"
        />
      </div>
      <div className="odo-body">
        <div className="odo-timeline" data-testid="odontogram-timeline">
          <label htmlFor="odo-timeline" className="small fw-semibold mb-0 text-nowrap">
            {t('timeline.label')}
          </label>
          <button
            type="button"
            className="btn btn-sm btn-outline-secondary"
            onClick={() => setStop(Math.max(0, stopIndex - 1))}
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
              setStop(value >= dates.length ? null : value);
            }}
            aria-valuetext={at ? dateTime(at) : t('timeline.now')}
            data-testid="timeline-slider"
          />
          <button
            type="button"
            className="btn btn-sm btn-outline-secondary"
            onClick={() => setStop(stopIndex + 1 >= dates.length ? null : stopIndex + 1)}
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
            <button type="button" className="btn btn-link btn-sm p-0" onClick={() => setStop(null)}>
              {t('timeline.backToNow')}
            </button>
          </div>
        ) : null}
        {canWrite && !at ? (
          <div className="odo-attendance">
            <label htmlFor="odo-attendance" className="small fw-semibold mb-0">
              {t('attendance.label')}
            </label>
            <select
              id="odo-attendance"
              className="form-select form-select-sm"
              value={attendanceId}
              onChange={(event) => setAttendanceId(event.target.value)}
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
              onChange={(event) => setNote(event.target.value)}
              data-testid="odontogram-note"
            />
          </div>
        ) : null}
        <div className="odo-chart-scroll" ref={svgHolder}>
          <div className="odo-arch-labels small text-body-secondary" aria-hidden="true">
            <span>{t('right')}</span>
            <span>{t('left')}</span>
          </div>
          <OdontogramChart
            rows={rows}
            teeth={teeth}
            focusedTooth={focusedTooth}
            focusZone={focusZone}
            onPick={pick}
            onKeyDown={onKeyDown}
            onFocusTooth={setFocusedTooth}
            toothLabel={toothLabel}
            title={t('title')}
            readOnly={readOnly}
          />
        </div>
        {restShown ? (
          <div className="odo-side">
            <ToothEditor
              tooth={focusedTooth}
              state={teeth.get(focusedTooth)}
              zone={focusZone}
              onPick={(tooth, zone) => pick(tooth, zone)}
              interactive={!readOnly}
              needsStatus={needsStatus && status === null && !readOnly}
            />
            <Palette
              selected={status}
              onSelect={chooseStatus}
              interactive={!readOnly}
              attention={needsStatus && !readOnly}
            />
          </div>
        ) : null}
      </div>
      {restShown ? <ChangesList patientId={patient.id} canWrite={canWrite} /> : null}
      <UndoBar mark={undoable} onUndo={undo} onExpire={() => setUndoable(null)} />
    </div>
  );
}
