import { reportIds } from '@odontia/shared/schemas/reports';
import { expect, type Locator, type Page } from '@playwright/test';
import { test } from '../fixtures/test';
import { apiGet } from '../support/clinic-api';
import { navigateInApp, settle } from '../support/page';
import { demoClinicToday, demoUsers, signInPage } from '../support/real-users';

/*
 * Issue 34, blocker 2: every list's search box keeps every letter typed, at a hunt-and-peck
 * typist's 280 ms per key (longer than the lists' 250 ms debounce: the search reaches the URL
 * between keys, and the URL's older text used to be written back over the newer keys, so
 * "gonzalez" became "gnae") and at a fast typist's 30 ms; the box holds the whole word, the
 * URL's `q` is that word, and every row shown matches it. Back and Forward bring the box back to
 * the URL's search. A new search box joins by being in `boxes`.
 */

interface Box {
  /** The list's page. */
  path: string;
  /** The search box (its data-testid). */
  testId: string;
  /** A word that finds rows of the demo clinic (as written in them: accents are the list's business). */
  term: string;
}

const boxes: Box[] = [
  { path: '/patients', testId: 'patients-search', term: 'gonzalez' },
  { path: '/supplies', testId: 'inventory-search', term: 'composite' },
  { path: '/medications', testId: 'inventory-search', term: 'ibuprofeno' },
  { path: '/providers', testId: 'providers-search', term: 'rivadavia' },
  { path: '/customers', testId: 'customers-search', term: 'fernandez' },
  { path: '/sales', testId: 'sale-search', term: 'fernandez' },
  { path: '/purchases', testId: 'purchase-search', term: 'implantes' },
  { path: '/collections', testId: 'collections-search', term: 'gonzalez' },
  { path: '/payments', testId: 'payments-search', term: 'implantes' },
  { path: '/price-list', testId: 'price-list-search', term: 'limpieza' },
  { path: '/cc-providers', testId: 'accounts-search', term: 'rivadavia' },
  { path: '/cc-customers', testId: 'accounts-search', term: 'fernandez' },
  { path: '/account/users', testId: 'users-search', term: 'supervisor' },
];

/** Lower case without accents: how the lists compare a search with a row. */
const plain = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/** The rows of the page's list (not its header, not an empty-state row). */
const rowsOf = (page: Page) => page.locator('main table tbody tr');

/** The box holds `term`, the URL's `q` is `term`, and the list shows rows that all match it. */
async function expectSearched(page: Page, box: Locator, term: string): Promise<void> {
  await expect(box).toHaveValue(term);
  await expect.poll(() => new URL(page.url()).searchParams.get('q'), { message: 'the URL’s q' }).toBe(term);
  await expect
    .poll(
      async () => {
        const texts = (await rowsOf(page).allInnerTexts()).map(plain);
        return texts.length > 0 && texts.every((text) => text.includes(plain(term)));
      },
      { message: `every row shown matches "${term}"` },
    )
    .toBe(true);
  // The box still holds every letter once the list has answered.
  await expect(box).toHaveValue(term);
}

async function openList(page: Page, path: string, testId: string): Promise<Locator> {
  await signInPage(page, demoUsers.administrator);
  await page.goto(path);
  await settle(page);
  const box = page.getByTestId(testId);
  await expect(box).toBeVisible();
  await expect(rowsOf(page).first()).toBeVisible();
  return box;
}

for (const delay of [280, 30]) {
  test(`every list's search box keeps every letter typed at ${delay} ms per key`, async ({ page, issues }) => {
    test.setTimeout(180_000);
    await signInPage(page, demoUsers.administrator);
    // One signed-in page for all the lists, opened as the sidebar's links open them (a sign-in
    // and a full load per list was most of this spec's time).
    for (const [index, { path, testId, term }] of boxes.entries()) {
      await test.step(`${path} keeps every letter of "${term}"`, async () => {
        if (index === 0) await page.goto(path);
        else await navigateInApp(page, path);
        await settle(page);
        const box = page.getByTestId(testId);
        await expect(box).toHaveValue('');
        await expect(rowsOf(page).first()).toBeVisible();
        await box.click();
        await box.pressSequentially(term, { delay });
        await expectSearched(page, box, term);
        expect(issues.pageErrors.concat(issues.consoleErrors), path).toEqual([]);
      });
    }
  });
}

