import type { ToothStatus, ToothZone } from '@odontia/shared/enums';
import { chartRows, type Dentition, paletteStatuses, rowsOf, statusScopes } from '@odontia/shared/odontogram';
import type { Patient } from '@odontia/shared/schemas/patients';
import { type KeyboardEvent, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useCanWriteClinical } from '../medical-history/clinical-frame';
import { odontogramApi, useChartMarks, useOdontogramChart, useVoidEntry } from './api';
import { defaultDentition, neighbourTooth } from './chart-state';
import { OdontogramChart } from './odontogram-chart';
import {
  AttendanceAndNote,
  ChartLoadState,
  OdontogramToolbar,
  Timeline,
  useShownAfterPaint,
  useToothLabel,
} from './odontogram-controls';
import { markChartPainted } from './render-timing';
import './odontogram.css';
import { ChangesList } from './odontogram-changes';
import { ToothEditor, type UndoableMark, UndoBar } from './odontogram-marks';
import { Palette, zoneKeys } from './odontogram-palette';

/** The "Odontograma" tab of the medical history. */
export function OdontogramTab({ patient }: { patient: Patient }) {
  const { t, ready } = useTranslation(['odontogram', 'clinical']);
  const canWrite = useCanWriteClinical();
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

  const restShown = useShownAfterPaint(Boolean(chart));

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

  const toothLabel = useToothLabel();

  if (!ready || nowQuery.isPending || nowQuery.isError || !chart) {
    return <ChartLoadState failed={ready && !nowQuery.isPending} onRetry={() => void nowQuery.refetch()} />;
  }
  const stopIndex = at === null ? dates.length : (stop ?? dates.length);
  return (
    <div className="odo-tab" data-testid="tab-odontogram">
      <OdontogramToolbar
        dentition={shownDentition}
        onDentition={setDentition}
        saveState={save.isPending ? 'saving' : save.isSuccess ? 'saved' : null}
        loadPdf={() => odontogramApi.pdf(patient.id, at)}
      />
      <div className="odo-body">
        <Timeline dates={dates} at={at} stopIndex={stopIndex} onStop={setStop} />
        {canWrite && !at ? (
          <AttendanceAndNote
            patientId={patient.id}
            attendanceId={attendanceId}
            onAttendance={setAttendanceId}
            note={note}
            onNote={setNote}
          />
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
