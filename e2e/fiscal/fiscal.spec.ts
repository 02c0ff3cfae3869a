import path from 'node:path';
import { expect, test } from '../fixtures/test';
import { artifactsDir, saveScreenshot } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { adminHeaders, apiCreate, apiGet, demoPatients } from '../support/clinic-api';
import { settle } from '../support/page';
import { pdfText } from '../support/pdf';
import { demoUsers, signInPage } from '../support/real-users';
import { checkScreen, openAtPhoneWidth } from '../support/screens';
import { rootServer } from '../support/servers';

/*
 * /settings/fiscal against the real server with the demo clinic (issue 17): a wrong CUIT is shown
 * by its field, the right one saves; a logo is uploaded and previewed; a point of sale is added;
 * a prescription's PDF then prints the legal name and the formatted CUIT. Axe and screenshots in
 * light, dark and at 390 px.
 */

/** A 240×80 PNG: a blue badge. */
const logoPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAPAAAABQCAYAAAAnSfh8AAAACXBIWXMAAAsTAAALEwEAmpwYAAAGPElEQVR4nO2dy49URRSH75KRW2OMj4iAcefG179hooi6ML5fK2XuHUFYaqImJj4TFyrIQ2UpookRBsFHom5UFEXMgCwgERNJjAozDANd5x5zmvSg8rB7pvtWVff3S04y4TG5/avzVVXXraqTZefRRaVeOVz4Ii9kW174vXnhJ10pSuABOSA98cAYO8WabBsu/ci8Fbo461RDy3WhK2WNK72noYCVHJBwHhReXCHvXDiqV7UFbz7aWJqXfoJGA1xyQKLxIC/8UTfaWHJeeF3pR5vER/DABB6QA3LmaDziy3OOvMALNEAj8UP835F4qNBFTJsjaBwCD8r2ptNDy/SK06NvIRtIHpKHHJCUPFg786qI1ebgjUHggXbmgfc2c87sSzHmARA5IMl5ML/wy7K8lLHQD0LgATkgHXuQF7Ilywu/H/MAiByQ5DywHVsZq8/hG4LAAzcbgEs/kZE8JA85IMl6AMARNAKBBw6ASQI6Ahk4DxiBI2gEAg8cAJMEdAQycB4wAkfQCAQeuJQBvnyV6O2rK315R6Vjeyr9+bDqn8dUT/pTYT/v+01164+VvrSj0ttWV83/E/q5CTxwgwrw8Kg0QXxvV6XTDe1Yx0+qbv6u0ltfr5q/K7SRBB64QQH4vg2V7vlVu6bdh1TvXl8BERDpoHlQK8A3PCP62b5Ke6VP91Z6/dPhTSXwwPUbwPesr/TIlPZcE9OqD73NaEwnIgPhQc8Btu+nz471btQ9l2xBjO/G4ROMkHQBNoDWfVk/vC2t/QKIAUj62oOeAmyvfELruW1Mp0MnGSHpAfzAm+HhbenhjUAMRNKXHmS9Wm2enNZodPS46nWsTgdPNkLSALiXr4rm8oqpm5/xkhWiqzZX+s1B1WMnQn86FFqWA5YLK9+tmrmRLMD3bogP3pbuWtcdiK9+QpqbRxA6m344pM0cSQ5gW3Xu5g6rbsugm+urJetdgRe1A3EdI3FXAba9zbFr6WtzG4Vt2oxQO3p8U5UWwO/vij+5N307N1N3Hgz9CVAq+vqApgPwglUyq1NFdWvqpOplK2f/OWNaXUdxy3IlGYDtPG8qumUO02iEOlEyANve41T04nYARvUoGYDtJo1U9OFuAEb1KBmA9x/WZGTX88z2cyLUlwD/cUyT0e+TAIzqUTIAn/CajGy1nBEY1SEA7oEAGNWlZABmCo1QwgDbXc6paC+LWKgmJQMwr5EQShjgGK7PaVcvsJED1aRkAE7hJFJLS15lIweqR8kAbLWKrNxJ7Jo6wWEGVN9VTskAbGG1imLXpp0cJ0T1KKnjhBZWaKyfTyJZ2J1HCPXlgX67rub7XzTqa066caWO/R6EzifLkYuXS1oAW1iVwFh1xxvdu9QOiFHfXWrXiu0/xQfxJ+Pdnc5Y72pTJPuewy0daHJa9asDp6bNdYy8PQXYSnxalcBYZFURr32qPlMJPHApA2xxf0SlVSg3ClCuTz3oaXGz5z8KD7GVNg1tMoEHLkWAbcXXSnyG0prPgZfOQ/rag54X+LZ48oMwBb5Dm0vggesHgFuvl/6a6j24tnj24FvAS+chA+FBbQBbWInPj8d7Nxrb66trWG0OnlSE9CfArbhzbdXVjRC2+6tbmzQIPHAJeRAE4NYClxUas1pFVu6kU9n/sYMJtrd5rtsjCTxwiXoQDOB/htUqMhCtYoJdum5X3tgdW3bTpYX9bH9mf2eH8e0871zqGxF44PrEgygAJvCAHBAAJgnoCNyAecAIHEEjEHjgAJgkoCOQgfOAETiCRiDwwAEwSUBHIAPnQZaXfiL0QxB4QA5Ixx7kpT9iAO/DPAAiByRBD/x4lpcyFv5BCDwgB1ynI3AhW7Lh0o+QPCQPOSDJeZAX/pFs3gpd7ErvQz8MgQfkgLTvQeEbQ4UuykyukHWYB0DkgKTkweqspaHlujAv/NEIHorAA3Kg/J+pc+mPXPCYLpgBuDkKjzRuZCpN8tCBSNweFF5c0bj5X/CehtiXzX8Q+iEJPCAH9GzwDhe+OCu8MxCPNpYwnQYgAJLops2ubNyUtaO80EvzUl6xla7QD07gwUDnQOElL2XjGd9525EtU88v/LK8lK2264NtlxE0KNHXHuTNrc1+3DZp5KV/dOZV0Tn0N4YGqOQ5v1/8AAAAAElFTkSuQmCC',
  'base64',
);

