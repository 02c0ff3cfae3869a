import { Eraser } from 'lucide-react';
import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import SignaturePad from 'signature_pad';
import './signature-pad.css';

/**
 * The patient's signature pad: `signature_pad` (pointer events: finger, stylus and mouse) on a
 * canvas that fills its box. The canvas is sized in device pixels (sharp on high-DPI screens)
 * and re-sized with its box, keeping what was drawn. The surface is always white with dark ink,
 * like paper, in the light and the dark theme, so the stored PNG reads the same everywhere.
 */

export interface SignaturePadHandle {
  /** The drawing as a PNG data: URL, or null when nothing was drawn. */
  toPng(): string | null;
  clear(): void;
}

export const SignaturePadField = forwardRef<
  SignaturePadHandle,
  { id: string; invalid?: boolean; describedBy?: string; onChange?: (empty: boolean) => void }
>(function SignaturePadField({ id, invalid = false, describedBy, onChange }, ref) {
  const { t } = useTranslation('authorizations');
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const changeRef = useRef(onChange);
  changeRef.current = onChange;
  const [empty, setEmpty] = useState(true);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const pad = new SignaturePad(canvas, { penColor: '#111827', minWidth: 0.8, maxWidth: 2.6 });
    padRef.current = pad;
    const resize = () => {
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      const width = canvas.offsetWidth;
      const height = canvas.offsetHeight;
      if (!width || !height) return;
      if (canvas.width === Math.round(width * ratio) && canvas.height === Math.round(height * ratio)) return;
      const strokes = pad.toData();
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      canvas.getContext('2d')?.scale(ratio, ratio);
      pad.clear();
      if (strokes.length) pad.fromData(strokes);
    };
    resize();
    const observer = new ResizeObserver(resize);
    observer.observe(canvas);
    const ended = () => {
      setEmpty(pad.isEmpty());
      changeRef.current?.(pad.isEmpty());
    };
    pad.addEventListener('endStroke', ended);
    return () => {
      observer.disconnect();
      pad.removeEventListener('endStroke', ended);
      pad.off();
      padRef.current = null;
    };
  }, []);

  const clear = () => {
    padRef.current?.clear();
    setEmpty(true);
    changeRef.current?.(true);
  };

  useImperativeHandle(ref, () => ({
    toPng: () => (padRef.current && !padRef.current.isEmpty() ? padRef.current.toDataURL('image/png') : null),
    clear,
  }));

  return (
    <div className={`signature-pad${invalid ? ' is-invalid' : ''}`}>
      <canvas
        ref={canvasRef}
        id={id}
        className="signature-pad-canvas"
        role="img"
        aria-label={t('sign.pad')}
        aria-describedby={describedBy}
        data-testid="signature-pad"
        data-empty={empty}
      />
      {empty ? (
        <span className="signature-pad-hint" aria-hidden="true">
          {t('sign.padHint')}
        </span>
      ) : null}
      <span className="signature-pad-line" aria-hidden="true" />
      <button
        type="button"
        className="btn btn-sm btn-light border signature-pad-clear"
        onClick={clear}
        disabled={empty}
        data-testid="signature-clear"
      >
        <Eraser size={14} aria-hidden="true" className="me-1" />
        {t('sign.clear')}
      </button>
    </div>
  );
});
