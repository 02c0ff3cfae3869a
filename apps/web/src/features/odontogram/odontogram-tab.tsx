import { type ToothStatus, type ToothZone, toothZones } from '@odontia/shared/enums';
import {
  chartRows,
  type Dentition,
  paletteStatuses,
  rowsOf,
  statusColours,
  statusScopes,
  type ToothState,
} from '@odontia/shared/odontogram';
import type { OdontogramEntry } from '@odontia/shared/schemas/odontogram';
import type { Patient } from '@odontia/shared/schemas/patients';
import { ChevronLeft, ChevronRight, Keyboard } from 'lucide-react';
import { type KeyboardEvent, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Modal } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/data-table';
import { PdfButton } from '../../components/pdf-button';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useListState } from '../../lib/use-list-state';
import { useDateTimeFormat } from '../../session/clinic-time';
import { useRecordList } from '../medical-history/api';
import { useCanWriteClinical } from '../medical-history/clinical-frame';
import { odontogramApi, useChartMarks, useOdontogramChart, useOdontogramEntries, useVoidEntry } from './api';
import { neighbourTooth } from './chart-state';
import { OdontogramChart, ToothGlyph } from './odontogram-chart';
import { markChartPainted } from './render-timing';
import './odontogram.css';

const zoneKeys: Record<string, ToothZone | null> = {
  o: 'occlusal',
  m: 'mesial',
  d: 'distal',
  v: 'buccal',
  b: 'buccal',
  l: 'lingual',
  p: null,
};

function defaultDentition(patient: Patient, hasPrimary: boolean): Dentition {
  if (patient.age < 6) return 'primary';
  if (hasPrimary || patient.age < 13) return 'mixed';
  return 'permanent';
}

/** A status's sample glyph: on the occlusal zone, or on the whole piece. */
function sampleState(status: ToothStatus): ToothState | undefined {
  if (status === 'healthy') return undefined;
  const mark = { status, entryId: 'sample', chartedAt: '' };
  return statusScopes[status] === 'zone'
    ? { tooth: 16, piece: null, zones: { occlusal: mark } }
    : { tooth: 16, piece: mark, zones: {} };
}

function Sample({ status, size = 26 }: { status: ToothStatus; size?: number }) {
  return (
    <svg viewBox="0 0 40 40" width={size} height={size} aria-hidden="true" className="odo-sample">
      <ToothGlyph tooth={16} state={sampleState(status)} />
    </svg>
  );
}

/** The status palette, which is also the chart's legend. */
function Palette({
  selected,
  onSelect,
  interactive,
  attention,
}: {
  /** Null until a status is chosen in this visit of the tab: nothing is charted before. */
  selected: ToothStatus | null;
  onSelect: (status: ToothStatus) => void;
  interactive: boolean;
  /** A tooth was clicked without a status: the palette asks for one. */
  attention: boolean;
}) {
  const { t } = useTranslation('odontogram');
  return (
    <section
      className={`odo-palette${attention && selected === null ? ' odo-palette-attention' : ''}`}
      aria-labelledby="odo-palette-title"
      data-testid="odontogram-palette"
    >
      <h2 id="odo-palette-title" className="h6 mb-2">
        {interactive ? t('palette.title') : t('legend.title')}
      </h2>
      {interactive && selected === null ? (
        <p className="small text-body-secondary mb-2" data-testid="odontogram-palette-hint">
          {t('palette.chooseHint')}
        </p>
      ) : null}
      {interactive ? (
        <div className="odo-palette-grid" role="radiogroup" aria-labelledby="odo-palette-title">
          {paletteStatuses.map((status, index) => (
            // biome-ignore lint/a11y/useSemanticElements: a button styled as a chip is the radio here (with its glyph).
            <button
              key={status}
              type="button"
              role="radio"
              aria-checked={status === selected}
              className={`odo-chip${status === selected ? ' active' : ''}`}
              onClick={() => onSelect(status)}
              data-testid={`status-${status}`}
            >
              <Sample status={status} />
              <span className="odo-chip-text">
                <span>{t(`statuses.${status}`)}</span>
                <small className="text-body-secondary">{t(`palette.scopes.${statusScopes[status]}`)}</small>
              </span>
              {index < 9 ? <kbd className="odo-key">{index + 1}</kbd> : null}
            </button>
          ))}
        </div>
      ) : (
        <ul className="odo-palette-grid list-unstyled mb-0">
          {paletteStatuses.map((status) => (
            <li key={status} className="odo-chip">
              <Sample status={status} />
              <span className="odo-chip-text">{t(`statuses.${status}`)}</span>
            </li>
          ))}
        </ul>
      )}
      <p className="small mb-0 mt-2 d-flex flex-wrap gap-3">
        <span className="odo-colour-red">{t('legend.red')}</span>
        <span className="odo-colour-blue">{t('legend.blue')}</span>
      </p>
    </section>
  );
}

