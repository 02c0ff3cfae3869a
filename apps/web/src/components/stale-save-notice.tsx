import type { QueryKey } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { queryClient } from '../lib/query-client';

/**
 * An edit page's answer to a stale save (another user saved first): `onConflict` puts the current
 * record in the cache (or reloads it) and counts the stale saves; each one brings the notice
 * (above the form, out of view from the save button) into view again.
 */
export function useStaleSaveNotice() {
  const [conflict, setConflict] = useState(0);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!conflict) return;
    ref.current?.scrollIntoView({ block: 'center' });
    ref.current?.focus({ preventScroll: true });
  }, [conflict]);
  return {
    onConflict: (queryKey: QueryKey, current: unknown) => {
      setConflict((count) => count + 1);
      if (current) queryClient.setQueryData(queryKey, current);
      else void queryClient.invalidateQueries({ queryKey });
    },
    notice: (text: ReactNode) =>
      conflict ? (
        <div ref={ref} tabIndex={-1} className="alert alert-warning mb-0" role="alert" data-testid="version-conflict">
          {text}
        </div>
      ) : null,
  };
}
