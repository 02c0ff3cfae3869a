import { expect, type Page } from '@playwright/test';
import { saveScreenshot } from './artifacts';
import { settle } from './page';

/*
 * The screenshots every area keeps of its screens: light and dark at 1280 × 800, then light at
 * 390 × 844, where the page must fit without scrolling sideways.
 */

export interface Screen {
  /** The screenshots' name: `<name>-light`, `<name>-dark`, `<name>-390`. */
  name: string;
  path: string;
  /** The test id that shows the screen is ready. */
  ready: string;
}

export interface ShootOptions {
  /** Done once the screen is ready, before it settles (fill a form, open a menu). */
  prepare?: () => Promise<void>;
  /** Also waits for the spinners to go. */
  spinners?: boolean;
  /** Done after each theme's desktop screenshot (an accessibility check). */
  afterTheme?: (theme: 'light' | 'dark') => Promise<void>;
}

/** `path` with `layout_theme=<theme>` added to its query. */
export const themed = (path: string, theme: string) => `${path}${path.includes('?') ? '&' : '?'}layout_theme=${theme}`;

export async function shootScreen(
  page: Page,
  { name, path, ready }: Screen,
  { prepare, spinners = false, afterTheme }: ShootOptions = {},
): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(themed(path, theme));
    await expect(page.getByTestId(ready).first()).toBeVisible();
    await prepare?.();
    await settle(page, { spinners });
    await saveScreenshot(page, `${name}-${theme}`);
    await afterTheme?.(theme);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(themed(path, 'light'));
  await expect(page.getByTestId(ready).first()).toBeVisible();
  await prepare?.();
  await settle(page, { spinners });
  await saveScreenshot(page, `${name}-390`);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${name} fits 390 px`).toBeLessThanOrEqual(390);
}

/** Every screen in turn, as shootScreen does. */
export async function shootScreens(page: Page, screens: readonly Screen[]): Promise<void> {
  for (const screen of screens) await shootScreen(page, screen);
}
