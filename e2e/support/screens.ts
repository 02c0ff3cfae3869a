import { expect, type Page } from '@playwright/test';
import { saveScreenshot } from './artifacts';
import { expectNoAxeViolations } from './axe';
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

/**
 * The screen as it is now, checked and kept: settled, clean for axe (`what` names it in a
 * failure; `include`, a CSS selector, limits the check to one part), its screenshot saved as `screenshot`.
 */
export async function checkScreen(
  page: Page,
  what: string,
  screenshot: string,
  { spinners = false, fullPage = true, include }: { spinners?: boolean; fullPage?: boolean; include?: string } = {},
): Promise<void> {
  await settle(page, { spinners });
  await expectNoAxeViolations(page, what, include);
  await saveScreenshot(page, screenshot, { fullPage });
}

/** The screen as it is now at 390 × 844, kept as the screenshot `name`; then back to 1280 × 900. */
export async function screenshotAtPhoneWidth(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  await settle(page);
  await saveScreenshot(page, name);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * `path` (light) at 390 × 844, settled with its spinners gone: the page must not scroll sideways.
 * The page is already signed in.
 */
export async function openAtPhoneWidth(page: Page, path: string): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(themed(path, 'light'));
  await settle(page, { spinners: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/** A screen of an area: its label and its path. */
export type AreaScreen = readonly [label: string, path: string];

/**
 * An area's screens again in dark, each checked (`<area> <label> (dark)`) and kept
 * (`<area>-<label>-dark`), then `phone` in light at 390 × 844 (`<area>-<label>-390`); each one
 * with its spinners gone. The viewport stays at 390 × 844.
 */
export async function checkDarkThenPhone(
  page: Page,
  area: string,
  dark: readonly AreaScreen[],
  phone: readonly AreaScreen[],
): Promise<void> {
  for (const [label, path] of dark) {
    await page.goto(themed(path, 'dark'));
    await checkScreen(page, `${area} ${label} (dark)`, `${area}-${label}-dark`, { spinners: true });
  }
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [label, path] of phone) {
    await page.goto(themed(path, 'light'));
    await settle(page, { spinners: true });
    await saveScreenshot(page, `${area}-${label}-390`);
  }
}