const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;

test('fiscal data with a wrong CUIT, fixed; a logo; a point of sale; the prescription PDF prints them', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const legalName = `Sonrisas del Sur S.R.L. ${stamp()}`;
  await signInPage(page, demoUsers.administrator);
  await page.goto('/settings/fiscal');
  await settle(page, { spinners: true });
  await expect(page).toHaveTitle(/Datos fiscales de la clínica/);

  const form = page.getByTestId('fiscal-form');
  await form.getByLabel('Razón social').fill(legalName);
  await form.getByLabel('País').selectOption({ label: 'Argentina' });
  await form.getByLabel('Condición fiscal').selectOption({ label: 'IVA Responsable Inscripto' });
  const taxId = form.getByLabel('Número de identificación fiscal');
  await taxId.fill('20-12345678-7');
  await form.getByLabel('Domicilio', { exact: true }).fill('Av. Corrientes 1234');
  await form.getByLabel('Ciudad', { exact: true }).fill('Buenos Aires');
  await form.getByTestId('fiscal-save').click();
  await expect(taxId).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByText('El número de identificación fiscal no es válido (revisa los dígitos)')).toBeVisible();
  await expect(taxId).toBeFocused();
  await saveScreenshot(page, 'fiscal-invalid-cuit', { fullPage: false });

  await taxId.fill('20-12345678-6');
  await form.getByTestId('fiscal-save').click();
  await expect(page.getByText('Datos fiscales guardados.')).toBeVisible();
  await expect(page.getByTestId('fiscal-form').getByLabel('Número de identificación fiscal')).toHaveValue(
    '20123456786',
  );

  await page
    .getByTestId('fiscal-logo-input')
    .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logoPng });
  await expect(page.getByTestId('fiscal-logo-preview')).toBeVisible();
  await expect(page.getByText('Logo actualizado.')).toBeVisible();

  const code = String(10000 + Math.floor(Math.random() * 89999));
  await page.getByTestId('pos-new').click();
  const dialog = page.getByRole('dialog', { name: 'Nuevo punto de venta' });
  await dialog.getByLabel('Número').fill(code);
  await dialog.getByLabel('Nombre').fill('Recepción');
  await dialog.getByTestId('pos-save').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('pos-row').filter({ hasText: code })).toContainText('Activo');

  // A prescription of the demo clinic, printed through the API: the header has the new data.
  const [patient] = await demoPatients(request, 1);
  expect(patient).toBeTruthy();
  const patientId = patient?.id ?? '';
  const me = await apiGet<{ data: { id: string } }>(request, 'api/auth/system/me');
  const prescription = await apiCreate(request, `api/patients/${patientId}/prescriptions`, {
    date: '2026-03-01',
    professionalId: me.data.id,
    lines: [{ medicine: 'Ibuprofeno 400 mg', dose: '1 comprimido' }],
  });
  const pdf = await request.get(rootServer.url(`api/patients/${patientId}/prescriptions/${prescription.id}/pdf`), {
    headers: await adminHeaders(request),
  });
  expect(pdf.status()).toBe(200);
  const text = pdfText(path.join(artifactsDir, 'fiscal-prescription.pdf'), await pdf.body(), { resolution: 70 });
  expect(text).toContain(legalName);
  expect(text).toContain('CUIT 20-12345678-6');
  expect(text).toContain('IVA Responsable Inscripto');
  expect(text).toContain('Av. Corrientes 1234, Buenos Aires');
});

for (const theme of ['light', 'dark'] as const) {
  test(`the page passes axe and is captured, ${theme}`, async ({ page }) => {
    await signInPage(page, demoUsers.administrator);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/settings/fiscal?layout_theme=${theme}`);
    await checkScreen(page, `/settings/fiscal (${theme})`, `fiscal-${theme}`, { spinners: true });
    await page.getByTestId('pos-new').click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoAxeViolations(page, `/settings/fiscal point of sale dialog (${theme})`);
    await saveScreenshot(page, `fiscal-pos-dialog-${theme}`, { fullPage: false });
  });
}

test('the page at 390 px', async ({ page }) => {
  await signInPage(page, demoUsers.administrator);
  await openAtPhoneWidth(page, '/settings/fiscal');
  await saveScreenshot(page, 'fiscal-390');
});

test('a supervisor does not see the page in the sidebar and is refused it', async ({ page }) => {
  await signInPage(page, demoUsers.supervisor);
  await expect(page.locator('a[href="/settings/fiscal"]')).toHaveCount(0);
  await page.goto('/settings/fiscal');
  await expect(page.getByTestId('fiscal-page')).toHaveCount(0);
});
