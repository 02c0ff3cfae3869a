import {
  archesOf,
  buccalSites,
  comparePerioExams,
  lingualSites,
  type PerioDentition,
  type PerioSite,
  type PerioTooth,
  perioDentitions,
  perioIndices,
  perioSites,
  significantChangeMm,
} from '@odontia/shared/perio';
import { perioChartSvg } from '@odontia/shared/perio-svg';
import type { Patient } from '@odontia/shared/schemas/patients';
import type { PerioExam, PerioExamSummary } from '@odontia/shared/schemas/perio';
import { CheckCircle2, Plus, Trash2 } from 'lucide-react';
import { type KeyboardEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { BusyIcon } from '../../components/busy-icon';
import { ConfirmDelete } from '../../components/confirm-delete';
import { PdfButton } from '../../components/pdf-button';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { queryClient } from '../../lib/query-client';
import { useCalendarDateFormat, useClinicToday } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import { useCanWriteClinical } from '../medical-history/clinical-frame';
import {
  perioApi,
  perioKey,
  useClosePerioExam,
  useCreatePerioExam,
  useDiscardPerioExam,
  usePerioExam,
  usePerioExams,
  usePerioTeeth,
} from './api';
import { type Cursor, initialKeyState, type KeyState, pressKey, walkOf } from './keyboard';
import { markPerioPainted } from './render-timing';
import './perio.css';

/** The "Periodontograma" tab of the medical history (issue 41): history, chart, keyboard entry, comparison. */
export function PerioTab({ patient }: { patient: Patient }) {
  const { t } = useTranslation('perio');
  const canWrite = useCanWriteClinical();
  const list = usePerioExams(patient.id);
  const exams = list.data?.data ?? [];
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const shownId = selectedId ?? exams[0]?.id ?? null;
  const shown = exams.find((exam) => exam.id === shownId) ?? null;
  const [compareId, setCompareId] = useState<string | null>(null);
  const examQuery = usePerioExam(patient.id, shownId, true);
  const compareQuery = usePerioExam(patient.id, compareId);
  const [dentition, setDentition] = useState<PerioDentition | null>(null);
  const teethQuery = usePerioTeeth(patient.id, dentition);
  const create = useCreatePerioExam(patient.id);
  const me = useSessionUser();
  const today = useClinicToday();
  const date = useCalendarDateFormat();

  const startExam = async () => {
    const teeth = teethQuery.data;
    if (!teeth || !me) return;
    try {
      const answer = await create.mutateAsync({
        date: today,
        professionalId: me.id,
        dentition: teeth.dentition,
        teeth: teeth.present.map((tooth) => ({ tooth, implant: teeth.implants.includes(tooth) })),
      });
      toastSuccess('perio_exam_created');
      setCompareId(null);
      setSelectedId(answer.data.id);
    } catch (error) {
      toastApiError(error);
    }
  };

  if (list.isError) {
    return (
      <div className="text-center py-4 text-danger" role="alert">
        {t('loadError')}
        <button type="button" className="btn btn-link" onClick={() => void list.refetch()}>
          {t('retry')}
        </button>
      </div>
    );
  }

  return (
    <div className="perio-tab" data-testid="tab-perio">
      <div className="mh-toolbar flex-wrap gap-2">
        {canWrite ? (
          <>
            <label className="d-flex align-items-center gap-1 small mb-0">
              <span>{t('dentition')}</span>
              <select
                className="form-select form-select-sm w-auto"
                value={dentition ?? teethQuery.data?.dentition ?? 'adult'}
                onChange={(event) => setDentition(event.target.value as PerioDentition)}
                data-testid="perio-dentition"
              >
                {perioDentitions.map((value) => (
                  <option key={value} value={value}>
                    {t(`dentitions.${value}`)}
                  </option>
                ))}
              </select>
            </label>
            <button
              type="button"
              className="btn btn-primary btn-sm"
              onClick={() => void startExam()}
              disabled={create.isPending || !teethQuery.data}
              data-testid="perio-new"
            >
              <BusyIcon busy={create.isPending} icon={Plus} />
              {t('new')}
            </button>
          </>
        ) : null}
        <span className="me-auto" />
        {shown && exams.length > 1 ? (
          <label className="d-flex align-items-center gap-1 small mb-0">
            <span>{t('compareWith')}</span>
            <select
              className="form-select form-select-sm w-auto"
              value={compareId ?? ''}
              onChange={(event) => setCompareId(event.target.value || null)}
              data-testid="perio-compare"
            >
              <option value="">{t('compareNone')}</option>
              {exams
                .filter((exam) => exam.id !== shownId)
                .map((exam) => (
                  <option key={exam.id} value={exam.id}>
                    {date(exam.date)} · {t(`status.${exam.status}`)}
                  </option>
                ))}
            </select>
          </label>
        ) : null}
        {shown ? (
          <PdfButton
            load={() => perioApi.pdf(patient.id, shown.id)}
            fallbackName="periodontograma.pdf"
            label={t('print')}
            small
            testId="perio-print"
          />
        ) : null}
      </div>
      <div className="perio-layout">
        <ExamHistory
          exams={exams}
          shownId={shownId}
          onSelect={(id) => {
            setSelectedId(id);
            setCompareId(null);
          }}
        />
        <div className="perio-main">
          {list.isPending || (shownId && examQuery.isPending) ? (
            <div className="text-center py-4">
              <span className="spinner-border text-primary" role="status">
                <span className="visually-hidden">{t('saving')}</span>
              </span>
            </div>
          ) : examQuery.data ? (
            <ExamView
              key={examQuery.data.id}
              patient={patient}
              exam={examQuery.data}
              compareTo={compareId ? (compareQuery.data ?? null) : null}
              canWrite={canWrite}
            />
          ) : (
            <p className="text-body-secondary py-4 text-center mb-0" data-testid="perio-empty">
              {t('empty')}
            </p>
          )}
        </div>
      </div>
    </div>
  );
}

function ExamHistory({
  exams,
  shownId,
  onSelect,
}: {
  exams: PerioExamSummary[];
  shownId: string | null;
  onSelect: (id: string) => void;
}) {
  const { t } = useTranslation('perio');
  const date = useCalendarDateFormat();
  const figure = useFigure();
  if (exams.length === 0) return null;
  return (
    <nav className="perio-history" aria-label={t('history')}>
      <h2 className="h6 mb-2">{t('history')}</h2>
      <ul className="list-unstyled mb-0" data-testid="perio-history">
        {exams.map((exam) => (
          <li key={exam.id}>
            <button
              type="button"
              className={`perio-history-item ${exam.id === shownId ? 'active' : ''}`}
              aria-current={exam.id === shownId ? 'true' : undefined}
              onClick={() => onSelect(exam.id)}
              data-testid="perio-history-item"
            >
              <span className="fw-semibold">{date(exam.date)}</span>
              <span className={`badge ${exam.status === 'closed' ? 'text-bg-secondary' : 'text-bg-warning'}`}>
                {t(`status.${exam.status}`)}
              </span>
              <span className="small">
                {t('indices.bleeding')} {figure(exam.indices.bleedingPercent)} % · {t('indices.plaque')}{' '}
                {figure(exam.indices.plaquePercent)} %
              </span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** A figure of the indices in the interface's language (13,8 in Spanish). */
function useFigure(): (value: number) => string {
  const { i18n } = useTranslation();
  const format = new Intl.NumberFormat(i18n.resolvedLanguage ?? i18n.language, { maximumFractionDigits: 2 });
  return (value) => format.format(value);
}

const cellId = (cursor: Cursor) => `perio-cell-${cursor.tooth}-${cursor.site}`;

/** The teeth as stored (the answer adds each site's CAL, which is the server's). */
function storedTeeth(exam: PerioExam): Map<number, PerioTooth> {
  return new Map(
    exam.teeth.map((tooth) => [
      tooth.tooth,
      {
        ...tooth,
        sites: Object.fromEntries(
          perioSites.map((site) => {
            const { attachment: _attachment, ...values } = tooth.sites[site];
            return [site, values];
          }),
        ) as PerioTooth['sites'],
      },
    ]),
  );
}

/** The change between the exam shown and the one compared with, the earlier one first. */
function compareWith(compareTo: PerioExam | null, date: string, shown: PerioTooth[]) {
  if (!compareTo) return null;
  const other = [...storedTeeth(compareTo).values()];
  const older = compareTo.date <= date;
  return {
    result: older ? comparePerioExams(other, shown) : comparePerioExams(shown, other),
    since: older ? compareTo.date : date,
  };
}

function ExamView({
  patient,
  exam,
  compareTo,
  canWrite,
}: {
  patient: Patient;
  exam: PerioExam;
  compareTo: PerioExam | null;
  canWrite: boolean;
}) {
  const { t } = useTranslation('perio');
  const date = useCalendarDateFormat();
  const figure = useFigure();
  const editable = canWrite && exam.status === 'draft';
  const [teeth, setTeeth] = useState(() => storedTeeth(exam));
  const [keys, setKeys] = useState<KeyState>(() => initialKeyState(walkOf(exam.dentition, storedTeeth(exam))));
  const [saveState, setSaveState] = useState<'saving' | 'saved' | 'error' | null>(null);
  const [closing, setClosing] = useState(false);
  const [discarding, setDiscarding] = useState(false);
  const version = useRef(exam.version);
  const dirty = useRef(false);
  const inFlight = useRef<Promise<void> | null>(null);
  const latest = useRef(teeth);
  const keysNow = useRef(keys);
  const close = useClosePerioExam(patient.id);
  const discard = useDiscardPerioExam(patient.id);

  useLayoutEffect(() => {
    markPerioPainted();
  }, []);

  const save = async (): Promise<void> => {
    if (inFlight.current) {
      await inFlight.current;
      return dirty.current ? save() : undefined;
    }
    if (!dirty.current) return;
    dirty.current = false;
    setSaveState('saving');
    let failed = false;
    const run = (async () => {
      try {
        const answer = await perioApi.update(patient.id, exam.id, {
          date: exam.date,
          professionalId: exam.professionalId,
          dentition: exam.dentition,
          notes: exam.notes,
          teeth: [...latest.current.values()],
          version: version.current,
        });
        version.current = answer.data.version;
        queryClient.setQueryData([...perioKey(patient.id), 'exam', exam.id], answer.data);
        setSaveState('saved');
        void queryClient.invalidateQueries({ queryKey: [...perioKey(patient.id), 'list'] });
      } catch (error) {
        // Kept on screen; the next key saves again.
        failed = true;
        dirty.current = true;
        setSaveState('error');
        if (isApiError(error) && error.code === 'version_conflict') {
          void queryClient.invalidateQueries({ queryKey: perioKey(patient.id) });
        }
        toastApiError(error);
      }
    })();
    inFlight.current = run;
    await run;
    inFlight.current = null;
    if (dirty.current && !failed) await save();
  };

  // Saves a moment after the last key (each save is one version, audited with the teeth that changed).
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const schedule = () => {
    dirty.current = true;
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void save(), 700);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: flush once, when the exam is left
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
      if (dirty.current) void save();
    },
    [],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const navigation = event.key.startsWith('Arrow') || event.key === 'Home';
    if (!editable && !navigation) return;
    // From the refs, not this render's state: keys typed faster than React renders each see the last one's result.
    const result = pressKey(event.key, keysNow.current, latest.current, exam.dentition);
    if (!result.handled) return;
    event.preventDefault();
    keysNow.current = result.state;
    setKeys(result.state);
    if (result.teeth) {
      latest.current = result.teeth;
      setTeeth(result.teeth);
      schedule();
    }
  };

  const list = [...teeth.values()];
  const indices = perioIndices(list);
  const comparison = compareWith(compareTo, exam.date, list);
  const changes = new Map<string, 'worse' | 'better'>();
  for (const site of comparison?.result.sites ?? []) {
    if (!site.significant) continue;
    const worse = (site.attachmentDelta ?? 0) >= significantChangeMm || (site.depthDelta ?? 0) >= significantChangeMm;
    changes.set(`${site.tooth}:${site.site}`, worse ? 'worse' : 'better');
  }

  const dentitionTeeth = archesOf(exam.dentition);
  const absent = new Set([...dentitionTeeth.upper, ...dentitionTeeth.lower].filter((tooth) => !teeth.has(tooth)));
  const labels = { buccal: t('strips.buccal'), palatal: t('strips.palatal'), lingual: t('strips.lingual') };
  const cursor = editable || keys.cursor ? keys.cursor : null;
  const svg = (arch: 'upper' | 'lower') =>
    perioChartSvg(list, { dentition: exam.dentition, absent, arch, cursor, changes, labels });
  const current = keys.cursor;
  const pendingText =
    keys.pending === 'ten'
      ? t('pendingTen')
      : keys.pending === 'plus'
        ? t('pendingPlus')
        : keys.pending === 'mobility'
          ? t('pendingMobility')
          : keys.pending === 'furcation'
            ? t('pendingFurcation')
            : '';

  const row = (arch: number[], sites: readonly PerioSite[], label: string, testId: string) => (
    // biome-ignore lint/a11y/useSemanticElements lint/a11y/useFocusableInteractive: a row of the keyboard grid; the grid holds the focus (aria-activedescendant)
    <div role="row" className="perio-row" data-testid={testId}>
      {arch.map((number) => {
        const tooth = teeth.get(number);
        const viewerLeft = [1, 4, 5, 8].includes(Math.floor(number / 10));
        const ordered = viewerLeft ? sites : [...sites].reverse();
        if (!tooth || tooth.missing)
          return <span key={number} className="perio-tooth-cells perio-absent" aria-hidden="true" />;
        return (
          <span key={number} className="perio-tooth-cells" role="presentation">
            {ordered.map((site) => {
              const values = tooth.sites[site];
              const here = current?.tooth === number && current.site === site;
              const change = changes.get(`${number}:${site}`);
              const flags = (['bleeding', 'plaque', 'suppuration'] as const)
                .filter((flag) => values[flag])
                .map((flag) => t(`flags.${flag}`));
              return (
                // biome-ignore lint/a11y/useSemanticElements lint/a11y/useFocusableInteractive: a cell of the keyboard grid; the grid holds the focus (aria-activedescendant)
                <span
                  key={site}
                  role="gridcell"
                  id={cellId({ tooth: number, site })}
                  aria-selected={here}
                  className={[
                    'perio-cell',
                    here ? `perio-here perio-here-${keys.field}` : '',
                    values.depth !== null && values.depth >= 4 ? 'perio-deep' : '',
                    values.depth !== null && values.depth >= 6 ? 'perio-very-deep' : '',
                    values.bleeding ? 'perio-bleeding' : '',
                    change ? `perio-change-${change}` : '',
                  ].join(' ')}
                  data-testid="perio-cell"
                  data-tooth={number}
                  data-site={site}
                >
                  <span className="perio-depth" aria-hidden="true">
                    {values.depth ?? '·'}
                  </span>
                  <span className="perio-margin" aria-hidden="true">
                    {values.margin ?? '·'}
                  </span>
                  <span className="visually-hidden">
                    {`${t('cell', {
                      tooth: number,
                      site: t(`sites.${site}`),
                      depth: values.depth ?? t('notCharted'),
                      margin: values.margin ?? t('notCharted'),
                    })}${flags.length ? `, ${flags.join(', ')}` : ''} (${label})`}
                  </span>
                </span>
              );
            })}
          </span>
        );
      })}
    </div>
  );

  const columns = Math.max(dentitionTeeth.upper.length, dentitionTeeth.lower.length);
  return (
    <div className="perio-exam" data-testid="perio-exam" data-status={exam.status}>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <h2 className="h6 mb-0">
          {t('title')} · {date(exam.date)} · {exam.professionalName}
        </h2>
        <span
          className={`badge ${exam.status === 'closed' ? 'text-bg-secondary' : 'text-bg-warning'}`}
          data-testid="perio-status"
        >
          {t(`status.${exam.status}`)}
        </span>
        <span className="me-auto small text-body-secondary" aria-live="polite" data-testid="perio-save-state">
          {saveState === 'error' ? t('saveError') : saveState ? t(saveState) : ''}
        </span>
        {editable ? (
          <>
            <button
              type="button"
              className="btn btn-outline-danger btn-sm"
              onClick={() => setDiscarding(true)}
              data-testid="perio-discard"
            >
              <Trash2 size={16} aria-hidden="true" className="me-1" />
              {t('discard')}
            </button>
            <button
              type="button"
              className="btn btn-success btn-sm"
              onClick={() => setClosing(true)}
              data-testid="perio-close"
            >
              <CheckCircle2 size={16} aria-hidden="true" className="me-1" />
              {t('close')}
            </button>
          </>
        ) : null}
      </div>
      {exam.status === 'closed' ? <p className="small text-body-secondary mb-2">{t('readOnly')}</p> : null}
      <div className="perio-scroll">
        {/* biome-ignore lint/a11y/useSemanticElements: a keyboard grid of figures over a drawing, not a table of data */}
        <div
          className="perio-chart"
          style={{ width: `${columns * 48}px` }}
          role="grid"
          tabIndex={0}
          aria-label={t('gridLabel')}
          aria-activedescendant={current ? cellId(current) : undefined}
          aria-readonly={!editable}
          onKeyDown={onKeyDown}
          data-testid="perio-grid"
        >
          {row(dentitionTeeth.upper, buccalSites, labels.buccal, 'perio-row-upper-buccal')}
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the SVG is built by the shared engine from numbers only */}
          <div className="perio-svg" aria-hidden="true" dangerouslySetInnerHTML={{ __html: svg('upper') }} />
          {row(dentitionTeeth.upper, lingualSites, labels.palatal, 'perio-row-upper-palatal')}
          <div className="perio-occlusal" aria-hidden="true" />
          {row(dentitionTeeth.lower, lingualSites, labels.lingual, 'perio-row-lower-lingual')}
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the SVG is built by the shared engine from numbers only */}
          <div className="perio-svg" aria-hidden="true" dangerouslySetInnerHTML={{ __html: svg('lower') }} />
          {row(dentitionTeeth.lower, buccalSites, labels.buccal, 'perio-row-lower-buccal')}
        </div>
      </div>
      {editable && current ? (
        <p className="small mb-2 perio-status-line" data-testid="perio-cursor">
          <strong>
            {t('current', { field: t(`fields.${keys.field}`), tooth: current.tooth, site: t(`sites.${current.site}`) })}
          </strong>
          {pendingText ? <span className="ms-2 text-body-secondary">{pendingText}</span> : null}
        </p>
      ) : null}
      <div className="perio-panels">
        <section className="perio-panel" aria-labelledby="perio-indices-title" data-testid="perio-indices">
          <h3 id="perio-indices-title" className="h6">
            {t('indices.title')}
          </h3>
          <dl className="perio-indices mb-0">
            <dt>{t('indices.plaque')}</dt>
            <dd data-testid="perio-plaque">{figure(indices.plaquePercent)} %</dd>
            <dt>{t('indices.bleeding')}</dt>
            <dd data-testid="perio-bleeding">{figure(indices.bleedingPercent)} %</dd>
            <dt>{t('indices.depth4')}</dt>
            <dd data-testid="perio-depth4">{indices.depth4Sites}</dd>
            <dt>{t('indices.depth6')}</dt>
            <dd data-testid="perio-depth6">{indices.depth6Sites}</dd>
            <dt>{t('indices.meanAttachment')}</dt>
            <dd data-testid="perio-cal">
              {indices.meanAttachment === null ? '—' : `${figure(indices.meanAttachment)} mm`}
            </dd>
            <dt>{t('indices.sites')}</dt>
            <dd>{indices.sites}</dd>
          </dl>
        </section>
        {comparison ? (
          <section className="perio-panel" aria-labelledby="perio-comparison-title" data-testid="perio-comparison">
            <h3 id="perio-comparison-title" className="h6">
              {t('comparison.title', { date: date(comparison.since) })}
            </h3>
            <ul className="mb-0 small">
              <li data-testid="perio-deeper">{t('comparison.deeper', { count: comparison.result.deeperSites })}</li>
              <li>{t('comparison.shallower', { count: comparison.result.shallowerSites })}</li>
              <li>{t('comparison.lost', { count: comparison.result.attachmentLostSites })}</li>
              <li>{t('comparison.gained', { count: comparison.result.attachmentGainedSites })}</li>
              <li data-testid="perio-significant">
                {t('comparison.significant', { count: comparison.result.significantSites })}
              </li>
            </ul>
          </section>
        ) : null}
        {editable ? (
          <details className="perio-panel perio-help">
            <summary className="h6 mb-1">{t('help.title')}</summary>
            <ul className="small mb-0">
              <li>{t('help.digits')}</li>
              <li>{t('help.ten')}</li>
              <li>{t('help.margin')}</li>
              <li>{t('help.flags')}</li>
              <li>{t('help.tooth')}</li>
              <li>{t('help.move')}</li>
            </ul>
          </details>
        ) : null}
      </div>
      <CloseDialog
        show={closing}
        pending={close.isPending}
        onCancel={() => setClosing(false)}
        onConfirm={async () => {
          try {
            if (timer.current) clearTimeout(timer.current);
            await save();
            await close.mutateAsync({ id: exam.id, version: version.current });
            toastSuccess('perio_exam_closed');
            setClosing(false);
          } catch (error) {
            toastApiError(error);
          }
        }}
      />
      <ConfirmDelete
        show={discarding}
        title={t('discardTitle')}
        confirmLabel={t('discard')}
        pending={discard.isPending}
        onCancel={() => setDiscarding(false)}
        onConfirm={async () => {
          try {
            if (timer.current) clearTimeout(timer.current);
            dirty.current = false;
            await discard.mutateAsync(exam.id);
            toastSuccess('perio_exam_deleted');
          } catch (error) {
            toastApiError(error);
            setDiscarding(false);
          }
        }}
      >
        <p className="mb-0">{t('discardText')}</p>
      </ConfirmDelete>
    </div>
  );
}

function CloseDialog({
  show,
  pending,
  onCancel,
  onConfirm,
}: {
  show: boolean;
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation('perio');
  return (
    <Modal show={show} onHide={onCancel} centered aria-labelledby="perio-close-title" restoreFocus>
      <div data-testid="perio-close-dialog">
        <Modal.Header closeButton closeLabel={t('cancel')}>
          <Modal.Title id="perio-close-title" as="h2" className="h5">
            {t('closeTitle')}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="mb-0">{t('closeText')}</p>
        </Modal.Body>
        <Modal.Footer>
          <button type="button" className="btn btn-outline-secondary" onClick={onCancel}>
            {t('cancel')}
          </button>
          <button
            type="button"
            className="btn btn-success"
            disabled={pending}
            onClick={onConfirm}
            data-testid="perio-close-confirm"
          >
            <BusyIcon busy={pending} icon={CheckCircle2} />
            {t('closeConfirm')}
          </button>
        </Modal.Footer>
      </div>
    </Modal>
  );
}
