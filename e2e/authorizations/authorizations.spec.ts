import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { saveScreenshot } from '../support/artifacts';
import { adminHeaders, demoPatients } from '../support/clinic-api';
import { settle, tag } from '../support/page';
import { demoClinicToday, demoUsers, signInPage } from '../support/real-users';
import { shootScreen } from '../support/screens';
import { rootServer } from '../support/servers';
import { drawSignature as drawStroke } from '../support/signature';

/*
 * Treatment authorizations against the real server (demo clinic of Buenos Aires, its Spanish
 * consent templates): write one from a template, read the preview, sign it by drawing on the pad
 * with the mouse, see the signed state (image, hash, "Verificar"), open the signed PDF and check
 * it carries the hash, then revoke the signature with a reason.
 */

/** A demo patient with an ID number (prefilled as the signer's). */
async function demoPatient(request: APIRequestContext) {
  const body = {
    data: await demoPatients<{ id: string; firstName: string; lastName: string; ssn: string | null }>(request),
  };
  const patient = body.data.find((candidate) => candidate.ssn);
  expect(patient, 'a demo patient with an ID number').toBeTruthy();
  return patient as { id: string; firstName: string; lastName: string; ssn: string };
}

/** A signature-like stroke across the pad, then a second one, with the mouse. */
async function drawSignature(page: Page): Promise<void> {
  const box = await drawStroke(page);
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.3);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.45, box.y + box.height * 0.75, { steps: 8 });
  await page.mouse.up();
}

async function newAuthorization(page: Page, patientId: string, word: string): Promise<void> {
  await page.goto(`/patients/${patientId}/mh?tab=authorizations`);
  await page.getByTestId('new-authorization').click();
  await expect(page).toHaveURL(/\/mh\/authorization\/new$/);
  const form = page.getByTestId('authorization-form');
  await form
    .getByTestId('template-select')
    .selectOption({ label: 'Consentimiento informado para extracción dentaria' });
  await form.getByTestId('authorization-treatment').fill(`Extracción de la pieza 38 (${word})`);
  await form.getByTestId('authorization-risks').fill('Dolor, inflamación, sangrado, alveolitis.');
  await form.getByTestId('authorization-alternatives').fill('Controles periódicos y tratamiento de conducto.');
  await form.getByTestId('authorization-cost').fill('150000');
}

