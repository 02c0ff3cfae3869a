import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { artifactsDir, saveScreenshot } from '../support/artifacts';
import { adminHeaders, createPatient } from '../support/clinic-api';
import { settle } from '../support/page';
import { demoUsers, openAsAdministrator, signInPage } from '../support/real-users';
import { rootServer } from '../support/servers';

/*
 * The odontogram tab against the real server (demo clinic): chart with the mouse and the
 * keyboard, see the marks after a reload and on the timeline (an earlier date without them),
 * void a mark, print the PDF; screenshots in light, dark and at 390 px.
 */

/** A patient of the test's own, with one mark charted a month ago (the timeline's earlier stop). */
async function patientWithHistory(request: APIRequestContext): Promise<string> {
  const headers = await adminHeaders(request);
  const id = await createPatient(request, {
    firstName: 'Tomás',
    lastName: `Odontograma ${Date.now()}`,
    sex: 'male',
    birthdate: '1985-06-01',
  });
  const monthAgo = new Date(Date.now() - 30 * 24 * 60 * 60 * 1000).toISOString();
  const charted = await request.post(rootServer.url(`api/patients/${id}/odontogram/entries`), {
    headers,
    data: { chartedAt: monthAgo, marks: [{ tooth: 16, zone: 'occlusal', status: 'sealant' }] },
  });
  expect(charted.status()).toBe(201);
  return id;
}

test('charts a caries on 36 occlusal and a crown on 11, sees them after reload and not on an earlier date; keyboard; void; print', async ({
  page,
  request,
  issues,
}) => {
  test.setTimeout(90_000);
  const patientId = await patientWithHistory(request);
  await openAsAdministrator(page, `/patients/${patientId}/mh`);
  await page.getByRole('tab', { name: 'Odontograma', exact: true }).click();
  await expect(page).toHaveURL(/tab=odontogram/);
  const chart = page.getByTestId('odontogram-chart');
  await expect(chart).toBeVisible();
  await expect(page.getByTestId('zone-16-occlusal')).toHaveAttribute('data-status', 'sealant');

  // Mouse: caries on 36 occlusal (no status is chosen when the tab opens: issue 14), then a crown
  // on 11 (a whole-piece status).
  await expect(page.getByTestId('status-caries')).toHaveAttribute('aria-checked', 'false');
  await page.getByTestId('status-caries').click();
  await page.getByTestId('zone-36-occlusal').click();
  await expect(page.getByTestId('zone-36-occlusal')).toHaveAttribute('data-status', 'caries');
  await page.getByTestId('status-crown').click();
  await page.getByTestId('odontogram-note').fill('Corona de zirconio');
  await page.getByTestId('zone-11-occlusal').click();
  await expect(page.getByTestId('tooth-11')).toHaveAttribute('data-piece', 'crown');
  await expect(page.locator('[data-testid="odontogram-entry"][data-tooth="11"]')).toContainText('Corona de zirconio');
  await expect(page.getByTestId('odontogram-note')).toHaveValue('');
  await expect(page.getByTestId('tooth-editor')).toContainText('Pieza 11');
  await expect(page.getByTestId('odontogram-entry')).toHaveCount(3);

  // After a reload both are still there (saved at once, no Save button).
  await page.reload();
  await expect(page.getByTestId('zone-36-occlusal')).toHaveAttribute('data-status', 'caries');
  await expect(page.getByTestId('tooth-11')).toHaveAttribute('data-piece', 'crown');

  // The timeline: the earliest stop (a month ago) shows the sealant but neither the caries nor the crown.
  const slider = page.getByTestId('timeline-slider');
  await slider.fill('0');
  await expect(page.getByTestId('timeline-past')).toBeVisible();
  await expect(page.getByTestId('zone-16-occlusal')).toHaveAttribute('data-status', 'sealant');
  await expect(page.getByTestId('zone-36-occlusal')).not.toHaveAttribute('data-status', /./);
  await expect(page.getByTestId('tooth-11')).not.toHaveAttribute('data-piece', /./);
  // A click there does not chart (the past is read-only).
  await page.getByTestId('zone-46-occlusal').click();
  await expect(page.getByTestId('odontogram-entry')).toHaveCount(3);
  await page.getByTestId('timeline-next').click();
  await page.getByTestId('timeline-next').click();
  await page.getByTestId('timeline-next').click();
  await expect(page.getByTestId('timeline-value')).toHaveText('Hoy (estado actual)');
  await expect(page.getByTestId('tooth-11')).toHaveAttribute('data-piece', 'crown');

  // Keyboard: the selected tooth (11) has the focus; arrow down to 41, left to 42, distal, caries, Enter.
  await page.getByTestId('tooth-11').focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('tooth-41')).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('tooth-42')).toBeFocused();
  await page.keyboard.press('d');
  await page.keyboard.press('1');
  await expect(page.getByTestId('status-caries')).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('zone-42-distal')).toHaveAttribute('data-status', 'caries');
  // 'p' and '7' (to extract, the 7th of the palette) on the whole piece with Space.
  await page.keyboard.press('p');
  await page.keyboard.press('7');
  await page.keyboard.press(' ');
  await expect(page.getByTestId('tooth-42')).toHaveAttribute('data-piece', 'to_extract');
  // Delete sets the chosen zone (the piece) back to healthy.
  await page.keyboard.press('Delete');
  await expect(page.getByTestId('tooth-42')).not.toHaveAttribute('data-piece', /./);
  await expect(page.getByTestId('odontogram-entry')).toHaveCount(6);

  // Void the caries of 36 with a reason: it leaves the chart.
  const row = page.locator('[data-testid="odontogram-entry"][data-tooth="36"]');
  await row.getByTestId('void-entry').click();
  await page.getByTestId('void-confirm').click();
  await expect(page.getByText('Este campo es obligatorio')).toBeVisible();
  await page.getByTestId('void-reason').fill('Pieza equivocada');
  await page.getByTestId('void-confirm').click();
  await expect(page.getByText('Anotación del odontograma anulada.')).toBeVisible();
  await expect(page.getByTestId('zone-36-occlusal')).not.toHaveAttribute('data-status', /./);
  await expect(page.getByTestId('odontogram-entry')).toHaveCount(5);

  // Print: the PDF opens in a new tab.
  const [pdf] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('odontogram-print').click()]);
  await expect.poll(() => pdf.url()).toMatch(/^blob:/);
  await pdf.close();
  expect(issues.all()).toEqual([]);
});

