import type { APIRequestContext } from '@playwright/test';
import { test } from '../fixtures/test';
import { areas } from '../support/areas';
import { expectNoAxeViolations } from '../support/axe';
import { settle } from '../support/page';
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

for (const theme of ['light', 'dark'] as const) {
  test.describe(`axe on every page, ${theme}`, () => {
    test('the sidebar’s areas', async ({ page }) => {
      test.setTimeout(240_000);
      await signInPage(page, demoUsers.administrator);
      for (const area of areas) {
        await page.goto(`${area.path}?layout_theme=${theme}`);
        await settle(page, { spinners: true });
        await expectNoAxeViolations(page, `${area.path} (${theme})`);
      }
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
          'odontogram',
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
      for (const path of paths) {
        await page.goto(`${path}${path.includes('?') ? '&' : '?'}layout_theme=${theme}`);
        await settle(page, { spinners: true });
        await expectNoAxeViolations(page, `${path} (${theme})`);
      }
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
