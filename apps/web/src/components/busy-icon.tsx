import type { LucideIcon } from 'lucide-react';

/** A button's leading icon: a small spinner while its action runs, else `icon` (or nothing). */
export function BusyIcon({ busy, icon: Icon, size = 16 }: { busy: boolean; icon?: LucideIcon; size?: number }) {
  if (busy) return <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />;
  return Icon ? <Icon size={size} aria-hidden="true" className="me-2" /> : null;
}
