import { expect, test } from '../fixtures/test';
import { createPatient } from '../support/clinic-api';
import { demoUsers, signInPage } from '../support/real-users';

/*
 * Issue 41: a double click on a button that creates makes one record — a new periodontal exam, a
 * new lab case (both once wrote two: their buttons ran plain mutations, not the app's `useAction`).
 */
test('a double click on "Nuevo periodontograma" and on a new lab case\'s "Guardar" makes one of each', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const patientId = await createPatient(request, {
    firstName: 'Doble',
    lastName: `Clic ${Date.now()}`,
    sex: 'male',
    birthdate: '1970-01-01',
  });
  const posts: string[] = [];
  page.on('request', (sent) => {
    if (sent.method() === 'POST') posts.push(new URL(sent.url()).pathname);
  });
  await page.setViewportSize({ width: 1024, height: 800 });
  await signInPage(page, demoUsers.administrator);

  await page.goto(`/patients/${patientId}/mh?tab=perio`);
  await page.getByTestId('perio-new').dblclick();
  await expect(page.getByTestId('perio-exam')).toHaveAttribute('data-status', 'draft');
  await expect(page.getByTestId('perio-history-item')).toHaveCount(1);
  expect(posts.filter((path) => path === `/api/patients/${patientId}/perio-exams`)).toHaveLength(1);

  await page.goto(`/patients/${patientId}/mh?tab=labCases`);
  await page.getByTestId('new-lab-case').click();
  const form = page.getByTestId('lab-case-form');
  await form.getByTestId('lab-case-lab').selectOption({ label: 'Laboratorio Dental Sur' });
  await form.getByTestId('lab-case-teeth').fill('21');
  await form.getByTestId('lab-case-save').dblclick();
  await expect(form).toHaveCount(0);
  await expect(page.getByTestId('lab-case-row')).toHaveCount(1);
  expect(posts.filter((path) => path === '/api/lab-cases')).toHaveLength(1);
});
