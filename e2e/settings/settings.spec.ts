import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { captureScreenshot } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { adminHeaders, demoPatients } from '../support/clinic-api';
import { settle } from '../support/page';
import { demoUsers, signInPage } from '../support/real-users';
import { openAtPhoneWidth } from '../support/screens';
import { rootServer } from '../support/servers';

/*
 * /settings against the real server with the demo clinic (issue 19): the screen lock and the
 * upload limit are changed in the form and are in effect (the idle screen locks after the new
 * minutes; a file above the new limit is refused); a point of sale's next invoice number is set
 * (a number not above the last issued is shown by its field). The demo clinic's settings are put
 * back at the end, so other specs see the usual ones. Axe and screenshots in light, dark and at 390 px.
 */

type Settings = {
  lockAfterMinutes: number;
  uploadMaxMb: number | null;
  uploadMaxMbLimit: number;
  updatedAt: string;
  version: number;
  [key: string]: unknown;
};

async function clinicSettings(request: APIRequestContext): Promise<Settings> {
  const response = await request.get(rootServer.url('api/settings/clinic'), { headers: await adminHeaders(request) });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: Settings }).data;
}

/** Puts back the demo clinic's lock minutes and upload limit. */
async function restore(request: APIRequestContext, original: Settings) {
  const { uploadMaxMbLimit: _limit, updatedAt: _updated, ...current } = await clinicSettings(request);
  const response = await request.put(rootServer.url('api/settings/clinic'), {
    headers: await adminHeaders(request),
    data: { ...current, lockAfterMinutes: original.lockAfterMinutes, uploadMaxMb: original.uploadMaxMb },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** A PDF's first bytes and padding: its type is accepted, its size is what is tested. */
const paddedPdf = (bytes: number) => {
  const head = Buffer.from('%PDF-1.4\n');
  return Buffer.concat([head, Buffer.alloc(bytes - head.length, 32)]);
};

/** The house's screenshot (e2e/artifacts), also attached to the test's own output. */
test.describe.configure({ mode: 'serial' });

test('the lock minutes and the upload limit are saved and in effect', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const original = await clinicSettings(request);
  try {
    await page.clock.install();
    await signInPage(page, demoUsers.administrator);
    await page.goto('/settings');
    await settle(page, { spinners: true });
    await expect(page).toHaveTitle(/Configuración/);
    const form = page.getByTestId('settings-form');

    // A value out of bounds is shown by its field.
    const lock = form.getByLabel('Bloqueo de pantalla (minutos sin actividad)');
    await lock.fill('500');
    await form.getByTestId('settings-save').click();
    await expect(lock).toHaveAttribute('aria-invalid', 'true');
    await expect(lock).toBeFocused();

    await lock.fill('3');
    const upload = form.getByLabel('Tamaño máximo de cada archivo (MB)');
    await expect(form.getByText(`Como máximo ${original.uploadMaxMbLimit} MB`)).toBeVisible();
    await upload.fill('1');
    await form.getByTestId('settings-save').click();
    await expect(page.getByText('Configuración guardada correctamente.')).toBeVisible();
    await expect(page.getByTestId('settings-form').getByLabel('Tamaño máximo de cada archivo (MB)')).toHaveValue('1');
    await captureScreenshot(page, testInfo, 'settings-saved', { fullPage: false, animations: 'allow' });

    // The upload limit: a 1.5 MB file is refused, naming the new maximum.
    const [patient] = await demoPatients(request, 1);
    const form1 = new FormData();
    form1.append('metadata', JSON.stringify([{ fileType: 'x_ray' }]));
    form1.append(
      'files',
      new Blob([new Uint8Array(paddedPdf(1.5 * 1024 * 1024))], { type: 'application/pdf' }),
      'panoramica.pdf',
    );
    const body = new Request('http://localhost/', { method: 'POST', body: form1 });
    const refused = await request.post(rootServer.url(`api/patients/${patient?.id}/files`), {
      headers: { ...(await adminHeaders(request)), 'content-type': body.headers.get('content-type') ?? '' },
      data: Buffer.from(await body.arrayBuffer()),
    });
    expect(refused.status()).toBe(413);
    expect(await refused.json()).toMatchObject({ code: 'file_too_large', details: { max: 1 } });

    // The lock: three quiet minutes lock the screen.
    await page.clock.runFor(60_000);
    await expect(page).toHaveURL('/settings');
    await page.clock.runFor(140_000);
    await expect(page).toHaveURL('/auth/lock-screen');
  } finally {
    await restore(request, original);
  }
});

test("a point of sale's next invoice number is set, never at or below the last issued", async ({ page }, testInfo) => {
  await signInPage(page, demoUsers.administrator);
  await page.goto('/settings');
  await settle(page, { spinners: true });
  const row = page.locator('[data-testid="numbering-row"][data-pos="0001"][data-type="invoice"]');
  await expect(row).toBeVisible();
  const before = Number(await row.getByTestId('numbering-next-number').textContent());
  await row.getByTestId('numbering-edit').click();
  const dialog = page.getByRole('dialog', { name: /Próximo número: Factura — punto de venta 0001/ });
  const next = dialog.getByLabel('Próximo número');
  await expect(next).toHaveValue(String(before));
  await expectNoAxeViolations(page, '/settings numbering dialog');

  await next.fill(String(before - 1));
  await dialog.getByTestId('numbering-save').click();
  await expect(next).toHaveAttribute('aria-invalid', 'true');
  await captureScreenshot(page, testInfo, 'settings-numbering-refused', { fullPage: false });

  const chosen = before + 1000;
  await next.fill(String(chosen));
  await dialog.getByTestId('numbering-save').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Configuración guardada correctamente.')).toBeVisible();
  await expect(row.getByTestId('numbering-next-number')).toHaveText(String(chosen));
});

for (const theme of ['light', 'dark'] as const) {
  test(`the page passes axe and is captured, ${theme}`, async ({ page }, testInfo) => {
    await signInPage(page, demoUsers.administrator);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/settings?layout_theme=${theme}`);
    await settle(page, { spinners: true });
    await expect(page.getByTestId('numbering-table')).toBeVisible();
    await expectNoAxeViolations(page, `/settings (${theme})`);
    await captureScreenshot(page, testInfo, `settings-${theme}`);
  });
}

test('the page at 390 px, and the keyboard reaches the form and the numbering', async ({ page }, testInfo) => {
  await signInPage(page, demoUsers.administrator);
  await openAtPhoneWidth(page, '/settings');
  await captureScreenshot(page, testInfo, 'settings-390');
  await page.getByTestId('settings-save').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('numbering-edit').first()).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
});

test('a supervisor is refused the page', async ({ page }) => {
  await signInPage(page, demoUsers.supervisor);
  await page.goto('/settings');
  await expect(page.getByTestId('forbidden')).toBeVisible();
  await expect(page.getByTestId('settings-page')).toHaveCount(0);
});