function KeyboardHelp() {
  const { t } = useTranslation('odontogram');
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="btn btn-outline-secondary btn-sm"
        onClick={() => setOpen(true)}
        data-testid="odontogram-help"
      >
        <Keyboard size={16} aria-hidden="true" className="me-1" />
        {t('help.button')}
      </button>
      <Modal show={open} onHide={() => setOpen(false)} centered>
        <Modal.Header closeButton closeLabel={t('common.close')}>
          <Modal.Title as="h2" className="h5">
            {t('help.title')}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <ul className="mb-0 odo-help">
            <li>{t('help.focus')}</li>
            <li>{t('help.arrows')}</li>
            <li>{t('help.zones')}</li>
            <li>{t('help.statuses')}</li>
            <li>{t('help.apply')}</li>
            <li>{t('help.clear')}</li>
            <li>{t('help.undo')}</li>
            <li>{t('help.click')}</li>
          </ul>
        </Modal.Body>
      </Modal>
    </>
  );
}

function VoidModal({
  entry,
  onClose,
  patientId,
  describe,
}: {
  entry: OdontogramEntry | null;
  onClose: () => void;
  patientId: string;
  describe: (entry: OdontogramEntry) => string;
}) {
  const { t } = useTranslation(['odontogram', 'validation']);
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const voidEntry = useVoidEntry(patientId);
  const close = () => {
    setReason('');
    setMissing(false);
    onClose();
  };
  const submit = () => {
    if (!entry) return;
    if (!reason.trim()) {
      setMissing(true);
      return;
    }
    voidEntry.mutate(
      { entryId: entry.id, reason: reason.trim() },
      {
        onSuccess: (answer) => {
          toastSuccess(answer.code);
          close();
        },
        onError: (error) => toastApiError(error),
      },
    );
  };
  return (
    <Modal show={entry !== null} onHide={close} centered>
      <Modal.Header closeButton closeLabel={t('common.close')}>
        <Modal.Title as="h2" className="h5">
          {t('void.title')}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="fw-semibold mb-1">{entry ? describe(entry) : null}</p>
        <p className="small text-body-secondary">{t('void.body')}</p>
        <label htmlFor="odo-void-reason" className="form-label">
          {t('void.reason')}
        </label>
        <textarea
          id="odo-void-reason"
          className={`form-control${missing ? ' is-invalid' : ''}`}
          rows={2}
          maxLength={500}
          value={reason}
          onChange={(event) => {
            setReason(event.target.value);
            setMissing(false);
          }}
          data-testid="void-reason"
        />
        {missing ? <div className="invalid-feedback">{t('validation:required')}</div> : null}
      </Modal.Body>
      <Modal.Footer>
        <button type="button" className="btn btn-outline-secondary" onClick={close}>
          {t('void.cancel')}
        </button>
        <button
          type="button"
          className="btn btn-danger"
          onClick={submit}
          disabled={voidEntry.isPending}
          data-testid="void-confirm"
        >
          {t('void.confirm')}
        </button>
      </Modal.Footer>
    </Modal>
  );
}

