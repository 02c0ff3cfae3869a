import { useEffect } from 'react';
import { useLockSession } from './session';

/** What counts as the user being there. Timers, polling and other background calls never do. */
export const activityEvents = ['pointerdown', 'pointermove', 'keydown', 'touchstart', 'wheel', 'scroll'] as const;

/**
 * Locks the screen after `minutes` without user activity (clinic setting `lockAfterMinutes`).
 * Mounted by the authenticated layout only, so the public pages never lock.
 */
export function useAutoLock(minutes: number): void {
  const lock = useLockSession();
  useEffect(() => {
    const limit = minutes * 60_000;
    let lastActivity = Date.now();
    const markActivity = () => {
      lastActivity = Date.now();
    };
    const options = { capture: true, passive: true } as const;
    for (const name of activityEvents) window.addEventListener(name, markActivity, options);
    const timer = window.setInterval(
      () => {
        if (Date.now() - lastActivity < limit) return;
        window.clearInterval(timer);
        void lock();
      },
      Math.min(15_000, limit / 4),
    );
    return () => {
      window.clearInterval(timer);
      for (const name of activityEvents) window.removeEventListener(name, markActivity, options);
    };
  }, [minutes, lock]);
}
