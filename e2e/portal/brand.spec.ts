import { brandPalette, nearBlack } from '@odontia/shared/brand-color';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { seedToken } from '../fixtures/session';
import { saveScreenshot } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { settle } from '../support/page';
import { patientPhone } from '../support/portal';
import { demoPassword, demoUsers } from '../support/real-users';
import { checkScreen, themed } from '../support/screens';
import { basePathServer } from '../support/servers';

/*
 * Issue 37, the clinic's brand colour: chosen in the settings page's portal section (hex text and
 * colour picker, with a preview), then on the clinic's public page at 390 px, light and dark — the
 * band and the primary button in the colour, their text white or near-black, the links in a shade
 * that reads on the page (4.5:1), axe clean. On the sub-path server's demo clinic, so no other
 * spec's portal screenshot takes the colour; the clinic gets its own colour (none) back.
 */

const server = basePathServer;

type Settings = { brandColor: string | null; uploadMaxMbLimit: number; updatedAt: string; [key: string]: unknown };

async function adminToken(request: APIRequestContext): Promise<string> {
  const response = await request.post(server.url('api/auth/sign-in'), {
    data: { email: demoUsers.administrator, password: demoPassword, remember: false },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: { token: string } }).data.token;
}

async function settingsOf(request: APIRequestContext): Promise<Settings> {
  const response = await request.get(server.url('api/settings/clinic'), {
    headers: { Authorization: `Bearer ${await adminToken(request)}` },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: Settings }).data;
}

async function setBrandColor(request: APIRequestContext, brandColor: string | null) {
  const { uploadMaxMbLimit: _limit, updatedAt: _updated, ...current } = await settingsOf(request);
  const response = await request.put(server.url('api/settings/clinic'), {
    headers: { Authorization: `Bearer ${await adminToken(request)}` },
    data: { ...current, brandColor },
  });
  expect(response.status(), await response.text()).toBe(200);
}

const rgb = (hex: string) =>
  `rgb(${[1, 3, 5].map((start) => Number.parseInt(hex.slice(start, start + 2), 16)).join(', ')})`;

/** The clinic page in `theme`: band and primary button in the colour's fill, links in its shade for the theme. */
async function expectClinicPageIn(page: Page, color: string, theme: 'light' | 'dark', screenshot: string) {
  const palette = brandPalette(color);
  await page.goto(server.url(themed('c/sonrisa', theme)));
  await expect(page.getByTestId('clinic-page')).toBeVisible();
  const book = page.getByTestId('clinic-book');
  await expect(book).toHaveCSS('background-color', rgb(palette.fill));
  await expect(book).toHaveCSS('color', rgb(palette.onFill));
  await expect(page.locator('.portal-band')).toHaveCSS('background-color', rgb(palette.fill));
  await expect(page.getByTestId('clinic-sign-in')).toHaveCSS(
    'color',
    rgb(theme === 'light' ? palette.onLight : palette.onDark),
  );
  await checkScreen(page, `the clinic page in ${color} (${theme})`, screenshot);
}

test.describe.configure({ mode: 'serial' });

test("the clinic's colour is chosen in the settings and dresses its public page, readable", async ({
  browser,
  page: staff,
  request,
}) => {
  test.setTimeout(120_000);
  const original = (await settingsOf(request)).brandColor;
  try {
    await seedToken(staff, await adminToken(staff.request));
    await staff.goto(server.url('settings'));
    await settle(staff, { spinners: true });
    const form = staff.getByTestId('settings-form');
    const hex = form.getByLabel('Color de la clínica');
    await expect(hex).toHaveValue(original ?? '');

    // Anything but #rrggbb is said by its field.
    await hex.fill('verde');
    await form.getByTestId('settings-save').click();
    await expect(hex).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByText('El formato no es válido')).toBeVisible();

    // The hex text moves the picker and the preview; the preview is the portal's own look.
    await hex.fill('#0F766E');
    await expect(form.getByTestId('settings-brandColor-picker')).toHaveValue('#0f766e');
    const preview = form.getByTestId('settings-brand-preview-button');
    await expect(preview).toHaveCSS('background-color', 'rgb(15, 118, 110)');
    await expect(preview).toHaveCSS('color', 'rgb(255, 255, 255)');
    await form.getByTestId('settings-save').click();
    await expect(staff.getByText('Configuración guardada correctamente.')).toBeVisible();
    await expect(hex).toHaveValue('#0f766e');
    const section = staff.getByTestId('settings-portal');
    await section.scrollIntoViewIfNeeded();
    await expectNoAxeViolations(staff, '/settings with a brand colour');
    await saveScreenshot(staff, 'settings-brand-color-light', { fullPage: false });

    const page = await patientPhone(browser);
    await expectClinicPageIn(page, '#0f766e', 'light', 'portal-brand-clinic-390');
    await expectClinicPageIn(page, '#0f766e', 'dark', 'portal-brand-clinic-dark-390');

    // A light colour: near-black text on it, and links darkened until they read on white.
    await setBrandColor(request, '#ffd400');
    expect(brandPalette('#ffd400')).toMatchObject({ fill: '#ffd400', onFill: nearBlack });
    await expectClinicPageIn(page, '#ffd400', 'light', 'portal-brand-light-colour-390');
    await expectClinicPageIn(page, '#ffd400', 'dark', 'portal-brand-light-colour-dark-390');
    await page.context().close();

    // The picker's "no colour" empties the field: the portal's own blue again.
    await staff.reload();
    await settle(staff, { spinners: true });
    await staff.getByTestId('settings-brandColor-clear').click();
    await expect(hex).toHaveValue('');
    await expect(preview).toHaveCSS('background-color', 'rgb(37, 99, 235)');
  } finally {
    await setBrandColor(request, original);
  }
});