test('the search box keeps every letter while the list is slow to answer', async ({ page }) => {
  const box = await openList(page, '/patients', 'patients-search');
  // Every search takes 600 ms to answer: the box must not wait for it, nor be rewritten by it.
  await page.route(/\/api\/patients\?/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 600));
    await route.continue();
  });
  await box.click();
  await box.pressSequentially('gonzalez', { delay: 200 });
  await expectSearched(page, box, 'gonzalez');
});

test('Back and Forward bring the box back to the URL’s search', async ({ page }) => {
  const box = await openList(page, '/patients', 'patients-search');
  await box.click();
  await box.pressSequentially('gonzalez', { delay: 280 });
  await expectSearched(page, box, 'gonzalez');

  // A link to the list without a search (the sidebar's), in the same screen: the box empties.
  await page.getByRole('navigation').getByRole('link', { name: 'Pacientes', exact: true }).click();
  await expect(page).toHaveURL(/\/patients$/);
  await expect(box).toHaveValue('');
  // Back: the search again, in the box and in the list; Forward: the empty search.
  await page.goBack();
  await expectSearched(page, box, 'gonzalez');
  await page.goForward();
  await expect(page).toHaveURL(/\/patients$/);
  await expect(box).toHaveValue('');
  await page.goBack();
  await expectSearched(page, box, 'gonzalez');

  // A record opened from the search, then Back: the list comes back with its search.
  await rowsOf(page).first().click();
  await expect(page).toHaveURL(/\/patients\/[^/]+\/mh/);
  await page.goBack();
  await expectSearched(page, page.getByTestId('patients-search'), 'gonzalez');
});

/*
 * The same defect in the date filters kept in the URL: the field wrote what was half typed to the
 * URL and took the URL's answer (no date yet, or the default) back over the keys typed since.
 */
const dateFields: { path: string | ((ids: { provider: string }) => string); param: string }[] = [
  { path: '/payments', param: 'from' },
  { path: '/collections', param: 'from' },
  { path: '/sales', param: 'dateFrom' },
  { path: '/purchases', param: 'from' },
  { path: '/dashboard', param: 'from' },
  { path: `/reports/${reportIds[0]}`, param: 'from' },
  { path: ({ provider }) => `/cc-providers/${provider}`, param: 'startDate' },
];

for (const delay of [280, 30]) {
  test(`the date filters keep every key typed at ${delay} ms`, async ({ page, request }) => {
    test.setTimeout(120_000);
    const [provider] = (await apiGet<{ data: { id: string }[] }>(request, 'api/providers?pageSize=1')).data;
    await signInPage(page, demoUsers.administrator);
    const year = demoClinicToday().slice(0, 4);
    for (const [index, field] of dateFields.entries()) {
      const path = typeof field.path === 'string' ? field.path : field.path({ provider: provider?.id ?? '' });
      if (index === 0) await page.goto(path);
      else await navigateInApp(page, path);
      await settle(page);
      const input = page.getByLabel('Desde', { exact: true });
      await input.click();
      await input.press('ControlOrMeta+a');
      await input.pressSequentially(`01/03/${year}`, { delay });
      await expect(input, path).toHaveValue(`01/03/${year}`);
      await expect
        .poll(() => new URL(page.url()).searchParams.get(field.param), { message: `${path}: the URL’s ${field.param}` })
        .toBe(`${year}-03-01`);
      await settle(page);
      await expect(input, path).toHaveValue(`01/03/${year}`);
    }
  });
}
