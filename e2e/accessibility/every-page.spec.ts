import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { test } from '../fixtures/test';
import { areas } from '../support/areas';
import { expectNoAxeViolations } from '../support/axe';
import { navigateInApp, settle } from '../support/page';
import { apiSignIn, demoUsers, signInPage } from '../support/real-users';
import { rootServer } from '../support/servers';

/*
 * axe-core (WCAG 2.1 A and AA) on every page of the product, signed in as the demo clinic's
 * administrator, in the light and the dark theme; and on the public pages. A new page joins by
 * being in the sidebar (support/areas.ts) or in the list below.
 */

async function demoIds(request: APIRequestContext) {
  const headers = { Authorization: `Bearer ${await apiSignIn(request, demoUsers.administrator)}` };
  const get = async (path: string) =>
    ((await (await request.get(rootServer.url(path), { headers })).json()) as { data: { id: string }[] }).data;
  const patient = (await get('api/patients?pageSize=1&sort=skuPatient'))[0]?.id ?? '';
  const [attendance] = await get(`api/patients/${patient}/attendances`);
  const [medication] = await get('api/medications?pageSize=1');
  const [supply] = await get('api/supplies?pageSize=1');
  const [certificate] = await get(`api/patients/${patient}/certificates`);
  const [payment] = await get('api/payments?pageSize=1');
  const [provider] = await get('api/providers?pageSize=1');
  return {
    payment: payment?.id ?? '',
    provider: provider?.id ?? '',
    patient,
    attendance: attendance?.id ?? '',
    medication: medication?.id ?? '',
    supply: supply?.id ?? '',
    certificate: certificate?.id ?? '',
  };
}

/**
 * Opens `path` in `theme` and runs axe on it: the first page is loaded with the theme's query
 * parameter, the others are opened in the app as a link would (the theme stays; see
 * navigateInApp), which makes the sweep several times faster than a full load per page.
 */
async function open(page: Page, path: string, theme: 'light' | 'dark', first: boolean): Promise<void> {
  if (first) await page.goto(`${path}${path.includes('?') ? '&' : '?'}layout_theme=${theme}`);
  else await navigateInApp(page, path);
  await settle(page, { spinners: true });
  await expect(page.locator('html')).toHaveAttribute('data-bs-theme', theme);
  await expectNoAxeViolations(page, `${path} (${theme})`);
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`axe on every page, ${theme}`, () => {
    test('the sidebar’s areas', async ({ page }) => {
      test.setTimeout(240_000);
      await signInPage(page, demoUsers.administrator);
      for (const [index, area] of areas.entries()) await open(page, area.path, theme, index === 0);
    });

    test('records, forms and the history’s tabs', async ({ page, request }) => {
      test.setTimeout(300_000);
      const ids = await demoIds(request);
      await signInPage(page, demoUsers.administrator);
      const history = `/patients/${ids.patient}/mh`;
      const paths = [
        '/patients/create',
        `/patients/edit/${ids.patient}`,
        ...[
          'attendances',
          'diagnoses',
          'laboratory',
          'timeline',
          'appointments',
          'messages',
          'odontogram',
          'plans',
          'prescriptions',
          'certificates',
          'authorizations',
          'files',
          'changes',
        ].map((tab) => `${history}?tab=${tab}`),
        `${history}/attendance/new`,
        `${history}/attendance/show/${ids.attendance}`,
        `${history}/diagnosis/new`,
        `${history}/laboratory/new`,
        `${history}/prescription/new`,
        `${history}/certificate/new`,
        `${history}/certificate/show/${ids.certificate}`,
        `${history}/authorization/new`,
        '/medications/create',
        `/medications/edit/${ids.medication}`,
        `/supplies/edit/${ids.supply}`,
        '/settings/authorization-templates',
        // Messages to patients (issue 38): channels, accounts and templates.
        '/settings/messages',
        // Electronic invoicing (issue 39): the demo clinic's local regime.
        '/settings/einvoicing',
        '/purchases/create',
        '/purchases/view/not-a-uuid',
        '/providers/create',
        `/providers/edit/${ids.provider}`,
        '/profile',
        '/patients/edit/not-a-uuid',
        '/payments/create',
        // The demo clinic's payments and providers (issue 17), once it has them.
        ...(ids.payment ? [`/payments/view/${ids.payment}`] : []),
        ...(ids.provider ? [`/cc-providers/${ids.provider}`] : []),
      ];
      for (const [index, path] of paths.entries()) await open(page, path, theme, index === 0);
    });
  });
}

test('axe on the public pages', async ({ page }) => {
  for (const path of ['/auth/sign-in', '/auth/sign-up', '/auth/forgot-password', '/error-404']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    await expectNoAxeViolations(page, path);
  }
});
