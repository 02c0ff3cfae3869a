import { expect, test } from '../fixtures/test';
import { demoUsers, openAsAdministrator, signInPage } from '../support/real-users';
import { checkScreen } from '../support/screens';

/*
 * The dashboard's figures (issue 19) on the demo clinic: production, collections, receivables and
 * payables for the administrator, each opening the list behind it; a year's period; the clinical
 * figures alone for a level without reports.read.
 */

test('the administrator sees the period’s money and opens a debtor’s account from the receivables', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await openAsAdministrator(page, '/dashboard');
  await expect(page.getByTestId('period-figures')).toBeVisible();
  for (const card of [
    'production-figure',
    'collections-figure',
    'clinical-figures',
    'receivables-figure',
    'payables-figure',
    'top-treatments',
  ])
    await expect(page.getByTestId(card)).toBeVisible();
  await expect(page.getByTestId('production-value')).toContainText('$');
  // Issue 35: payables have a total, as receivables do.
  await expect(page.getByTestId('payables-balance')).toContainText('$');
  await expect(page.getByTestId('period-shown')).toContainText('del');
  await expect(page.getByTestId('open-reports')).toHaveAttribute('href', '/reports');

  // A whole year: the demo's months of sales and collections.
  const today = new Date();
  const yearAgo = new Date(today.getTime() - 364 * 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel('Desde').fill(yearAgo);
  await expect(page).toHaveURL(new RegExp(`from=${yearAgo}`));
  await expect(page.getByTestId('collection-method').first()).toBeVisible();
  await expect(page.getByTestId('top-treatment').first()).toBeVisible();
  await expect(page.locator('[data-testid="production-chart"]')).toBeVisible();
  await checkScreen(page, '/dashboard (a year)', 'dashboard-figures-year', { spinners: true });

  // Click-through: the biggest debtor's current account.
  const debtor = page.getByTestId('debtor-link').first();
  const name = (await debtor.textContent())?.trim() ?? '';
  expect(name).not.toBe('');
  await debtor.click();
  await expect(page).toHaveURL(/\/cc-customers\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('ledger-customer')).toContainText(name);
  await page.goBack();
  await page.getByTestId('collections-figure-link').click();
  await expect(page).toHaveURL(new RegExp(`/collections\\?from=${yearAgo}&to=`));
});

test('a level without reports.read sees the clinical figures and no money', async ({ page }) => {
  await signInPage(page, demoUsers.user);
  await page.goto('/dashboard');
  await expect(page.getByTestId('clinical-figures')).toBeVisible();
  await expect(page.getByTestId('attendances-figure')).toHaveText(/\d/);
  await expect(page.getByTestId('production-figure')).toHaveCount(0);
  await expect(page.getByTestId('receivables-figure')).toHaveCount(0);
  await expect(page.getByTestId('open-reports')).toHaveCount(0);
});
