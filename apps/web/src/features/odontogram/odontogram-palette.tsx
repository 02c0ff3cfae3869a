import type { ToothStatus, ToothZone } from '@odontia/shared/enums';
import { paletteStatuses, statusScopes, type ToothState } from '@odontia/shared/odontogram';
import { Keyboard } from 'lucide-react';
import { useState } from 'react';
import { Modal } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { ToothGlyph } from './odontogram-chart';
import './odontogram.css';
import { IconTextButton } from '../../components/icon-button';

export const zoneKeys: Record<string, ToothZone | null> = {
  o: 'occlusal',
  m: 'mesial',
  d: 'distal',
  v: 'buccal',
  b: 'buccal',
  l: 'lingual',
  p: null,
};

/** A status's sample glyph: on the occlusal zone, or on the whole piece. */
export function sampleState(status: ToothStatus): ToothState | undefined {
  if (status === 'healthy') return undefined;
  const mark = { status, entryId: 'sample', chartedAt: '' };
  return statusScopes[status] === 'zone'
    ? { tooth: 16, piece: null, zones: { occlusal: mark } }
    : { tooth: 16, piece: mark, zones: {} };
}

export function Sample({ status, size = 26 }: { status: ToothStatus; size?: number }) {
  return (
    <svg viewBox="0 0 40 40" width={size} height={size} aria-hidden="true" className="odo-sample">
      <ToothGlyph tooth={16} state={sampleState(status)} />
    </svg>
  );
}

/** The status palette, which is also the chart's legend. */
export function Palette({
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

export function KeyboardHelp() {
  const { t } = useTranslation('odontogram');
  const [open, setOpen] = useState(false);
  return (
    <>
      <IconTextButton
        icon={Keyboard}
        className="btn btn-outline-secondary btn-sm"
        onClick={() => setOpen(true)}
        testId="odontogram-help"
        iconClassName="me-1"
      >
        {t('help.button')}
      </IconTextButton>
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
