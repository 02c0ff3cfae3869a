import { expect, test } from '../fixtures/test';
import { expectNoAxeViolations } from '../support/axe';
import { settle } from '../support/page';
import { demoUsers, signInPage } from '../support/real-users';

/*
 * Issue 34 (minor): a keyboard user reached the agenda's "book" button after 58–68 Tabs through
 * the menu and the top bar. The first Tab of every signed-in page is now "Saltar al contenido",
 * shown while focused; Enter takes the focus to the page's main content, and the next Tab to the
 * page's first control.
 */

for (const path of ['/dashboard', '/calendar', '/patients']) {
  test(`the first Tab of ${path} is the skip link, and Enter moves the focus to the page`, async ({ page }) => {
    test.setTimeout(90_000);
    await signInPage(page, demoUsers.administrator);
    await page.goto(path);
    await settle(page);
    const skip = page.getByRole('link', { name: 'Saltar al contenido' });
    /** The link's width on screen: 1 px while visually hidden, its text's once shown. */
    const width = async () => (await skip.boundingBox())?.width ?? 0;
    expect(await width()).toBeLessThanOrEqual(1);

    await page.keyboard.press('Tab');
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    expect(await width()).toBeGreaterThan(50);
    if (path === '/dashboard') await expectNoAxeViolations(page, `${path} with the skip link shown`);

    await page.keyboard.press('Enter');
    await expect(page.locator('main#main-content')).toBeFocused();
    expect(await width()).toBeLessThanOrEqual(1);
    // The next Tab lands inside the page, past the sidebar and the top bar.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main#main-content')))).toBe(true);
  });
}
