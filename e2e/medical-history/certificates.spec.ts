import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '../fixtures/test';
import { artifactsDir } from '../support/artifacts';
import { adminHeaders, demoPatients } from '../support/clinic-api';
import { tag } from '../support/page';
import { demoUsers, signInPage } from '../support/real-users';
import { shootScreens } from '../support/screens';

/*
 * Health certificates against the real server (demo clinic, issue 24): a rest certificate issued
 * from its template with the diagnosis withheld, printed (the PDF answers and carries its code),
 * verified by its CE- code from the patients list, voided with a reason (kept, marked, and the
 * verify dialog says so); then the tab, the form and the voided certificate in light, dark and at
 * 390 px.
 */

test('issues a rest certificate, prints it, verifies its code from the patients list and voids it', async ({
  page,
  request,
  issues,
}) => {
  test.setTimeout(120_000);
  const [patient] = await demoPatients<{ id: string; lastName: string }>(request, 1);
  const addressee = `Colegio e2e ${tag()}`;
  await signInPage(page, demoUsers.administrator);
  await page.goto(`/patients/${patient?.id}/mh?tab=certificates`);
  await page.getByTestId('new-certificate').click();
  const form = page.getByTestId('certificate-form');
  // The clinic's templates of the kind (Configuración › Plantillas de documentos), the first preselected.
  await expect(form.getByLabel('Plantilla').locator('option:checked')).toHaveText('Certificado de asistencia');
  await form.getByLabel('Tipo').selectOption('rest');
  await expect(form.getByLabel('Plantilla').locator('option:checked')).toHaveText('Certificado de reposo');
  await expect(form.getByLabel('Texto')).toHaveValue(/debe guardar reposo durante \{\{days\}\}, desde/);
  await form.getByLabel('Destinatario').fill(addressee);
  await form.getByLabel('Diagnóstico', { exact: true }).fill('Exodoncia de tercer molar');
  await form.getByRole('button', { name: 'Guardar', exact: true }).click();

  await expect(page.getByText('Certificado emitido.')).toBeVisible();
  const view = page.getByTestId('certificate-view');
  await expect(view.getByTestId('record-status')).toHaveText('Emitido');
  await expect(view.getByTestId('record-text')).toContainText(`A ${addressee}:`);
  await expect(view.getByTestId('record-text')).toContainText('durante 1 día, desde');
  await expect(view.getByTestId('record-text')).toContainText('Diagnóstico: reservado a pedido del paciente.');
  const code = (await view.getByTestId('verification-code').textContent()) ?? '';
  expect(code).toMatch(/^CE-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);

  // "Imprimir": the PDF opens in a new tab; read again with the session, it carries the code.
  const [popup, response] = await Promise.all([
    page.waitForEvent('popup'),
    page.waitForResponse((answer) => /\/api\/patients\/[^/]+\/certificates\/[^/]+\/pdf$/.test(answer.url())),
    page.getByTestId('print-certificate').click(),
  ]);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/pdf');
  const again = await request.get(response.url(), { headers: await adminHeaders(request) });
  const bytes = await again.body();
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(bytes.includes(Buffer.from(code, 'latin1'))).toBe(true);
  mkdirSync(artifactsDir, { recursive: true });
  writeFileSync(path.join(artifactsDir, 'certificate-rest.pdf'), bytes);
  await popup.close();

  // The front desk verifies the code an employer or a school reads out, from the patients list.
  await page.goto('/patients');
  await page.getByTestId('verify-prescription-open').click();
  await page.getByTestId('verify-code').fill(code.toLowerCase());
  await page.getByTestId('verify-prescription').getByRole('button', { name: 'Verificar' }).click();
  await expect(page.getByTestId('verify-result')).toContainText('Certificado emitido por la clínica');
  await expect(page.getByTestId('verify-result')).toContainText('Reposo');
  await page.getByTestId('verify-result').getByRole('link', { name: 'Abrir el certificado' }).click();
  await expect(page.getByTestId('verification-code')).toHaveText(code);

  // Voided with a reason: kept and marked; no edit of what was printed.
  await page.getByTestId('void-certificate').click();
  await page.getByTestId('void-confirm').click();
  await expect(page.getByTestId('void-dialog')).toContainText('Este campo es obligatorio');
  await page.getByTestId('void-reason').fill('Fechas equivocadas');
  await page.getByTestId('void-confirm').click();
  await expect(page.getByText('Certificado anulado.')).toBeVisible();
  await expect(page.getByTestId('record-status')).toHaveText('Anulado');
  await expect(page.getByTestId('certificate-voided')).toHaveText('Anulado: Fechas equivocadas');
  await expect(page.getByTestId('void-certificate')).toHaveCount(0);
  await expect(page.getByTestId('reissue-certificate')).toBeVisible();
  await page.goto(`/patients/${patient?.id}/mh?tab=certificates`);
  const row = page.getByTestId('certificate-row').filter({ hasText: code });
  await expect(row.getByTestId('certificate-row-voided')).toHaveText('Anulado');

  // The verify dialog now says it is void.
  await page.goto('/patients');
  await page.getByTestId('verify-prescription-open').click();
  await page.getByTestId('verify-code').fill(code);
  await page.getByTestId('verify-prescription').getByRole('button', { name: 'Verificar' }).click();
  await expect(page.getByTestId('verify-result')).toContainText('Certificado ANULADO: Fechas equivocadas');
  expect(issues.all()).toEqual([]);
});

test('screenshots: the certificates tab, the form and a voided certificate in light, dark and at 390 px', async ({
  page,
  request,
  issues,
}) => {
  test.setTimeout(90_000);
  const headers = await adminHeaders(request);
  const patients = (await (await request.get('/api/patients?pageSize=2&sort=skuPatient', { headers })).json()) as {
    data: { id: string }[];
  };
  const patient = patients.data[1];
  // The demo's second patient has a rest certificate voided and issued again.
  const list = (await (await request.get(`/api/patients/${patient?.id}/certificates`, { headers })).json()) as {
    data: { id: string; voidedAt: string | null }[];
  };
  const voided = list.data.find((row) => row.voidedAt);
  expect(voided, 'the demo has a voided certificate').toBeTruthy();
  await signInPage(page, demoUsers.administrator);
  const history = `/patients/${patient?.id}/mh`;
  const screens = [
    { name: 'certificates-list', path: `${history}?tab=certificates`, ready: 'certificate-row' },
    { name: 'certificates-form', path: `${history}/certificate/new`, ready: 'certificate-form' },
    { name: 'certificates-voided', path: `${history}/certificate/show/${voided?.id}`, ready: 'certificate-view' },
  ];
  await shootScreens(page, screens);
  expect(issues.all()).toEqual([]);
});
