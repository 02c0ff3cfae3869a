import type { LucideIcon } from 'lucide-react';
import { Download } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { toastApiError } from '../lib/api-toast';
import { BusyButton } from './busy-button';

/** A button that downloads a file the server makes (an export, a template, a CSV): busy while it comes, a toast if it fails. */
export function DownloadButton({
  download,
  className,
  icon = Download,
  title,
  testId,
  children,
}: {
  download: () => Promise<void>;
  className: string;
  icon?: LucideIcon;
  title?: string;
  testId?: string;
  children: ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  const start = async () => {
    setBusy(true);
    try {
      await download();
    } catch (error) {
      toastApiError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <BusyButton
      className={className}
      icon={icon}
      busy={busy}
      onClick={() => void start()}
      title={title}
      {...(testId ? { testId } : {})}
    >
      {children}
    </BusyButton>
  );
}
