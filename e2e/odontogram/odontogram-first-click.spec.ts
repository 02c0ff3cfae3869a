import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { saveScreenshot } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { createPatient, totalOf } from '../support/clinic-api';
import { settle, watchRequests } from '../support/page';
import { demoUsers, signInPage } from '../support/real-users';
import { checkScreen } from '../support/screens';

/*
 * Issue 14: the odontogram tab opened with "Caries" chosen, so one click on a tooth saved a caries.
 * Nothing is charted until a status is chosen in this visit of the tab (a click only selects the
 * tooth and says to choose a status), and every mark offers an undo for a few seconds, which voids
 * the entry through the void API (audited like any void).
 */

const newPatient = (request: APIRequestContext) =>
  createPatient(request, {
    firstName: 'Marta',
    lastName: `Primer clic ${Date.now()}`,
    sex: 'female',
    birthdate: '1979-11-02',
  });

const entriesOf = (request: APIRequestContext, patientId: string) =>
  totalOf(request, `api/patients/${patientId}/odontogram/entries`);

test('the first click on a tooth charts nothing until a status is chosen; a mark can be undone', async ({
  page,
  request,
  issues,
}) => {
  test.setTimeout(90_000);
  const patientId = await newPatient(request);
  const posts = watchRequests(page, ['POST'], /\/odontogram\/entries$/);
  const voids: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'DELETE' && /\/odontogram\/entries\//.test(request.url())) {
      voids.push(request.postData() ?? '');
    }
  });
  await signInPage(page, demoUsers.administrator);
  await page.goto(`/patients/${patientId}/mh?tab=odontogram`);
  await expect(page.getByTestId('tooth-36')).toBeVisible();
  await expect(page.getByTestId('odontogram-palette')).toBeVisible();

  // No status is chosen when the tab opens.
  await expect(page.locator('[data-testid^="status-"][aria-checked="true"]')).toHaveCount(0);
  // A click on a face selects the tooth only, and says to choose a status.
  await page.getByTestId('zone-36-occlusal').click();
  await expect(page.getByTestId('tooth-editor')).toContainText('Pieza 36');
  await expect(page.getByTestId('odontogram-choose-status')).toBeVisible();
  await expect(page.getByTestId('zone-36-occlusal')).not.toHaveAttribute('data-status', /./);
  // The keyboard too: Enter on the focused tooth charts nothing without a status.
  await page.getByTestId('tooth-36').focus();
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
  expect(posts, 'nothing was charted').toEqual([]);
  expect(await entriesOf(request, patientId)).toBe(0);
  await checkScreen(page, 'odontogram on first open', 'odontogram-first-open-light', {
    include: '[data-testid="tab-odontogram"]',
  });

  // Once a status is chosen, a click marks, and the mark offers an undo.
  await page.getByTestId('status-caries').click();
  await expect(page.getByTestId('odontogram-choose-status')).toHaveCount(0);
  await page.getByTestId('zone-36-occlusal').click();
  await expect(page.getByTestId('zone-36-occlusal')).toHaveAttribute('data-status', 'caries');
  const undo = page.getByTestId('odontogram-undo');
  await expect(undo).toBeVisible();
  await expect(undo).toContainText('Anotado: Pieza 36 · Oclusal · Caries');
  await saveScreenshot(page, 'odontogram-undo-light');
  await expect.poll(() => entriesOf(request, patientId)).toBe(1);
  await undo.getByRole('button', { name: 'Deshacer' }).click();
  await expect(page.getByTestId('zone-36-occlusal')).not.toHaveAttribute('data-status', /./);
  await expect(page.getByTestId('odontogram-entry')).toHaveCount(0);
  await expect.poll(() => entriesOf(request, patientId)).toBe(0);

  // The undo is the void of that entry (audited like any void) with an automatic reason.
  expect(voids).toHaveLength(1);
  expect(voids[0]).toMatch(/Deshecho/);

  // With the keyboard: a status by its number, Enter marks, the undo is offered for that mark too.
  await page.getByTestId('tooth-36').focus();
  await page.keyboard.press('2');
  await expect(page.getByTestId('status-filling')).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('zone-36-occlusal')).toHaveAttribute('data-status', 'filling');
  await expect(undo).toBeVisible();
  await expect.poll(() => entriesOf(request, patientId)).toBe(1);

  // Leaving the tab and coming back: the status is to be chosen again.
  await page.getByRole('tab', { name: 'Atenciones' }).click();
  await page.getByRole('tab', { name: 'Odontograma', exact: true }).click();
  await expect(page.getByTestId('tooth-36')).toBeVisible();
  await expect(page.getByTestId('odontogram-palette')).toBeVisible();
  await expect(page.locator('[data-testid^="status-"][aria-checked="true"]')).toHaveCount(0);
  await page.getByTestId('zone-46-occlusal').click();
  await expect(page.getByTestId('odontogram-choose-status')).toBeVisible();
  expect(await entriesOf(request, patientId)).toBe(1);
  expect(issues.all()).toEqual([]);
});

test('odontogram on first open: dark theme and 390 px screenshots, axe', async ({ page, request, issues }) => {
  test.setTimeout(60_000);
  const patientId = await newPatient(request);
  await signInPage(page, demoUsers.administrator);
  for (const [theme, width] of [
    ['dark', 1280],
    ['light', 390],
  ] as const) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.goto(`/patients/${patientId}/mh?tab=odontogram&layout_theme=${theme}`);
    await expect(page.getByTestId('odontogram-palette')).toBeVisible();
    await page.getByTestId('zone-36-occlusal').click();
    await expect(page.getByTestId('odontogram-choose-status')).toBeVisible();
    await settle(page);
    await saveScreenshot(page, `odontogram-first-open-${width === 390 ? '390' : theme}`);
    await expectNoAxeViolations(
      page,
      `odontogram on first open (${theme}, ${width} px)`,
      '[data-testid="tab-odontogram"]',
    );
    // A mark, with its undo offered.
    await page.getByTestId('status-filling').click();
    await page.getByTestId('zone-36-occlusal').click();
    await expect(page.getByTestId('odontogram-undo')).toBeVisible();
    await saveScreenshot(page, `odontogram-undo-${width === 390 ? '390' : theme}`);
    await expectNoAxeViolations(page, `odontogram undo (${theme}, ${width} px)`, '[data-testid="tab-odontogram"]');
  }
  expect(issues.all()).toEqual([]);
});
