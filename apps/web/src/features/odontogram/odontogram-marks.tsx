import { type ToothZone, toothZones } from '@odontia/shared/enums';
import type { ToothState } from '@odontia/shared/odontogram';
import type { OdontogramEntry } from '@odontia/shared/schemas/odontogram';
import { useEffect, useRef, useState } from 'react';
import { Modal } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useVoidEntry } from './api';
import { ToothGlyph } from './odontogram-chart';
import './odontogram.css';

export function VoidModal({
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
export interface UndoableMark {
  ids: string[];
  label: string;
}

export const undoSeconds = 8;

/**
 * "Anotado: Pieza 36 · Oclusal · Caries — Deshacer", for a few seconds after each mark (the
 * time stops while the pointer or the focus is on it). Ctrl+Z on the chart does the same.
 */
export function UndoBar({
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

/** The zoomed tooth: big zones to tap on a phone, and the whole piece. */
export function ToothEditor({
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