/** The last mark saved, offered for undo for a few seconds. */
interface UndoableMark {
  ids: string[];
  label: string;
}

const undoSeconds = 8;

/**
 * "Anotado: Pieza 36 · Oclusal · Caries — Deshacer", for a few seconds after each mark (the
 * time stops while the pointer or the focus is on it). Ctrl+Z on the chart does the same.
 */
function UndoBar({
  mark,
  onUndo,
  onExpire,
}: {
  mark: UndoableMark | null;
  onUndo: (mark: UndoableMark) => void;
  onExpire: () => void;
}) {
  const { t } = useTranslation('odontogram');
  const [held, setHeld] = useState(false);
  const expire = useRef(onExpire);
  expire.current = onExpire;
  useEffect(() => {
    if (!mark || held) return;
    const timer = window.setTimeout(() => expire.current(), undoSeconds * 1000);
    return () => window.clearTimeout(timer);
  }, [mark, held]);
  useEffect(() => {
    if (!mark) setHeld(false);
  }, [mark]);
  return (
    <div className="odo-undo-holder" role="status">
      {mark ? (
        // biome-ignore lint/a11y/noStaticElementInteractions: pointer and focus only hold the timer; the button is the action.
        <div
          className="odo-undo"
          data-testid="odontogram-undo"
          onMouseEnter={() => setHeld(true)}
          onMouseLeave={() => setHeld(false)}
          onFocus={() => setHeld(true)}
          onBlur={() => setHeld(false)}
        >
          <span className="odo-undo-text">{t('undo.done', { mark: mark.label })}</span>
          <button type="button" className="btn btn-sm btn-light" onClick={() => onUndo(mark)}>
            {t('undo.action')}
          </button>
        </div>
      ) : null}
    </div>
  );
}

const changesPageSize = 10;

function ChangesList({ patientId, canWrite }: { patientId: string; canWrite: boolean }) {
  const { t } = useTranslation('odontogram');
  const dateTime = useDateTimeFormat();
  const { page, setPage } = useListState();
  const [voiding, setVoiding] = useState<OdontogramEntry | null>(null);
  const query = useOdontogramEntries(patientId, page, changesPageSize);
  const describe = (entry: OdontogramEntry) =>
    `${t('tooth', { tooth: entry.tooth })} · ${entry.zone ? t(`zones.${entry.zone}`) : t('piece')} · ${t(`statuses.${entry.status}`)}`;
  const columns: Column<OdontogramEntry>[] = [
    { key: 'date', header: t('changes.date'), className: 'text-nowrap', cell: (entry) => dateTime(entry.chartedAt) },
    { key: 'tooth', header: t('changes.tooth'), className: 'fw-semibold', cell: (entry) => entry.tooth },
    {
      key: 'zone',
      header: t('changes.zone'),
      cell: (entry) => (entry.zone ? t(`zones.${entry.zone}`) : t('piece')),
    },
    {
      key: 'status',
      header: t('changes.status'),
      cell: (entry) => (
        <>
          <span
            className={`odo-status odo-colour-${entry.status === 'healthy' ? 'none' : statusColours[entry.status]}`}
          >
            {t(`statuses.${entry.status}`)}
          </span>
          {entry.notes ? <div className="small text-body-secondary">{entry.notes}</div> : null}
        </>
      ),
    },
    {
      key: 'professional',
      header: t('changes.professional'),
      className: 'text-nowrap',
      cell: (entry) => entry.professionalName,
    },
    {
      key: 'attendance',
      header: t('changes.attendance'),
      className: 'odo-attendance-cell',
      cell: (entry) => entry.attendanceTitle ?? '—',
    },
  ];
  if (canWrite) {
    columns.push({
      key: 'void',
      header: '',
      className: 'text-end',
      cell: (entry) => (
        <button
          type="button"
          className="btn btn-link btn-sm odo-void-link p-0"
          onClick={() => setVoiding(entry)}
          data-testid="void-entry"
          aria-label={`${t('changes.void')}: ${describe(entry)}`}
        >
          {t('changes.void')}
        </button>
      ),
    });
  }
  return (
    <section className="mt-4" aria-labelledby="odo-changes-title" data-testid="odontogram-changes">
      <h2 id="odo-changes-title" className="h6 px-3">
        {t('changes.title')}
      </h2>
      <DataTable<OdontogramEntry>
        label={t('changes.title')}
        className="table-hover mh-table"
        compact
        columns={columns}
        query={query}
        rowKey={(entry) => entry.id}
        rowProps={(entry) => ({
          'data-testid': 'odontogram-entry',
          'data-tooth': String(entry.tooth),
          'data-status': entry.status,
        })}
        emptyText={t('changes.empty')}
        emptyTestId="odontogram-changes-empty"
        errorText={t('loadError')}
        retryText={t('retry')}
        pagination={{
          page,
          pageSize: changesPageSize,
          onPage: setPage,
          label: t('changes.pages'),
          onlyWhenNeeded: true,
        }}
      />
      <VoidModal entry={voiding} onClose={() => setVoiding(null)} patientId={patientId} describe={describe} />
    </section>
  );
}

