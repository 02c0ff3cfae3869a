import { useEffect } from 'react';
import { profileFromBody, sessionApi, useLockSession } from './session';

/** What counts as the user being there. Timers, polling and other background calls never do. */
export const activityEvents = ['pointerdown', 'pointermove', 'keydown', 'touchstart', 'wheel', 'scroll'] as const;

/**
 * Locks the screen after `minutes` without user activity (clinic setting `lockAfterMinutes`).
 * Mounted by the authenticated layout only, so the public pages never lock.
 *
 * The server locks a session idle for as long (it counts requests, not clicks). So that someone
 * reading or typing on one page is not locked by the server, user activity with no call for half
 * the period sends one ordinary (not background) call.
 */
export function useAutoLock(minutes: number): void {
  const lock = useLockSession();
  useEffect(() => {
    const limit = minutes * 60_000;
    let lastActivity = Date.now();
    let lastCall = Date.now();
    const markActivity = () => {
      lastActivity = Date.now();
    };
    const options = { capture: true, passive: true } as const;
    for (const name of activityEvents) window.addEventListener(name, markActivity, options);
    const timer = window.setInterval(
      () => {
        const now = Date.now();
        if (now - lastActivity < limit) {
          if (lastActivity > lastCall && now - lastCall >= limit / 2) {
            lastCall = now;
            sessionApi.me().then(
              (body) => {
                // Locked by the server meanwhile (e.g. in another tab): show it.
                if (profileFromBody(body)?.locked) void lock();
              },
              () => undefined,
            );
          }
          return;
        }
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
