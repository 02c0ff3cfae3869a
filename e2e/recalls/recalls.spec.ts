import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { saveScreenshot } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { settle } from '../support/page';
import { demoUsers, signInPage } from '../support/real-users';

/*
 * Issue 38, recalls: the front desk's list (the demo clinic's recalls in every state), an attempt
 * logged by keyboard alone, at 1366 and 390 px, axe clean in light and dark.
 */

test('the recall list: filter, log an attempt by keyboard, axe clean at 1366 and 390 px', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  await signInPage(page, demoUsers.user);
  await page.goto('/recalls');
  await expect(new AppLayout(page).title).toHaveText('Controles');
  const rows = page.getByTestId('recall-row');
  await expect(rows.first()).toBeVisible();
  await settle(page);
  await saveScreenshot(page, 'recalls-1366');
  await expectNoAxeViolations(page, 'the recall list');

  // Every state has a view; the closed one shows the demo's closed recall with its reason.
  await page.getByTestId('recalls-view').selectOption('closed');
  await expect(page).toHaveURL(/view=closed/);
  await expect(rows.first()).toContainText('Se atiende en otro lugar');
  await page.getByTestId('recalls-view').selectOption('overdue');
  await expect(rows.first()).toHaveAttribute('data-status', 'overdue');

  // Log an attempt with the keyboard only: the row's button, the dialog's fields, Enter to save.
  const row = rows.filter({ has: page.getByTestId('recall-attempt') }).first();
  const attemptsBefore = Number(await row.locator('.recall-attempts').innerText());
  await row.getByTestId('recall-attempt').focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading')).toContainText('Intento de contacto con');
  await dialog.getByLabel('Medio').focus();
  await page.keyboard.press('ArrowDown'); // Llamada → Mensaje
  await page.keyboard.press('Tab');
  await expect(dialog.getByLabel('Resultado')).toBeFocused();
  await page.keyboard.press('ArrowDown'); // Habló con el paciente → No contestó
  await page.keyboard.press('Tab');
  await expect(dialog.getByLabel('Nota')).toBeFocused();
  await page.keyboard.type('Le escribí por WhatsApp.');
  await expectNoAxeViolations(page, 'the attempt dialog', '[role="dialog"]');
  await saveScreenshot(page, 'recalls-attempt-dialog', { fullPage: false });
  await page.keyboard.press('Tab'); // Cancelar
  await page.keyboard.press('Tab'); // Registrar intento
  await expect(dialog.getByTestId('recall-attempt-save')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Intento de contacto registrado.')).toBeVisible();
  await expect(row.locator('.recall-attempts')).toHaveText(String(attemptsBefore + 1));

  // The attempt shows in the recall's history.
  await row.getByTestId('recall-attempt').click();
  await expect(dialog.getByTestId('recall-attempts')).toContainText('Mensaje · No contestó');
  await expect(dialog.getByTestId('recall-attempts')).toContainText('Le escribí por WhatsApp.');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // A phone: cards, still usable; dark theme clean too.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('recalls-view').selectOption('open');
  await settle(page);
  await saveScreenshot(page, 'recalls-390');
  await expectNoAxeViolations(page, 'the recall list at 390 px');
  await page.evaluate(() => document.documentElement.setAttribute('data-bs-theme', 'dark'));
  await saveScreenshot(page, 'recalls-390-dark');
  await expectNoAxeViolations(page, 'the recall list, dark');
});
