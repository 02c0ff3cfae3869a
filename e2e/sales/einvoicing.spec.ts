import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { expect, test } from '../fixtures/test';
import { artifactsDir, saveScreenshot } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { settle } from '../support/page';
import { pdfText } from '../support/pdf';
import { demoClinicToday, signInPage, signUpClinic } from '../support/real-users';
import { checkScreen, openAtPhoneWidth } from '../support/screens';
import { fakeArca, rootServer } from '../support/servers';

/*
 * Issue 39 as an Argentine clinic's administrator: Configuración › Facturación electrónica against
 * ARCA's homologation (the local service that speaks WSAA and WSFEv1): the certificate uploaded as
 * files, the regime chosen, the connection tested. A Factura B to a patient and a Factura A to a
 * company are authorised: the letter, the CAE and the fiscal QR on screen and on the PDF, the QR
 * read back from both and decoded to ARCA's JSON. A credit note of the Factura A is issued from
 * the screen and authorised as a Nota de Crédito A. Axe and screenshots in light, dark and 390 px.
 */

const password = 'la clave de la otra clínica';
const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;

/** A valid CUIT (check digit) not used by anyone else in the run. */
function freshCuit(): string {
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  for (;;) {
    const body = `30${String(Math.floor(10_000_000 + Math.random() * 89_999_999))}`;
    const sum = [...body].reduce((total, digit, index) => total + Number(digit) * (weights[index] ?? 0), 0);
    const check = 11 - (sum % 11);
    if (check === 10) continue;
    return `${body}${check === 11 ? 0 : check}`;
  }
}

interface Api {
  get<T = Record<string, unknown>>(pathname: string): Promise<T>;
  send<T = Record<string, unknown>>(method: 'POST' | 'PUT', pathname: string, data: unknown): Promise<T>;
  pdf(pathname: string): Promise<Buffer>;
}

function clinicApi(request: APIRequestContext, token: string): Api {
  const headers = { Authorization: `Bearer ${token}` };
  return {
    async get(pathname) {
      const answer = await request.get(rootServer.url(pathname), { headers });
      expect(answer.status(), `GET ${pathname}: ${await answer.text()}`).toBe(200);
      return (await answer.json()).data;
    },
    async send(method, pathname, data) {
      const answer = await request.fetch(rootServer.url(pathname), {
        method,
        headers: { ...headers, 'Idempotency-Key': `e2e-${stamp()}` },
        data,
      });
      expect(answer.status(), `${method} ${pathname}: ${await answer.text()}`).toBeLessThan(300);
      return (await answer.json()).data;
    },
    async pdf(pathname) {
      const answer = await request.get(rootServer.url(pathname), { headers });
      expect(answer.status()).toBe(200);
      return answer.body();
    },
  };
}

/** A screenshot of the QR image once it is decoded: a screenshot taken before shows an empty box. */
async function qrScreenshot(qr: Locator): Promise<Buffer> {
  await expect
    .poll(() => qr.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0))
    .toBe(true);
  return qr.screenshot();
}

/** The QR in a PNG (a screenshot, a PDF page), decoded. */
function readQr(png: Buffer, keepAs?: string): string {
  if (keepAs) writeFileSync(path.join(artifactsDir, `${keepAs}.png`), png);
  const image = PNG.sync.read(png);
  const found = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
  expect(found, 'a QR code in the image').not.toBeNull();
  return found?.data ?? '';
}

function arcaPayload(url: string): Record<string, unknown> {
  expect(url).toMatch(/^https:\/\/www\.arca\.gob\.ar\/fe\/qr\/\?p=/);
  return JSON.parse(Buffer.from(new URL(url).searchParams.get('p') ?? '', 'base64').toString('utf8'));
}

