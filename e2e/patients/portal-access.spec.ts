import { expect, test } from '../fixtures/test';
import { apiSignIn, demoUsers, signInPage } from '../support/real-users';
import { rootServer } from '../support/servers';

/* The patient's portal access on their page (issue 37): invite, the state it shows, take it away. */

test('the staff invite a patient to the portal from their page and take the access away', async ({ page, request }) => {
  const token = await apiSignIn(request, demoUsers.administrator);
  const suffix = Math.random().toString(36).slice(2, 8);
  const created = await request.post(rootServer.url('api/patients'), {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      firstName: 'Inés',
      lastName: `Portal ${suffix}`,
      sex: 'female',
      birthdate: '1985-03-14',
      email: `ines.portal.${suffix}@correo.demo`,
    },
  });
  expect(created.status()).toBe(201);
  const patientId = ((await created.json()) as { data: { id: string } }).data.id;

  await signInPage(page, demoUsers.administrator);
  await page.goto(`/patients/edit/${patientId}`);
  const card = page.getByTestId('patient-portal-access');
  await expect(card.getByTestId('patient-portal-state')).toHaveText('Sin acceso');
  await card.getByRole('button', { name: 'Invitar al portal' }).click();
  await expect(card.getByTestId('patient-portal-state')).toHaveText('Invitado');
  await expect(card).toContainText(`ines.portal.${suffix}@correo.demo`);
  await expect(
    page.getByText('Invitación enviada. El paciente recibirá un correo para entrar al portal.'),
  ).toBeVisible();
  await card.getByRole('button', { name: 'Retirar el acceso' }).click();
  await expect(card.getByTestId('patient-portal-state')).toHaveText('Sin acceso');
});