/** The zoomed tooth: big zones to tap on a phone, and the whole piece. */
function ToothEditor({
  tooth,
  state,
  zone,
  onPick,
  interactive,
  needsStatus,
}: {
  tooth: number;
  state: ToothState | undefined;
  zone: ToothZone | null;
  onPick: (tooth: number, zone: ToothZone | null) => void;
  interactive: boolean;
  /** The tooth was selected without a status chosen: say what to do. */
  needsStatus: boolean;
}) {
  const { t } = useTranslation('odontogram');
  const describe = [
    state?.piece ? `${t('piece')}: ${t(`statuses.${state.piece.status}`)}` : null,
    ...toothZones.flatMap((name) =>
      state?.zones[name] ? [`${t(`zones.${name}`)}: ${t(`statuses.${state.zones[name]?.status}`)}`] : [],
    ),
  ].filter(Boolean);
  return (
    <section className="odo-editor" aria-labelledby="odo-editor-title" data-testid="tooth-editor">
      <h2 id="odo-editor-title" className="h6 mb-2">
        {t('editor.title', { tooth })}
      </h2>
      <div role="status" className="odo-choose-status-holder">
        {needsStatus ? (
          <div className="alert alert-info py-2 px-3 small mb-2" data-testid="odontogram-choose-status">
            {t('palette.chooseFirst', { tooth })}
          </div>
        ) : null}
      </div>
      <div className="d-flex gap-3 align-items-start flex-wrap">
        <svg
          viewBox="0 0 40 40"
          className="odo-editor-glyph"
          onClick={(event) => {
            if (!interactive) return;
            const picked = (event.target as Element).getAttribute('data-zone') as ToothZone | null;
            if (picked) onPick(tooth, picked);
          }}
          aria-hidden="true"
        >
          <ToothGlyph tooth={tooth} state={state} focusZone={zone} />
        </svg>
        <div className="d-flex flex-column gap-2 min-w-0">
          {interactive ? (
            <button
              type="button"
              className="btn btn-outline-primary btn-sm"
              onClick={() => onPick(tooth, null)}
              data-testid="editor-piece"
            >
              {t('editor.wholePiece')}
            </button>
          ) : null}
          <div className="small" data-testid="tooth-editor-state">
            {describe.length ? describe.join(' · ') : t('noMarks')}
          </div>
          {interactive ? <div className="small text-body-secondary">{t('editor.hint')}</div> : null}
        </div>
      </div>
    </section>
  );
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
