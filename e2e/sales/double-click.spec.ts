import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { adminHeaders, apiCreate, apiGet, createPatient } from '../support/clinic-api';
import { tag } from '../support/page';
import { demoClinicToday, demoUsers, signInPage } from '../support/real-users';
import { rootServer } from '../support/servers';

/*
 * Issue 35 (items 2 and 10): a double click on a button that writes a document or moves money
 * sends one action — the button is busy from the first click and the action carries one
 * Idempotency-Key — so there is exactly one document and no error toast beside the success
 * ("someone else changed this", "already reversed").
 */

const errorToasts = (page: Page): Locator => page.locator('.Toastify__toast--error');
const successToasts = (page: Page): Locator => page.locator('.Toastify__toast--success');

async function billableAttendance(request: APIRequestContext, patientId: string, title: string) {
  const headers = await adminHeaders(request);
  const me = (await (await request.get(rootServer.url('api/auth/system/me'), { headers })).json()) as {
    data: { id: string };
  };
  const response = await request.post(rootServer.url(`api/patients/${patientId}/attendances`), {
    headers,
    data: {
      date: `${demoClinicToday()}T10:30:00-03:00`,
      attendanceType: 'dentistry',
      professionalId: me.data.id,
      titleResume: title,
      billable: true,
      attendanceFee: '8000',
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

/** The POSTs the page sends to paths ending in `suffix`, with their Idempotency-Key. */
function watchPosts(page: Page, suffix: RegExp): { key: string | undefined }[] {
  const seen: { key: string | undefined }[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && suffix.test(new URL(request.url()).pathname)) {
      seen.push({ key: request.headers()['idempotency-key'] });
    }
  });
  return seen;
}

type SaleRow = { id: string; status: string; number: string | null };
const salesOf = async (request: APIRequestContext, patientId: string) =>
  (await apiGet<{ data: SaleRow[] }>(request, `api/sales?patientId=${patientId}&pageSize=100`)).data;

test('a double click on "Facturar esta atención" and on "Emitir" makes one draft and one invoice', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const stamp = tag();
  const patientId = await createPatient(request, {
    firstName: 'Rocío',
    lastName: `Doble clic ${stamp}`,
    sex: 'female',
    birthdate: '1984-05-12',
  });
  const attendanceId = await billableAttendance(request, patientId, `Consulta ${stamp}`);
  await signInPage(page, demoUsers.administrator);
  const invoiceDrafts = watchPosts(page, /\/invoice-draft$/);
  const issues = watchPosts(page, /\/issue$/);

  // "Facturar esta atención", double-clicked: one request, with its key; one draft, opened in the sales view.
  await page.goto(`/patients/${patientId}/mh/attendance/show/${attendanceId}`);
  await page.getByTestId('invoice-attendance').dblclick();
  await expect(page).toHaveURL(/\/sales\/view\/[0-9a-f-]{36}$/);
  const draftId = page.url().split('/').at(-1) as string;
  await expect(successToasts(page)).toHaveCount(1);
  await expect(errorToasts(page)).toHaveCount(0);
  expect((await salesOf(request, patientId)).map((sale) => sale.id)).toEqual([draftId]);
  expect(invoiceDrafts).toHaveLength(1);
  expect(invoiceDrafts[0]?.key).toMatch(/^[0-9a-f-]{36}$/);

  // "Emitir", double-clicked: one issue, one number, no "someone else changed this".
  const issue = page.getByTestId('view-issue');
  await expect(issue).toBeEnabled();
  await issue.dblclick();
  await expect(page.getByTestId('view-issue')).toHaveCount(0);
  await expect(successToasts(page)).toHaveCount(2);
  await page.waitForTimeout(1000);
  await expect(errorToasts(page)).toHaveCount(0);
  await expect(page.locator('.alert-danger')).toHaveCount(0);
  const sales = await salesOf(request, patientId);
  expect(sales).toHaveLength(1);
  expect(sales[0]).toMatchObject({ id: draftId, status: 'issued' });
  expect(sales[0]?.number).toBeTruthy();
  expect(issues).toHaveLength(1);
  expect(issues[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
});

test('a double click on "Confirmar anulación" reverses a collection once', async ({ page, request }) => {
  test.setTimeout(120_000);
  const stamp = tag();
  const patientId = await createPatient(request, {
    firstName: 'Tomás',
    lastName: `Doble clic ${stamp}`,
    sex: 'male',
    birthdate: '1979-02-03',
  });
  const collection = await apiCreate<{ id: string }>(request, 'api/collections', {
    patientId,
    date: demoClinicToday(),
    amount: '12000.00',
    currency: 'argentine_peso',
    method: 'cash_payment',
  });
  await signInPage(page, demoUsers.administrator);
  const reversals = watchPosts(page, /\/reverse$/);
  await page.goto(`/collections/view/${collection.id}`);
  const view = page.getByTestId('collection-view');
  await view.getByTestId('collection-reverse-open').click();
  await page.getByTestId('collection-reverse-reason').fill('Cobro registrado dos veces');
  await page.getByTestId('collection-reverse-save').dblclick();
  await expect(view.getByTestId('collection-reversed')).toContainText('Cobro registrado dos veces');
  await expect(successToasts(page)).toHaveCount(1);
  await page.waitForTimeout(1000);
  await expect(errorToasts(page)).toHaveCount(0);
  const events = await apiGet<{ data: { status: string; reversedAt: string | null } }>(
    request,
    `api/collections/${collection.id}`,
  );
  expect(events.data.reversedAt).toBeTruthy();
  expect(reversals).toHaveLength(1);
  expect(reversals[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
});
