import { expect, type Page } from '@playwright/test';

/** Picks `name` in a commercial form's customer picker (sales, collections) and sees it chosen. */
export async function pickCustomer(page: Page, name: string): Promise<void> {
  const input = page.getByTestId('customer-input');
  await input.fill(name);
  await page.getByTestId('customer-option').filter({ hasText: name }).first().click();
  await expect(input).toHaveValue(new RegExp(`^${name}`));
}