test('odontogram screenshots: light, dark and 390 px (demo patient with a chart)', async ({
  page,
  request,
  issues,
}) => {
  test.setTimeout(60_000);
  const response = await request.get(rootServer.url('api/patients?sort=skuPatient&pageSize=1'), {
    headers: await adminHeaders(request),
  });
  const patientId = ((await response.json()) as { data: { id: string }[] }).data[0]?.id;
  await signInPage(page, demoUsers.administrator);
  const tabPath = `/patients/${patientId}/mh?tab=odontogram`;
  for (const theme of ['light', 'dark'] as const) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${tabPath}&layout_theme=${theme}`);
    await expect(page.getByTestId('tooth-36')).toBeVisible();
    await expect(page.getByTestId('zone-36-occlusal')).toHaveAttribute('data-status', 'filling');
    await settle(page);
    await saveScreenshot(page, `odontogram-${theme}`);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${tabPath}&layout_theme=light`);
  await expect(page.getByTestId('tooth-36')).toBeVisible();
  await settle(page);
  await saveScreenshot(page, 'odontogram-390');
  await page.getByTestId('tab-odontogram').screenshot({ path: path.join(artifactsDir, 'odontogram-390-tab.png') });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, 'the page fits 390 px (the chart scrolls in its own box)').toBeLessThanOrEqual(390);
  // On a phone a zone is tapped in the zoomed tooth editor: big enough for a finger.
  const box = await page.locator('.odo-editor-glyph').boundingBox();
  expect(box?.width ?? 0).toBeGreaterThanOrEqual(100);
  expect(issues.all()).toEqual([]);
});
