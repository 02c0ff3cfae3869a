import { FileDown, Printer } from 'lucide-react';
import { useState } from 'react';
import { toastApiError } from '../lib/api-toast';
import { openPdfInNewTab } from '../lib/save-file';

/**
 * A button that opens a server PDF (a prescription, an order, a consent, a chart) in a new tab,
 * with a spinner while it loads and the server's error as a toast.
 */
export function PdfButton({
  load,
  fallbackName,
  label,
  icon = 'print',
  small = false,
  testId,
}: {
  load: () => Promise<{ blob: Blob; fileName?: string | null }>;
  /** The file's name when the tab is blocked and the server named none. */
  fallbackName: string;
  label: string;
  icon?: 'print' | 'download';
  small?: boolean;
  testId: string;
}) {
  const [busy, setBusy] = useState(false);
  const open = async () => {
    const opening = openPdfInNewTab(load, fallbackName);
    setBusy(true);
    try {
      await opening;
    } catch (error) {
      toastApiError(error);
    } finally {
      setBusy(false);
    }
  };
  const spacing = small ? 'me-1' : 'me-2';
  const Icon = icon === 'print' ? Printer : FileDown;
  return (
    <button
      type="button"
      className={`btn btn-outline-secondary${small ? ' btn-sm' : ''}`}
      onClick={() => void open()}
      disabled={busy}
      data-testid={testId}
    >
      {busy ? (
        <span className={`spinner-border spinner-border-sm ${spacing}`} aria-hidden="true" />
      ) : (
        <Icon size={16} aria-hidden="true" className={spacing} />
      )}
      {label}
    </button>
  );
}
