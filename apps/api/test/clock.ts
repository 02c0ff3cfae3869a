import { vi } from 'vitest';

/**
 * The controlled clock of date-sensitive tests. The application takes every instant from
 * JavaScript's clock (`new Date()`; the database's `now()` only stamps rows), so setting it here
 * sets the application's "now" and each clinic's "today" for the requests that follow. Only
 * `Date` is faked: timers, the database driver and the HTTP stack run on real time.
 */
export function setClock(instant: string | Date): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(instant));
}

export function restoreClock(): void {
  vi.useRealTimers();
}