/** The screen at `pathname` in dark, then at 390 px (no sideways scroll), each checked by axe and kept. */
async function darkAndPhone(page: Page, pathname: string, name: string) {
  await page.emulateMedia({ colorScheme: 'dark' });
  await checkScreen(page, `${name} (dark)`, `${name}-dark`, { spinners: true });
  await page.emulateMedia({ colorScheme: 'light' });
  await openAtPhoneWidth(page, pathname);
  await checkScreen(page, `${name} (390 px)`, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(pathname);
  await settle(page, { spinners: true });
}

test('ARCA homologation: certificate and regime in settings, Factura B and Factura A with CAE and QR on screen and paper, a credit note', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const { token, email } = await signUpClinic(request, `Clínica Austral ${stamp()}`, '198.51.100.39');
  const api = clinicApi(request, token);
  const cuit = freshCuit();

  // The clinic: pesos, Buenos Aires, responsable inscripto, point of sale 0001 (through the API).
  const settings = await api.get<Record<string, unknown>>('api/settings/clinic');
  const { uploadMaxMbLimit: _limit, updatedAt: _at, ...clinicSettings } = settings;
  await api.send('PUT', 'api/settings/clinic', {
    ...clinicSettings,
    currency: 'argentine_peso',
    timeZone: 'America/Argentina/Buenos_Aires',
  });
  const fiscal = await api.get<{ version: number }>('api/settings/fiscal');
  await api.send('PUT', 'api/settings/fiscal', {
    legalName: 'Clínica Austral S.R.L.',
    tradeName: null,
    country: 'AR',
    taxIdKind: 'cuit',
    taxId: cuit,
    fiscalCondition: 'ar_responsable_inscripto',
    address: 'Av. Santa Fe 2100',
    city: 'Buenos Aires',
    province: 'CABA',
    postalCode: 'C1123',
    phone: null,
    phoneMobile: null,
    email: null,
    website: null,
    version: fiscal.version,
  });
  await api.send('POST', 'api/points-of-sale', { code: '0001', name: 'Mostrador', active: true });

  // ARCA's certificate for the clinic's CUIT (the local service's CA signs it, as ARCA's would).
  const issued = await request.post(fakeArca.url('_fake/certificate'), { data: { cuit } });
  expect(issued.status()).toBe(200);
  const certificate = (await issued.json()) as { certificatePem: string; privateKeyPem: string };

  await test.step('settings: certificate from files, ARCA homologation, connection tested', async () => {
    await signInPage(page, email, password);
    await page.goto('/settings/einvoicing');
    await settle(page, { spinners: true });
    await expect(page.getByTestId('einvoicing-page')).toBeVisible();
    await expect(page.getByTestId('einvoicing-certificate-none')).toBeVisible();
    await page.getByTestId('einvoicing-certificate-pem-file').setInputFiles({
      name: 'clinica-austral.crt',
      mimeType: 'application/x-x509-ca-cert',
      buffer: Buffer.from(certificate.certificatePem),
    });
    await page.getByTestId('einvoicing-private-key-pem-file').setInputFiles({
      name: 'clinica-austral.key',
      mimeType: 'application/x-pem-file',
      buffer: Buffer.from(certificate.privateKeyPem),
    });
    // A double click uploads once.
    await page.getByTestId('einvoicing-certificate-save').dblclick();
    await expect(page.getByTestId('einvoicing-certificate-tax-id')).toContainText(cuit);
    await expect(page.getByText('PRIVATE KEY')).toHaveCount(0);

    await page.getByTestId('einvoicing-regime-arca').check();
    await page.getByTestId('einvoicing-environment-homologation').check();
    await page.getByTestId('einvoicing-save').click();
    await expect(page.getByText('Facturación electrónica guardada', { exact: false })).toBeVisible();
    await page.getByTestId('einvoicing-test-run').click();
    await expect(page.getByTestId('einvoicing-test-result')).toHaveAttribute('data-ok', 'true');
    await saveScreenshot(page, 'einvoicing-settings-light');
    await expectNoAxeViolations(page, 'e-invoicing settings (light)');
    await darkAndPhone(page, '/settings/einvoicing', 'einvoicing-settings');
  });

  const today = demoClinicToday();
  const patient = await api.send<{ id: string }>('POST', 'api/patients', {
    firstName: 'Lucía',
    lastName: 'Benítez',
    sex: 'female',
    birthdate: '1988-04-12',
  });
  const company = await api.send<{ id: string }>('POST', 'api/customers', {
    kind: 'company',
    name: 'Laboratorio Austral S.A.',
    taxIdKind: 'cuit',
    taxId: freshCuit(),
    fiscalCondition: 'ar_responsable_inscripto',
    language: 'es',
  });
  const invoice = (party: Record<string, unknown>) => ({
    documentType: 'invoice',
    pointOfService: '0001',
    date: today,
    currency: 'argentine_peso',
    conditionSale: 'current_account',
    lines: [{ description: 'Corona de zirconio', quantity: '1', unitPrice: '120000', vatRate: '21', tooth: '16' }],
    issue: true,
    ...party,
  });

  let screenUrlB = '';
  await test.step('a Factura B to a patient: CAE and QR on screen and on paper', async () => {
    const sale = await api.send<{ id: string }>('POST', 'api/sales', invoice({ patientId: patient.id }));
    await page.goto(`/sales/view/${sale.id}`);
    const card = page.getByTestId('sale-einvoice');
    // The screen reads the sale again until ARCA answers.
    await expect(card).toHaveAttribute('data-status', 'accepted', { timeout: 30_000 });
    await expect(page.getByTestId('einvoice-letter')).toHaveText('B');
    await expect(page.getByTestId('einvoice-voucher-type')).toContainText('006');
    await expect(page.getByTestId('einvoice-fiscal-number')).toHaveText('00001-00000001');
    const cae = (await page.getByTestId('einvoice-cae').textContent())?.trim() ?? '';
    expect(cae).toMatch(/^\d{14}$/);
    await expect(page.getByTestId('einvoice-homologation')).toBeVisible();
    const qr = page.getByTestId('einvoice-qr');
    await expect(qr).toBeVisible();
    screenUrlB = readQr(await qrScreenshot(qr), 'einvoice-factura-b-qr');
    expect(arcaPayload(screenUrlB)).toMatchObject({
      ver: 1,
      cuit: Number(cuit),
      ptoVta: 1,
      tipoCmp: 6,
      nroCmp: 1,
      importe: 145200,
      moneda: 'PES',
      tipoCodAut: 'E',
      codAut: Number(cae),
    });
    await settle(page, { spinners: true });
    await saveScreenshot(page, 'einvoice-factura-b-light');
    await expectNoAxeViolations(page, 'sale with CAE (light)');
    await darkAndPhone(page, `/sales/view/${sale.id}`, 'einvoice-factura-b');

    const file = path.join(artifactsDir, 'einvoice-factura-b.pdf');
    const text = pdfText(file, await api.pdf(`api/sales/${sale.id}/pdf`), { resolution: 150 });
    expect(text).toContain('Factura B 00001-00000001');
    expect(text).toContain(`CAE: ${cae}`);
    expect(text).toContain('Comprobante autorizado por ARCA');
    expect(text).toContain('homologación');
    expect(readQr(readFileSync(file.replace(/\.pdf$/, '.png')))).toBe(screenUrlB);
  });

  await test.step('a Factura A to a company, and its credit note issued from the screen', async () => {
    const sale = await api.send<{ id: string }>(
      'POST',
      'api/sales',
      invoice({ customerId: company.id, patientId: null }),
    );
    await page.goto(`/sales/view/${sale.id}`);
    await expect(page.getByTestId('sale-einvoice')).toHaveAttribute('data-status', 'accepted', { timeout: 30_000 });
    await expect(page.getByTestId('einvoice-letter')).toHaveText('A');
    const urlA = readQr(await qrScreenshot(page.getByTestId('einvoice-qr')), 'einvoice-factura-a-qr');
    expect(arcaPayload(urlA)).toMatchObject({ tipoCmp: 1, nroCmp: 1, tipoDocRec: 80 });
    const file = path.join(artifactsDir, 'einvoice-factura-a.pdf');
    const text = pdfText(file, await api.pdf(`api/sales/${sale.id}/pdf`), { resolution: 150 });
    expect(text).toContain('Factura A 00001-00000001');
    expect(readQr(readFileSync(file.replace(/\.pdf$/, '.png')))).toBe(urlA);

    await page.getByTestId('view-credit-note').click();
    await expect(page).toHaveURL(/\/sales\/create\?edit=/);
    await expect(page.getByTestId('sale-line')).toHaveCount(1);
    await page.getByTestId('issue').dblclick();
    await expect(page.getByTestId('sale-view')).toHaveAttribute('data-status', 'issued');
    await expect(page.getByTestId('sale-einvoice')).toHaveAttribute('data-status', 'accepted', { timeout: 30_000 });
    await expect(page.getByTestId('einvoice-letter')).toHaveText('A');
    await expect(page.getByTestId('einvoice-voucher-type')).toContainText('003');
    await expect(page.getByTestId('einvoice-fiscal-number')).toHaveText('00001-00000001');
    await saveScreenshot(page, 'einvoice-credit-note-a-light');
    await expectNoAxeViolations(page, 'credit note with CAE (light)');
  });

  // ARCA holds each voucher once: B 1, A 1, NC A 1.
  const state = (await (await request.get(fakeArca.url('_fake/state'))).json()) as {
    series: { cuit: string; cbteTipo: number; last: number }[];
  };
  expect(
    state.series
      .filter((series) => series.cuit === cuit)
      .map((series) => [series.cbteTipo, series.last])
      .sort(),
  ).toEqual([
    [1, 1],
    [3, 1],
    [6, 1],
  ]);
});
