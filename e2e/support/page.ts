import { expect, type Page } from '@playwright/test';

/** Six random letters: a name no other test (or run) uses, so a row can be found by it. */
export function tag(): string {
  return Array.from({ length: 6 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
}

/**
 * The page at rest: no request in flight, the fonts loaded, no top progress bar (and, when asked,
 * no spinner), so a screenshot or an assertion sees the finished screen.
 */
export async function settle(page: Page, { spinners = false }: { spinners?: boolean } = {}): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  if (spinners) await expect(page.locator('.spinner-border')).toHaveCount(0);
}

/** Every request of `methods` whose URL matches `url`, as "METHOD url", in the order sent. */
export function watchRequests(page: Page, methods: string[], url: RegExp): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (methods.includes(request.method()) && url.test(request.url()))
      seen.push(`${request.method()} ${request.url()}`);
  });
  return seen;
}

/** Requests in flight per page, counted from the first in-app navigation on (see navigateInApp). */
const inFlight = new WeakMap<Page, { count: number; lastChange: number }>();

function trackRequests(page: Page): { count: number; lastChange: number } {
  let tracked = inFlight.get(page);
  if (tracked) return tracked;
  const counter = { count: 0, lastChange: Date.now() };
  const change = (delta: number) => {
    counter.count = Math.max(0, counter.count + delta);
    counter.lastChange = Date.now();
  };
  page.on('request', () => change(1));
  page.on('requestfinished', () => change(-1));
  page.on('requestfailed', () => change(-1));
  inFlight.set(page, counter);
  tracked = counter;
  return tracked;
}

/**
 * Opens `url` the way a click on a link does: the app already loaded takes it (the router follows
 * `popstate`), without loading the page, its scripts and the session again; then waits, as
 * 'networkidle' does for a load, until no request has been in flight for 500 ms (the load state
 * itself does not change on an in-app navigation). For walks over many pages, where a full load
 * per page was most of the run's time; the walk's first page is opened with `page.goto`.
 */
export async function navigateInApp(page: Page, url: string): Promise<void> {
  const requests = trackRequests(page);
  const started = Date.now();
  await page.evaluate((target) => {
    const state = window.history.state as { idx?: number } | null;
    // The router's own state shape ({ usr, key, idx }), so it counts this entry as its next one.
    window.history.pushState(
      { usr: null, key: Math.random().toString(36).slice(2, 10), idx: (state?.idx ?? 0) + 1 },
      '',
      target,
    );
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
  }, url);
  await page.waitForURL((current) => `${current.pathname}${current.search}` === url);
  await expect
    .poll(() => requests.count === 0 && Date.now() - Math.max(requests.lastChange, started) >= 500, {
      message: `the requests of ${url} answered`,
      intervals: [100],
      timeout: 20_000,
    })
    .toBe(true);
}
