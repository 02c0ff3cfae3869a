import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { saveScreenshot } from '../support/artifacts';
import { adminHeaders, demoPatients } from '../support/clinic-api';
import { tag } from '../support/page';
import { demoClinicToday, demoUsers, signInPage } from '../support/real-users';
import { shootScreens } from '../support/screens';
import { rootServer } from '../support/servers';

/*
 * Prescriptions against the real server (demo clinic): one line from the catalogue (an approved
 * medicine the test creates) and one written as free text; a medicine under review is never
 * offered; the printed PDF opens and carries the medicines and the verification code; then the
 * list and the form in light, dark and at 390 px.
 */

async function demoPatient(
  request: APIRequestContext,
): Promise<{ id: string; lastName: string; allergies: string | null }> {
  const body = { data: await demoPatients<{ id: string; lastName: string; allergies: string | null }>(request) };
  const patient = body.data[0];
  expect(patient, 'a demo patient').toBeTruthy();
  return { id: patient?.id ?? '', lastName: patient?.lastName ?? '', allergies: patient?.allergies ?? null };
}

async function createMedication(request: APIRequestContext, name: string, approvalStatus: string): Promise<string> {
  const response = await request.post(rootServer.url('api/medications'), {
    headers: await adminHeaders(request),
    data: {
      name,
      activePrinciple: 'Amoxicilina',
      concentration: '500 mg',
      costPrice: '10',
      basePrice: '20',
      taxRate: '21',
      totalStock: 30,
      minStock: 1,
      reorderStock: 2,
      approvalStatus,
    },
  });
  expect(response.status(), `medication ${name} created`).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

/** A text of the PDF's info dictionary as pdfkit writes it: UTF-16BE with a byte-order mark when not ASCII. */
function utf16(text: string): Buffer {
  return Buffer.from(`\ufeff${text}`, 'utf16le').swap16();
}

test('writes a prescription with a catalogue medicine and a free-text one, prints it and deletes it', async ({
  page,
  request,
  issues,
}) => {
  test.setTimeout(120_000);
  const word = tag();
  const approved = `Amoxicilina e2e ${word}`;
  const underReview = `Amoxicilina en revision e2e ${word}`;
  const freeText = `Enjuague bucal ${word}`;
  await createMedication(request, approved, 'approved');
  await createMedication(request, underReview, 'underReview');
  const patient = await demoPatient(request);
  await signInPage(page, demoUsers.administrator);

  await page.goto(`/patients/${patient.id}/mh`);
  await page.getByRole('tab', { name: 'Recetas' }).click();
  await expect(page.getByTestId('tab-prescription')).toBeVisible();
  await page.getByTestId('new-prescription').click();
  await expect(page).toHaveURL(/\/mh\/prescription\/new$/);
  const form = page.getByTestId('prescription-form');

  // An empty line is refused on the spot.
  await form.getByTestId('record-save').click();
  await expect(form.getByText('Este campo es obligatorio').first()).toBeVisible();

  // Line 1: from the catalogue; the medicine under review is not offered.
  const first = form.getByTestId('prescription-line').nth(0);
  await first.getByTestId('line-medicine').fill(`e2e ${word}`);
  const option = page.locator(`[data-testid="medicine-option"][data-name="${approved}"]`);
  await expect(option).toBeVisible();
  await expect(page.locator(`[data-testid="medicine-option"][data-name="${underReview}"]`)).toHaveCount(0);
  await option.click();
  await expect(first.getByTestId('line-medicine')).toHaveValue(approved);
  await expect(first.getByTestId('line-catalogue')).toBeVisible();
  await first.getByTestId('line-dose').fill('1 comprimido');
  await first.getByTestId('line-frequency').fill('cada 8 horas');
  await first.getByTestId('line-duration').fill('7 días');
  await first.getByTestId('line-quantity').fill('21');

  // Line 2: not in the catalogue, written as free text and marked as such.
  await form.getByTestId('line-add').click();
  const second = form.getByTestId('prescription-line').nth(1);
  await second.getByTestId('line-medicine').fill(freeText);
  await expect(second.getByTestId('medicine-no-results')).toBeVisible();
  await expect(second.getByTestId('line-free-text')).toBeVisible();
  await second.getByTestId('line-instructions').fill('Dos veces al día, sin tragar');
  await expect(form.getByTestId('allergy-warning')).toHaveCount(0);

  // A medicine the patient is allergic to (the demo's first patient: ibuprofen) is flagged.
  const allergy = (patient.allergies ?? '').split(',')[0]?.trim() ?? '';
  expect(allergy, 'the demo patient has an allergy').not.toBe('');
  await form.getByTestId('line-add').click();
  const third = form.getByTestId('prescription-line').nth(2);
  await third.getByTestId('line-medicine').fill(`${allergy.toUpperCase()} 400 mg`);
  await expect(third.getByTestId('allergy-warning')).toContainText(allergy);
  await third.getByTestId('line-remove').click();
  await expect(form.getByTestId('prescription-line')).toHaveCount(2);
  await form.getByLabel('Diagnóstico').fill(`Pulpitis ${word}`);
  await saveScreenshot(page, 'prescriptions-form-filled');
  await form.getByTestId('record-save').click();

  await expect(page.getByText('Receta creada correctamente.')).toBeVisible();
  await expect(page).toHaveURL(/\/mh\/prescription\/show\//);
  const code = (await page.getByTestId('verification-code').textContent()) ?? '';
  expect(code).toMatch(/^RX-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);
  await expect(page.getByTestId('record-line-medicine')).toHaveText([approved, freeText]);
  await expect(page.getByTestId('record-line-source')).toHaveText([
    'Del catálogo',
    'Texto libre (no está en el catálogo)',
  ]);
  await expect(page.getByTestId('record-line-allergy')).toHaveCount(0);
  await expect(page.getByTestId('change-row')).toHaveCount(1);

  // "Imprimir receta": the PDF opens in a new tab and carries the medicines and the code.
  const [pdf, response] = await Promise.all([
    page.waitForEvent('popup'),
    page.waitForResponse((answer) => /\/api\/patients\/[^/]+\/prescriptions\/[^/]+\/pdf$/.test(answer.url())),
    page.getByTestId('print-prescription').click(),
  ]);
  await expect.poll(() => pdf.url()).toMatch(/^blob:/);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/pdf');
  // The same document, read again with the session (the browser's copy lives in a blob URL).
  const again = await request.get(response.url(), { headers: await adminHeaders(request) });
  expect(again.status()).toBe(200);
  const bytes = await again.body();
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(bytes.includes(utf16(`${approved}, ${freeText} · ${code}`))).toBe(true);
  await pdf.close();

  // The list shows it (other tests write prescriptions for the same demo patient at the same time,
  // so it is found by its code rather than by its place).
  await page.goto(`/patients/${patient.id}/mh?tab=prescriptions`);
  const row = page.getByTestId('prescription-row').filter({ hasText: code });
  await expect(row).toContainText(approved);
  // …and so does the timeline of the history, with a link to it.
  await page.getByRole('tab', { name: 'Línea de tiempo' }).click();
  const entry = page.locator('[data-testid="timeline-entry"][data-kind="prescription"]', { hasText: approved });
  await expect(entry).toContainText(code);
  await expect(entry.getByRole('link')).toHaveAttribute('href', /\/mh\/prescription\/show\//);

  // The front desk verifies the code a pharmacy reads out (any case), from the patients list.
  await page.goto('/patients');
  await page.getByTestId('verify-prescription-open').click();
  await page.getByTestId('verify-code').fill(code.toLowerCase());
  await page.getByTestId('verify-prescription').getByRole('button', { name: 'Verificar' }).click();
  await expect(page.getByTestId('verify-result')).toContainText(approved);
  await expect(page.getByTestId('verify-result')).toContainText(freeText);
  await page.getByTestId('verify-result').getByRole('link', { name: 'Abrir la receta' }).click();
  await expect(page.getByTestId('verification-code')).toHaveText(code);

  // Deleting (from its page) asks first (the deletion is permanent) and goes back to the list.
  await page.getByTestId('record-delete').click();
  await expect(page.getByTestId('delete-record')).toContainText('¿Eliminar esta receta?');
  await page.getByTestId('delete-confirm').click();
  await expect(page.getByText('Receta eliminada correctamente.')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/patients/${patient.id}/mh\\?tab=prescriptions$`));
  await expect(page.getByTestId('tab-prescription')).not.toContainText(code);

  // A deleted prescription no longer verifies.
  await page.goto('/patients');
  await page.getByTestId('verify-prescription-open').click();
  await page.getByTestId('verify-code').fill(code);
  await page.getByTestId('verify-prescription').getByRole('button', { name: 'Verificar' }).click();
  await expect(page.getByTestId('verify-error')).toContainText('No hay ninguna receta vigente');

  // Expected 4xx: only the lookup of the deleted code.
  const unexpected = issues.all().filter((issue) => !/HTTP 404/.test(issue) && !/status of 404/.test(issue));
  expect(unexpected).toEqual([]);
});

test('screenshots: the prescriptions list and form in light, dark and at 390 px', async ({ page, request, issues }) => {
  test.setTimeout(90_000);
  const patient = await demoPatient(request);
  const headers = await adminHeaders(request);
  const me = (await (await request.get(rootServer.url('api/auth/system/me'), { headers })).json()) as {
    data: { id: string };
  };
  const created = await request.post(rootServer.url(`api/patients/${patient.id}/prescriptions`), {
    headers,
    data: {
      date: demoClinicToday(),
      professionalId: me.data.id,
      diagnosis: 'Control postoperatorio',
      lines: [{ medicine: 'Ibuprofeno 400 mg', dose: '1 comprimido', frequency: 'cada 8 horas', duration: '3 días' }],
    },
  });
  expect(created.status()).toBe(201);
  const { id } = ((await created.json()) as { data: { id: string } }).data;
  await signInPage(page, demoUsers.administrator);
  // The demo patient is allergic to ibuprofen: the written line says so on the prescription.
  await page.goto(`/patients/${patient.id}/mh/prescription/show/${id}`);
  await expect(page.getByTestId('record-line-allergy')).toHaveText('Alergia registrada: Ibuprofeno');
  const screens = [
    { name: 'prescriptions-list', path: `/patients/${patient.id}/mh?tab=prescriptions`, ready: 'prescription-row' },
    { name: 'prescriptions-form', path: `/patients/${patient.id}/mh/prescription/new`, ready: 'prescription-form' },
    {
      name: 'prescriptions-show',
      path: `/patients/${patient.id}/mh/prescription/show/${id}`,
      ready: 'prescription-view',
    },
  ];
  await shootScreens(page, screens);
  expect(issues.all()).toEqual([]);
});
