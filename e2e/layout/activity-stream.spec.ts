import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { saveScreenshot } from '../support/artifacts';
import { createPatient } from '../support/clinic-api';
import { demoUsers, signInPage } from '../support/real-users';

/* The top bar's activity stream shows the clinic's recent audited changes and opens them (issue 14). */

test('the activity stream lists a new patient with who and when, and opens the history', async ({ page, request }) => {
  const lastName = `Actividad ${Math.random().toString(36).slice(2, 8)}`;
  const id = await createPatient(request, { firstName: 'Rocío', lastName, sex: 'female', birthdate: '1991-02-03' });

  await signInPage(page, demoUsers.administrator);
  await page.goto('/patients');
  const layout = new AppLayout(page);
  await layout.activityButton.click();
  const entry = layout.activityStream.getByTestId('activity-entry').filter({ hasText: `${lastName}, Rocío` });
  await expect(entry.first()).toContainText('Paciente registrado');
  await expect(entry.first()).toContainText('Laura Gómez');
  await saveScreenshot(page, 'activity-stream-light');
  await entry.first().getByRole('link').click();
  await expect(page).toHaveURL(`/patients/${id}/mh`);
  await expect(layout.activityStream).toBeHidden();

  await page.goto(`/patients/${id}/mh?layout_theme=dark`);
  await layout.activityButton.click();
  await expect(layout.activityStream.getByTestId('activity-entry').first()).toBeVisible();
  await saveScreenshot(page, 'activity-stream-dark');
});
