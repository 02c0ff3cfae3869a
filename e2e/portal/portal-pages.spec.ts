import { expect, test } from '@playwright/test';
import { saveScreenshot } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { settle } from '../support/page';
import { themed } from '../support/screens';
import { rootServer } from '../support/servers';

/*
 * Issue 37: the patient portal's pages that need no patient of their own, each checked by axe in
 * light and dark and kept as screenshots light, dark and at 390 px (the portal is built phone first).
 */

test.use({ viewport: { width: 390, height: 844 } });

/** The page at `path` in both themes at 390 px and light at 1280 px, each clean for axe and kept. */
async function shoot(page: import('@playwright/test').Page, path: string, ready: string, name: string) {
  for (const theme of ['light', 'dark'] as const) {
    await page.goto(rootServer.url(themed(path, theme)));
    await expect(page.getByTestId(ready)).toBeVisible();
    await settle(page, { spinners: true });
    await expectNoAxeViolations(page, `${name} (${theme})`);
    await saveScreenshot(page, `portal-${name}-${theme === 'light' ? '390' : 'dark-390'}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} fits 390 px`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(rootServer.url(themed(path, 'light')));
  await expect(page.getByTestId(ready)).toBeVisible();
  await settle(page, { spinners: true });
  await saveScreenshot(page, `portal-${name}-light`);
  await page.setViewportSize({ width: 390, height: 844 });
}

test('the portal without a session opens its sign-in page, its own bundle and no staff chunk', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('.js')) scripts.push(new URL(request.url()).pathname);
  });
  await page.goto(rootServer.url('portal'));
  await expect(page).toHaveURL(/\/portal\/sign-in$/);
  await expect(page.getByRole('heading', { name: 'Ingresar al portal' })).toBeVisible();
  expect(scripts.some((script) => /\/assets\/portal-[\w-]{8}\.js$/.test(script))).toBe(true);
  expect(scripts.filter((script) => /\/assets\/(?:start|public|app|index)-[\w-]{7,8}\.js$/.test(script))).toEqual([]);
  await shoot(page, 'portal/sign-in', 'sign-in-form', 'sign-in');
});

test('the sign-in form: every control by keyboard, required fields said where they are', async ({ page }) => {
  await page.goto(rootServer.url('portal/sign-in'));
  await expect(page.getByTestId('sign-in-form')).toBeVisible();
  await page.getByLabel('Correo electrónico').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Contraseña')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Ingresar' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Este campo es obligatorio').first()).toBeVisible();
});

test('an unknown page of the portal says so in the portal, in English for an English browser', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(rootServer.url('portal/nothing-here'));
  await expect(page.getByTestId('portal-not-found')).toHaveText('Page not found');
  await expectNoAxeViolations(page, 'portal not found');
  await context.close();
});
