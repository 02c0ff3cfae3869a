import type { Page } from '@playwright/test';
import { meRoute, seedToken } from '../fixtures/session';
import { expect, test } from '../fixtures/test';
import { basePathServer } from '../support/servers';

/**
 * Chromium's ICU reports some zones by their older alias: asked for
 * America/Argentina/Buenos_Aires it answers America/Buenos_Aires (both are valid IANA names).
 */
const buenosAires = ['America/Argentina/Buenos_Aires', 'America/Buenos_Aires'];

const browserZone = (page: Page) => page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);

test.describe('in Buenos Aires', () => {
  test.use({ timezoneId: 'America/Argentina/Buenos_Aires' });

  test('the app writes the timezone cookie at load, for the whole site', async ({ page, context }) => {
    await page.goto('/auth/sign-in');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Iniciar sesión');

    const cookie = (await context.cookies()).find((candidate) => candidate.name === 'timezone');
    expect(cookie, 'timezone cookie').toBeDefined();
    const zone = decodeURIComponent(cookie?.value ?? '');
    expect(buenosAires).toContain(zone);
    expect(zone).toBe(await browserZone(page));
    expect(cookie?.path).toBe('/');
    expect(cookie?.sameSite).toBe('Lax');
    expect(cookie?.httpOnly).toBe(false);
  });

  test('the server receives it with the first API call', async ({ page }) => {
    await seedToken(page);
    let resolveCookieHeader: (header: string) => void = () => undefined;
    const cookieHeader = new Promise<string>((resolve) => {
      resolveCookieHeader = resolve;
    });
    await page.route(meRoute, async (route) => {
      resolveCookieHeader((await route.request().headerValue('cookie')) ?? '');
      await route.fulfill({ status: 401, json: { code: 'unauthorized', message: 'Unauthorized' } });
    });

    await page.goto('/dashboard');

    const timezone = /(?:^|;\s*)timezone=([^;]+)/.exec(await cookieHeader)?.[1];
    expect(buenosAires).toContain(decodeURIComponent(timezone ?? ''));
    await expect(page).toHaveURL('/auth/sign-in');
  });
});

test.describe('in Tokyo, under a base path', () => {
  test.use({ timezoneId: 'Asia/Tokyo' });

  test('the cookie is still written for path=/', async ({ page, context }) => {
    await page.goto(basePathServer.url('auth/sign-in'));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Iniciar sesión');

    const cookies = await context.cookies(basePathServer.origin);
    const cookie = cookies.find((candidate) => candidate.name === 'timezone');
    expect(decodeURIComponent(cookie?.value ?? '')).toBe('Asia/Tokyo');
    expect(cookie?.path).toBe('/');
  });
});
