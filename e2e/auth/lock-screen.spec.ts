import { fakeUser, meRoute, unlockRoute } from '../fixtures/session';
import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { AuthLayout } from '../pages/auth-layout';
import { answerEmptyLists } from '../support/fake-users';

/* Locking and unlocking with a fake session (fixtures/session.ts): lock and unlock are routed. */

test('the user menu locks the screen; unlocking goes back to the page', async ({ page, fakeSession }) => {
  const layout = await AppLayout.open(page, '/patients?menu_size=default', 'Pacientes');

  await layout.userMenuButton.click();
  await layout.userMenuItem('Bloquear pantalla').click();

  await expect(page).toHaveURL('/auth/lock-screen');
  const auth = new AuthLayout(page);
  await expect(auth.heading).toHaveText('Pantalla bloqueada');
  await expect(page.getByTestId('lock-user-name')).toHaveText(fakeUser.completeName);
  expect(fakeSession.lockRequests).toHaveLength(1);

  // Empty: the field message, no call.
  await auth.card.getByRole('button', { name: 'Desbloquear' }).click();
  await expect(auth.card.getByLabel('Contraseña', { exact: true })).toHaveAccessibleDescription(
    'Este campo es obligatorio',
  );
  expect(fakeSession.unlockRequests).toHaveLength(0);

  await auth.card.getByLabel('Contraseña', { exact: true }).fill('una frase larga');
  await auth.card.getByRole('button', { name: 'Desbloquear' }).click();

  await expect(page).toHaveURL('/patients?menu_size=default');
  await expect(layout.title).toHaveText('Pacientes');
  expect(fakeSession.unlockRequests[0]?.postDataJSON()).toEqual({ password: 'una frase larga' });
});

test('a wrong password on the lock screen says so', async ({ page, fakeSession }) => {
  void fakeSession;
  await page.route(unlockRoute, (route) =>
    route.fulfill({ status: 401, json: { code: 'invalid_credentials', message: 'Wrong password.' } }),
  );
  await page.goto('/dashboard');
  await expect(new AppLayout(page).title).toHaveText('Panel');
  await page.goto('/auth/lock-screen');
  const auth = new AuthLayout(page);
  await auth.card.getByLabel('Contraseña', { exact: true }).fill('incorrecta');
  await auth.card.getByRole('button', { name: 'Desbloquear' }).click();
  await expect(page.getByTestId('form-error')).toHaveText('La contraseña no es correcta. Vuelve a intentarlo.');
  await expect(page.getByTestId('form-error')).not.toContainText('correo');
  await expect(page).toHaveURL('/auth/lock-screen');
});

test('"not you?" signs out', async ({ page, fakeSession }) => {
  await page.goto('/dashboard');
  await expect(new AppLayout(page).title).toHaveText('Panel');
  await page.goto('/auth/lock-screen');
  await expect(page.getByText(`¿No eres ${fakeUser.completeName}?`)).toBeVisible();
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL('/auth/sign-in');
  expect(fakeSession.signOutRequests).toHaveLength(1);
});

test('the screen locks itself after the clinic setting without activity', async ({ page, fakeSession }) => {
  await page.clock.install();
  const meCalls: (string | null)[] = [];
  await page.route(meRoute, async (route) => {
    meCalls.push(await route.request().headerValue('x-background'));
    await route.fulfill({
      status: 200,
      json: { data: { ...fakeUser, settings: { ...fakeUser.settings, lockAfterMinutes: 2 } } },
    });
  });
  const _layout = await AppLayout.open(page, '/patients', 'Pacientes');

  // Activity keeps it open.
  await page.clock.runFor(90_000);
  await page.mouse.move(200, 200);
  await page.mouse.move(220, 240);
  // The server counts requests, not clicks: after half the period, activity sends one ordinary
  // call to keep the server's session open (waited for before the clock jumps past its timeout).
  await page.clock.runFor(15_000);
  await expect.poll(() => meCalls.length).toBe(2);
  expect(meCalls).toEqual([null, null]);
  await page.clock.runFor(45_000);
  await expect(page).toHaveURL('/patients');
  expect(fakeSession.lockRequests).toHaveLength(0);

  // Then two quiet minutes.
  await page.clock.runFor(125_000);
  await expect(page).toHaveURL('/auth/lock-screen');
  // The lock call may still be on its way when the lock screen shows (a loaded machine).
  await expect.poll(() => fakeSession.lockRequests.length).toBe(1);

  await new AuthLayout(page).card.getByLabel('Contraseña', { exact: true }).fill('una frase larga');
  await page.getByRole('button', { name: 'Desbloquear' }).click();
  await expect(page).toHaveURL('/patients');
});

test('a session the server reports as locked (401 session_locked) opens the lock screen', async ({
  page,
  fakeSession,
}) => {
  void fakeSession;
  await page.route(meRoute, (route) =>
    route.fulfill({ status: 401, json: { code: 'session_locked', message: 'Locked.' } }),
  );
  await answerEmptyLists(page);
  await page.goto('/medications');
  await expect(page).toHaveURL('/auth/lock-screen');
  await expect(new AuthLayout(page).heading).toHaveText('Pantalla bloqueada');

  await new AuthLayout(page).card.getByLabel('Contraseña', { exact: true }).fill('una frase larga');
  await page.unroute(meRoute);
  await page.route(meRoute, (route) => route.fulfill({ status: 200, json: { data: fakeUser } }));
  await page.getByRole('button', { name: 'Desbloquear' }).click();
  await expect(page).toHaveURL('/medications');
  await expect(new AppLayout(page).title).toHaveText('Farmacias');
});

test('a profile with locked: true also opens the lock screen', async ({ page, fakeSession }) => {
  void fakeSession;
  await page.route(meRoute, (route) => route.fulfill({ status: 200, json: { data: { ...fakeUser, locked: true } } }));
  await page.goto('/dashboard');
  await expect(page).toHaveURL('/auth/lock-screen');
  await expect(page.getByTestId('lock-user-name')).toHaveText(fakeUser.completeName);
});

test('401 unauthorized from the server ends the local session', async ({ page, fakeSession }) => {
  void fakeSession;
  await page.route(meRoute, (route) =>
    route.fulfill({ status: 401, json: { code: 'session_expired', message: 'Expired.' } }),
  );
  await page.goto('/dashboard');
  await expect(page).toHaveURL('/auth/sign-in');
  await expect(new AuthLayout(page).heading).toHaveText('Iniciar sesión');
});
