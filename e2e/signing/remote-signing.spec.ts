import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { saveScreenshot } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { apiCreate, apiGet, createPatient } from '../support/clinic-api';
import { linkFromOutbox } from '../support/outbox';
import { settle, tag } from '../support/page';
import { demoClinicToday, demoUsers, signInPage } from '../support/real-users';
import { themed } from '../support/screens';
import { rootServer } from '../support/servers';
import { drawSignature } from '../support/signature';

/*
 * Remote signing (issue 37) against the real server: staff press "Enviar para firmar" in a
 * consent's and a budget's view; the mail lands in the outbox; the patient opens its link in a
 * fresh browser at 390 px (no session), reads the text, signs with the mouse on the pad; the
 * staff's open view turns signed without a reload.
 */

/** A patient of the test's own with an e-mail (and the test's time). */
async function patientWithEmail(request: APIRequestContext) {
  test.setTimeout(150_000);
  const stamp = tag();
  const email = `firma.${stamp}@correo.test`;
  const id = await createPatient(request, {
    firstName: 'Inés',
    lastName: `Firma ${stamp}`,
    sex: 'female',
    birthdate: '1979-09-21',
    email,
    ssn: String(20_000_000 + Math.floor(Math.random() * 9_000_000)),
  });
  return { id, email, stamp };
}

/** A browser with no session: what the patient opens from the mail, at phone width. */
async function patientPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ locale: 'es-ES', viewport: { width: 390, height: 844 } });
  return context.newPage();
}

/** The patient reads the document, fills in their ID number, signs on the pad and presses "Firmar". */
async function signAsPatient(browser: Browser, path: string, text: RegExp | string, shots?: string) {
  const page = await patientPage(browser);
  await page.goto(rootServer.url(path));
  await expect(page.getByTestId('signing-link-ready')).toBeVisible();
  await expect(page.getByTestId('signing-text')).toContainText(text);
  await expect(page.getByTestId('signer-name')).toHaveValue(/Inés Firma/);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  if (shots) {
    await settle(page);
    await expectNoAxeViolations(page, 'the signing page (light)');
    await saveScreenshot(page, `${shots}-390-light`);
    await page.goto(themed(rootServer.url(path), 'dark'));
    await expect(page.getByTestId('signing-link-ready')).toBeVisible();
    await settle(page);
    await expectNoAxeViolations(page, 'the signing page (dark)');
    await saveScreenshot(page, `${shots}-390-dark`);
    await page.goto(themed(rootServer.url(path), 'light'));
    await expect(page.getByTestId('signing-link-ready')).toBeVisible();
  }
  // Empty pad: said on the field, nothing sent.
  await page.getByTestId('signer-id').fill('27111333');
  await page.getByTestId('signing-submit').click();
  await expect(page.getByTestId('signature-error')).toBeVisible();
  await drawSignature(page);
  await page.getByTestId('signing-submit').click();
  await expect(page.getByTestId('signing-link-done')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Documento firmado' })).toBeVisible();
  if (shots) {
    await settle(page);
    await expectNoAxeViolations(page, 'the signed page');
    await saveScreenshot(page, `${shots}-done-390`);
  }
  // The link works once.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Este enlace ya se usó' })).toBeVisible();
  await expect(page.getByTestId('signing-submit')).toHaveCount(0);
  await page.context().close();
}

/** The staff's view, open all along, turns signed without a reload (refetch on focus, or every 15 s). */
async function seesSigned(page: Page) {
  await page.bringToFront();
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await expect(page.getByTestId('signing-request')).toHaveAttribute('data-status', 'signed', { timeout: 20_000 });
}

test('staff send a consent; the patient signs it from the mailed link at 390 px; the open view turns signed', async ({
  page,
  request,
  browser,
}) => {
  const patient = await patientWithEmail(request);
  const { stamp } = patient;
  const templates = await apiGet<{ data: { id: string; title: string }[] }>(
    request,
    'api/authorization-templates?kind=consent&active=true&pageSize=100',
  );
  const template = templates.data[0];
  expect(template, 'a consent template of the demo clinic').toBeTruthy();
  const me = await apiGet<{ data: { id: string } }>(request, 'api/auth/system/me');
  const authorization = await apiCreate(request, `api/patients/${patient.id}/authorizations`, {
    templateId: template?.id,
    date: demoClinicToday(),
    professionalId: me.data.id,
    treatment: `Extracción de la pieza 48 (${stamp})`,
  });

  await signInPage(page, demoUsers.administrator);
  await page.goto(`/patients/${patient.id}/mh/authorization/show/${authorization.id}`);
  const card = page.getByTestId('signing-request');
  await expect(card).toHaveAttribute('data-status', 'none');
  await card.getByTestId('signing-send').click();
  await expect(card).toHaveAttribute('data-status', 'pending');
  await expect(card.getByTestId('signing-request-line')).toContainText(`Enviado para firmar el`);
  await expect(card.getByTestId('signing-request-line')).toContainText(patient.email);
  await saveScreenshot(page, 'remote-signing-consent-sent-light');

  const path = await linkFromOutbox(patient.email, '/sign/', 20_000);
  await signAsPatient(browser, path, `Extracción de la pieza 48 (${stamp})`, 'remote-signing-consent');

  await seesSigned(page);
  await expect(page.getByTestId('authorization-status')).toHaveText('Firmada', { timeout: 10_000 });
  await expect(page.getByTestId('signature-signer')).toContainText('Inés Firma');
  await settle(page);
  await expectNoAxeViolations(page, 'the consent signed remotely');
  await saveScreenshot(page, 'remote-signing-consent-signed-light');
});

test('staff send a budget; the patient signs it from the mailed link; the budget reads accepted and signed', async ({
  page,
  request,
  browser,
}) => {
  const { id: patientId, email, stamp } = await patientWithEmail(request);
  const budget = await apiCreate(request, 'api/sales', {
    documentType: 'budget',
    patientId: patientId,
    pointOfService: '0001',
    date: demoClinicToday(),
    currency: 'argentine_peso',
    conditionSale: 'current_account',
    lines: [{ description: `Implante ${stamp}`, tooth: '36', quantity: '1', unitPrice: '450000', vatRate: '0' }],
    issue: true,
  });

  await signInPage(page, demoUsers.administrator);
  await page.goto(`/sales/view/${budget.id}`);
  const card = page.getByTestId('signing-request');
  await card.getByTestId('signing-send').click();
  await expect(card).toHaveAttribute('data-status', 'pending');

  const path = await linkFromOutbox(email, '/sign/', 20_000);
  await signAsPatient(browser, path, `Implante ${stamp} (pieza 36)`);

  await seesSigned(page);
  await expect(page.getByTestId('budget-decision-badge')).toHaveText('Aceptado', { timeout: 10_000 });
  await expect(page.getByTestId('budget-decision')).toContainText('Inés Firma');
  await saveScreenshot(page, 'remote-signing-budget-signed-light');
});
