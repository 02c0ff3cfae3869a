import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';

/** e2e/artifacts (git-ignored): screenshots the suite takes on purpose, for people to look at. */
export const artifactsDir = path.resolve(import.meta.dirname, '..', 'artifacts');

/**
 * The whole page by default; `fullPage: false` for what the user sees (a toast over a scrolled
 * form); `animations: 'allow'` keeps a toast, whose timer is a CSS animation that fast-forwarding
 * would end.
 */
export async function saveScreenshot(
  page: Page,
  name: string,
  { fullPage = true, animations = 'disabled' as 'disabled' | 'allow' } = {},
): Promise<string> {
  const file = path.join(artifactsDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage, animations, caret: 'hide' });
  return file;
}

/** A screenshot as saveScreenshot keeps it, also attached to the test's report. */
export async function captureScreenshot(
  page: Page,
  testInfo: TestInfo,
  name: string,
  options?: Parameters<typeof saveScreenshot>[2],
): Promise<void> {
  const file = await saveScreenshot(page, name, options);
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}
