import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { expectNoAxeViolations } from '../support/axe';
import { adminHeaders } from '../support/clinic-api';
import { settle } from '../support/page';
import { demoUsers, signInPage } from '../support/real-users';
import { rootServer } from '../support/servers';

/*
 * The settings page's online booking section (issue 37) against the real server with the demo
 * clinic (which takes bookings for Revisión and Limpieza): a bound is shown by its field, a new
 * lead time and one more bookable treatment are saved and read back; the demo's rules are put
 * back at the end.
 */

type Rules = { treatmentIds: string[]; leadHours: number; version: number; [key: string]: unknown };

async function rules(request: APIRequestContext): Promise<Rules> {
  const response = await request.get(rootServer.url('api/settings/online-booking'), {
    headers: await adminHeaders(request),
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: Rules }).data;
}

test('online booking rules are saved from the settings page', async ({ page, request }) => {
  test.setTimeout(90_000);
  const original = await rules(request);
  try {
    await signInPage(page, demoUsers.administrator);
    await page.goto('/settings');
    await settle(page, { spinners: true });
    const form = page.getByTestId('online-booking-form');
    await expect(form.getByTestId('online-booking-enabled')).toBeChecked();
    const lead = form.getByLabel('Antelación mínima (horas)');
    await lead.fill('1000');
    await form.getByTestId('online-booking-save').click();
    await expect(lead).toHaveAttribute('aria-invalid', 'true');
    await lead.fill('6');
    await form
      .getByTestId('online-booking-treatments')
      .getByLabel(/^Empaste/)
      .check();
    await form.getByTestId('online-booking-save').click();
    await expect(page.getByText('Reserva en línea actualizada.')).toBeVisible();
    const saved = await rules(request);
    expect(saved.leadHours).toBe(6);
    expect(saved.treatmentIds.length).toBe(original.treatmentIds.length + 1);
    await expectNoAxeViolations(page, 'settings, online booking', '[data-testid="settings-online-booking"]');
  } finally {
    const { treatments: _t, professionals: _p, ...current } = await rules(request);
    const response = await request.put(rootServer.url('api/settings/online-booking'), {
      headers: await adminHeaders(request),
      data: { ...current, leadHours: original.leadHours, treatmentIds: original.treatmentIds },
    });
    expect(response.status(), await response.text()).toBe(200);
  }
});