test('write an authorization from a template, sign it on the pad, verify, open the signed PDF and revoke it', async ({
  page,
  request,
  issues,
}) => {
  test.setTimeout(120_000);
  const word = tag();
  const patient = await demoPatient(request);
  await signInPage(page, demoUsers.administrator);

  await page.goto(`/patients/${patient.id}/mh`);
  await page.getByRole('tab', { name: 'Autorizaciones' }).click();
  await expect(page.getByTestId('tab-authorizations')).toBeVisible();

  // A template, the fields, and the preview with the placeholders filled.
  await newAuthorization(page, patient.id, word);
  const preview = page.getByTestId('authorization-preview');
  await expect(preview).toContainText(`${patient.firstName} ${patient.lastName}`);
  await expect(preview).toContainText(`Extracción de la pieza 38 (${word})`);
  await expect(preview).toContainText('150.000,00');
  await expect(preview).not.toContainText('{{');
  await page.getByTestId('authorization-form').getByTestId('record-save').click();
  await expect(page.getByText('Autorización de tratamiento creada correctamente.')).toBeVisible();
  await expect(page).toHaveURL(/\/mh\/authorization\/show\//);
  await expect(page.getByTestId('authorization-status')).toHaveText('Sin firmar');
  await expect(page.getByTestId('authorization-body')).toContainText(`DNI ${patient.ssn}`);

  // Edit before signing.
  await page.getByTestId('record-edit').click();
  await expect(page).toHaveURL(/\/mh\/authorization\/edit\//);
  const body = page.getByTestId('authorization-form').getByTestId('authorization-body');
  await expect(body).toBeVisible();
  await body.fill(`${await body.inputValue()}\n\nAgregado antes de firmar: {{treatment}}.`);
  await page.getByTestId('authorization-form').getByTestId('record-save').click();
  await expect(page).toHaveURL(/\/mh\/authorization\/show\//);
  await expect(page.getByTestId('authorization-view').getByTestId('authorization-body')).toContainText(
    `Agregado antes de firmar: Extracción de la pieza 38 (${word}).`,
  );

  // Sign: an empty pad is refused; name and ID come from the patient; draw and save.
  await page.getByTestId('sign').click();
  const panel = page.getByTestId('sign-panel');
  await expect(panel.getByTestId('signer-name')).toHaveValue(`${patient.firstName} ${patient.lastName}`);
  await expect(panel.getByTestId('signer-id')).toHaveValue(patient.ssn);
  await panel.getByTestId('sign-confirm').click();
  await expect(panel.getByTestId('signature-error')).toHaveText('La firma está vacía: firme dentro del recuadro.');
  await drawSignature(page);
  await expect(panel.getByTestId('signature-pad')).toHaveAttribute('data-empty', 'false');
  await saveScreenshot(page, 'authorizations-sign-pad');
  await panel.getByTestId('signature-clear').click();
  await expect(panel.getByTestId('signature-pad')).toHaveAttribute('data-empty', 'true');
  await drawSignature(page);
  await panel.getByTestId('sign-confirm').click();
  await expect(page.getByText(/^Autorización firmada\./)).toBeVisible();

  // The signed state: badge, image, time, hash; no edit; Verificar says it matches.
  await expect(page.getByTestId('authorization-status')).toHaveText('Firmada');
  const card = page.getByTestId('signature-card');
  await expect(card.getByTestId('signature-image')).toBeVisible();
  await expect(card.getByTestId('signature-signer')).toHaveText(`${patient.firstName} ${patient.lastName}`);
  const hash = ((await card.getByTestId('signature-hash').textContent()) ?? '').trim();
  expect(hash).toMatch(/^[0-9a-f]{64}$/);
  await expect(page.getByTestId('record-edit')).toHaveCount(0);
  await expect(page.getByTestId('record-delete')).toHaveCount(0);
  await card.getByTestId('verify').click();
  await expect(card.getByTestId('verify-result')).toHaveAttribute('data-result', 'ok');

  // The PDF opens in a tab, and it is the signed document: a PDF with the hash and the signer.
  const [tab] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('authorization-pdf').click()]);
  await expect.poll(() => tab.url()).toMatch(/^blob:/);
  await tab.close();
  const id = page.url().split('/').pop() ?? '';
  const pdf = await request.get(rootServer.url(`api/patients/${patient.id}/authorizations/${id}/pdf`), {
    headers: await adminHeaders(request),
  });
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  const bytes = await pdf.body();
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const utf16 = (text: string) => Buffer.from(`\ufeff${text}`, 'utf16le').swap16();
  expect(bytes.includes(utf16(`Autorización de tratamiento · SHA-256 ${hash}`))).toBe(true);
  expect(
    bytes.includes(
      utf16(`Consentimiento informado para extracción dentaria — ${patient.firstName} ${patient.lastName}`),
    ),
  ).toBe(true);
  await settle(page);
  await saveScreenshot(page, 'authorizations-signed');

  // Revoke with a reason: revoked (not "Sin firmar": when and by whom), the revoked signature stays in the history.
  await page.getByTestId('unsign').click();
  const dialog = page.getByTestId('unsign-dialog');
  await dialog.getByTestId('unsign-confirm').click();
  await expect(dialog.getByText('Este campo es obligatorio')).toBeVisible();
  await dialog.getByTestId('unsign-reason').fill('El paciente decidió posponer la extracción.');
  await dialog.getByTestId('unsign-confirm').click();
  await expect(page.getByText('Se quitó la firma de la autorización de tratamiento.')).toBeVisible();
  await expect(page.getByTestId('authorization-status')).toHaveText('Revocada');
  await expect(page.getByTestId('authorization-revoked')).toContainText(/Revocada el .+ por .+/);
  await expect(
    page.getByText('La firma fue revocada: ya no vale como consentimiento.', { exact: false }),
  ).toBeVisible();
  const revoked = page.getByTestId('revoked-signature');
  await expect(revoked).toHaveCount(1);
  await expect(revoked.getByTestId('revoke-reason')).toContainText('El paciente decidió posponer la extracción.');
  await expect(revoked.getByTestId('signature-hash')).toHaveText(hash);
  // Once signed it is never deleted; it can be edited again.
  await expect(page.getByTestId('record-delete')).toHaveCount(0);
  await expect(page.getByTestId('record-edit')).toBeVisible();

  // The tab lists it, and filters by status.
  await page.goto(`/patients/${patient.id}/mh?tab=authorizations`);
  await expect(page.getByTestId('authorization-row').first()).toContainText(`Extracción de la pieza 38 (${word})`);
  await expect(page.getByTestId('authorization-row').first().getByTestId('authorization-status')).toHaveText(
    'Revocada',
  );
  // Expected 4xx: the refused empty unsign reason never reaches the server; none expected.
  expect(issues.all()).toEqual([]);
});

test('screenshots: the form, the sign pad and the signed view in light, dark and at 390 px', async ({
  page,
  request,
  issues,
}) => {
  test.setTimeout(150_000);
  const patient = await demoPatient(request);
  const headers = await adminHeaders(request);
  const me = (await (await request.get(rootServer.url('api/auth/system/me'), { headers })).json()) as {
    data: { id: string };
  };
  const templates = (await (
    await request.get(rootServer.url('api/authorization-templates?kind=consent&active=true'), { headers })
  ).json()) as { data: { id: string; title: string }[] };
  const template = templates.data.find((row) => row.title.includes('conducto')) ?? templates.data[0];
  const created = await request.post(rootServer.url(`api/patients/${patient.id}/authorizations`), {
    headers,
    data: {
      templateId: template?.id,
      date: demoClinicToday(),
      professionalId: me.data.id,
      treatment: 'Tratamiento de conducto de la pieza 46',
      risks: 'Dolor posoperatorio, fractura de instrumental, necesidad de retratamiento.',
      alternatives: 'Extracción de la pieza.',
      costEstimate: '95000',
    },
  });
  expect(created.status()).toBe(201);
  const { id } = ((await created.json()) as { data: { id: string } }).data;
  await signInPage(page, demoUsers.administrator);

  const shoot = (name: string, path: string, ready: string, prepare?: () => Promise<void>) =>
    shootScreen(page, { name, path, ready }, { prepare });

  await shoot('authorizations-form', `/patients/${patient.id}/mh/authorization/new`, 'authorization-form', async () => {
    await page.getByTestId('template-select').selectOption({ index: 1 });
    await page.getByTestId('authorization-treatment').fill('Extracción de la pieza 38');
    await page.getByTestId('authorization-cost').fill('150000');
  });
  await shoot('authorizations-tab', `/patients/${patient.id}/mh?tab=authorizations`, 'authorization-row');
  await shoot(
    'authorizations-sign',
    `/patients/${patient.id}/mh/authorization/show/${id}`,
    'authorization-view',
    async () => {
      await page.getByTestId('sign').click();
      await drawSignature(page);
    },
  );
  // Sign at phone width (touch-sized pad), then the signed view in each theme.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/patients/${patient.id}/mh/authorization/show/${id}`);
  await page.getByTestId('sign').click();
  await drawSignature(page);
  await page.getByTestId('sign-confirm').click();
  await expect(page.getByTestId('authorization-status')).toHaveText('Firmada');
  await shoot('authorizations-signed-view', `/patients/${patient.id}/mh/authorization/show/${id}`, 'signature-card');
  await shoot('authorizations-templates', '/settings/authorization-templates', 'template-row', async () => {
    await page.getByTestId('template-row').first().getByRole('button').first().click();
    await expect(page.getByTestId('template-form')).toBeVisible();
  });
  expect(issues.all()).toEqual([]);
});
