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
