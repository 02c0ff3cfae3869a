import { readToken, storageKey } from '../fixtures/session';
import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { AuthLayout } from '../pages/auth-layout';
import { areas, deepPages } from '../support/areas';
import { answerEmptyLists } from '../support/fake-users';

test.describe('authenticated layout (fake session)', () => {
  test('the sidebar lists every area under its section', async ({ page, fakeSession }) => {
    void fakeSession;
    const layout = await AppLayout.open(page, '/dashboard?menu_size=default', 'Panel');

    for (const section of ['Clínica', 'Inventario', 'Comercial', 'Administración']) {
      await expect(layout.nav.locator('.menu-title', { hasText: section })).toBeVisible();
    }

    // Groups start closed when none of their pages is open.
    for (const group of ['Obras sociales y seguros', 'Compras y pagos', 'Cuentas corrientes', 'Mi cuenta']) {
      await expect(layout.sidebarGroup(group)).toHaveAttribute('aria-expanded', 'false');
      await layout.sidebarGroup(group).click();
      await expect(layout.sidebarGroup(group)).toHaveAttribute('aria-expanded', 'true');
    }

    await expect(layout.nav.getByRole('link')).toHaveText(areas.map((area) => area.label));
    for (const area of areas) await expect(layout.sidebarLink(area.path)).toHaveAttribute('href', area.path);

    await layout.sidebarGroup('Mi cuenta').click();
    await expect(layout.sidebarGroup('Mi cuenta')).toHaveAttribute('aria-expanded', 'false');
    await expect(layout.sidebarLink('/account/users')).toBeHidden();
  });

  test('each sidebar link opens its area (every one built) with the area title', async ({ page, fakeSession }) => {
    // Every area's code is loaded on its first click: more than the default 30 s on a loaded machine.
    test.slow();
    await answerEmptyLists(page);
    const layout = await AppLayout.open(page, '/dashboard?menu_size=default', 'Panel');

    for (const area of [...areas.slice(1), areas[0]]) {
      if (!area) continue;
      if (area.group && (await layout.sidebarGroup(area.group).getAttribute('aria-expanded')) !== 'true') {
        await layout.sidebarGroup(area.group).click();
      }
      await layout.sidebarLink(area.path).click();

      await expect(page).toHaveURL(area.path);
      await expect(layout.title).toHaveText(area.title);
      await expect(page).toHaveTitle(`Odontia | ${area.title}`);
      // The last "coming soon" page went with the reports (issue 19): every area is built.
      expect(area.built, area.path).toBe(true);
      await expect(layout.comingSoon).toHaveCount(0);
      await expect(layout.sidebarLink(area.path)).toHaveAttribute('aria-current', 'page');
      await expect(layout.nav.locator('a.active')).toHaveCount(1);
      if (area.group) await expect(layout.sidebarGroup(area.group)).toHaveAttribute('aria-expanded', 'true');
    }

    // One session check for the whole visit: client-side navigation does not ask again.
    expect(fakeSession.meRequests).toHaveLength(1);
  });

  test('deep pages open by URL with their own title; a missing record\'s "Volver a ventas" goes to its list', async ({
    page,
    fakeSession,
  }) => {
    void fakeSession;
    // One full page load per deep page: more than the default 30 s on a loaded CI machine.
    test.slow();
    const layout = new AppLayout(page);
    for (const deep of deepPages) {
      await page.goto(deep.path);
      await expect(layout.title).toHaveText(deep.title);
      await expect(page).toHaveTitle(`Odontia | ${deep.title}`);
    }

    await expect(page.getByTestId('record-not-found')).toBeVisible();
    await page.getByTestId('record-not-found').getByRole('link', { name: 'Volver a ventas' }).click();
    await expect(page).toHaveURL('/sales');
    await expect(layout.title).toHaveText('Ventas');
  });

  test('the group of the open page is expanded on arrival', async ({ page, fakeSession }) => {
    void fakeSession;
    await answerEmptyLists(page);
    const layout = await AppLayout.open(page, '/cc-customers?menu_size=default', 'Cuenta corriente de clientes');
    await expect(layout.sidebarGroup('Cuentas corrientes')).toHaveAttribute('aria-expanded', 'true');
    await expect(layout.sidebarLink('/cc-customers')).toHaveAttribute('aria-current', 'page');
    await expect(layout.sidebarGroup('Mi cuenta')).toHaveAttribute('aria-expanded', 'false');
  });

  test('the footer has the current year and the vendor link', async ({ page, fakeSession }) => {
    void fakeSession;
    await page.goto('/dashboard');
    const layout = new AppLayout(page);
    const year = await page.evaluate(() => new Date().getFullYear());

    await expect(layout.footer).toContainText(`© ${year} Odontia. Todos los derechos reservados.`);
    const vendor = layout.footer.getByRole('link', { name: 'odontia.app' });
    await expect(vendor).toHaveAttribute('href', 'https://odontia.app');
    await expect(vendor).toHaveAttribute('target', '_blank');
    await expect(vendor).toHaveAttribute('rel', /noopener/);
  });

  test('the user menu shows who is signed in and leads to profile, users and lock screen', async ({
    page,
    fakeSession,
  }) => {
    void fakeSession;
    await answerEmptyLists(page);
    await page.goto('/dashboard');
    const layout = new AppLayout(page);
    await expect(layout.userMenuButton).toContainText('Dra. Lucía Fernández');
    await expect(layout.userMenuButton).toContainText('Administrador');
    await expect(layout.userMenuButton.locator('.avatar')).toHaveText('DF');

    await layout.userMenuButton.click();
    await expect(page.locator('.user-menu .dropdown-header')).toHaveText(
      /Dra\. Lucía Fernández\s*Clínica Dental Sonrisas/,
    );
    await layout.userMenuItem('Mi perfil').click();
    await expect(page).toHaveURL('/profile');
    await expect(layout.title).toHaveText('Mi perfil');

    await layout.userMenuButton.click();
    await layout.userMenuItem('Usuarios').click();
    await expect(page).toHaveURL('/account/users');
    await expect(layout.title).toHaveText('Usuarios');

    await layout.userMenuButton.click();
    await layout.userMenuItem('Bloquear pantalla').click();
    await expect(page).toHaveURL('/auth/lock-screen');
    await expect(new AuthLayout(page).heading).toHaveText('Pantalla bloqueada');
  });

  test('the activity stream opens empty and closes', async ({ page, fakeSession }) => {
    void fakeSession;
    await page.goto('/dashboard');
    const layout = new AppLayout(page);
    await expect(layout.activityButton).toHaveAttribute('aria-expanded', 'false');

    const activity = await layout.open('activity');
    await expect(activity.getByRole('heading', { name: 'Actividad reciente' })).toBeVisible();
    await expect(activity).toContainText('Sin actividad reciente');
    await expect(layout.activityButton).toHaveAttribute('aria-expanded', 'true');

    await activity.getByRole('button', { name: 'Cerrar' }).click();
    await expect(layout.activityStream).toBeHidden();
    await expect(layout.activityButton).toHaveAttribute('aria-expanded', 'false');

    await layout.open('activity');
    await page.keyboard.press('Escape');
    await expect(layout.activityStream).toBeHidden();
  });

  test('the customizer opens and closes', async ({ page, fakeSession }) => {
    void fakeSession;
    await page.goto('/dashboard');
    const layout = new AppLayout(page);

    const customizer = await layout.open('customizer');
    await expect(customizer.getByRole('heading', { name: 'Personalizar' })).toBeVisible();
    for (const group of ['Esquema de color', 'Color de la barra superior', 'Color del menú', 'Tamaño del menú']) {
      await expect(customizer.getByRole('group', { name: group })).toBeVisible();
    }
    await expect(layout.customizerButton).toHaveAttribute('aria-expanded', 'true');

    await customizer.getByRole('button', { name: 'Cerrar' }).click();
    await expect(layout.customizer).toBeHidden();

    await layout.open('customizer');
    await page.keyboard.press('Escape');
    await expect(layout.customizer).toBeHidden();
  });

  test('signing out from the user menu ends at sign-in and forgets the session', async ({ page, fakeSession }) => {
    const layout = await AppLayout.open(page, '/patients', 'Pacientes');
    expect(await readToken(page)).toBe('e2e-fake-session-token');

    await layout.userMenuButton.click();
    await layout.userMenuItem('Cerrar sesión').click();

    await expect(page).toHaveURL('/auth/sign-in');
    await expect(new AuthLayout(page).heading).toHaveText('Iniciar sesión');
    expect(await readToken(page)).toBeNull();
    expect(await page.evaluate((key) => window.localStorage.getItem(key), storageKey('user'))).toBeNull();
    expect(fakeSession.signOutRequests).toHaveLength(1);
    expect(fakeSession.signOutRequests[0]?.method()).toBe('POST');
    expect(await fakeSession.signOutRequests[0]?.headerValue('authorization')).toBe('Bearer e2e-fake-session-token');

    // Neither a reload nor a protected link bring the session back.
    await page.reload();
    await expect(new AuthLayout(page).heading).toHaveText('Iniciar sesión');
    await page.goto('/patients');
    await expect(page).toHaveURL('/auth/sign-in');
    expect(fakeSession.meRequests).toHaveLength(1);
  });
});

test.describe('below 992 px (390 × 844)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the sidebar is off-canvas: the hamburger opens it with a backdrop that closes it', async ({
    page,
    fakeSession,
  }) => {
    void fakeSession;
    const layout = await AppLayout.open(page, '/dashboard', 'Panel');
    await expect(layout.sidebar).not.toBeInViewport();
    await expect(layout.backdrop).toHaveCount(0);
    await expect(layout.menuToggle).toHaveAttribute('aria-expanded', 'false');

    await layout.menuToggle.click();
    await expect(layout.backdrop).toBeVisible();
    await expect(layout.sidebar).toBeInViewport({ ratio: 1 });
    await expect(layout.menuToggle).toHaveAttribute('aria-expanded', 'true');
    // Off-canvas, the menu shows its labels whatever the configured size.
    await expect(layout.sidebarLink('/patients').locator('.menu-text')).toBeVisible();

    // The backdrop covers what the sidebar does not: click its visible right edge.
    const viewport = page.viewportSize() ?? { width: 390, height: 844 };
    await layout.backdrop.click({ position: { x: viewport.width - 20, y: viewport.height / 2 } });
    await expect(layout.backdrop).toHaveCount(0);
    await expect(layout.sidebar).not.toBeInViewport();
    await expect(layout.menuToggle).toHaveAttribute('aria-expanded', 'false');
  });

  test('following a link or pressing Escape closes the off-canvas sidebar', async ({ page, fakeSession }) => {
    void fakeSession;
    await answerEmptyLists(page);
    await page.goto('/dashboard');
    const layout = new AppLayout(page);

    await layout.menuToggle.click();
    await layout.sidebarLink('/supplies').click();
    await expect(page).toHaveURL('/supplies');
    await expect(layout.title).toHaveText('Insumos');
    await expect(layout.backdrop).toHaveCount(0);
    await expect(layout.sidebar).not.toBeInViewport();

    await layout.menuToggle.click();
    await expect(layout.backdrop).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(layout.backdrop).toHaveCount(0);
    await expect(layout.sidebar).not.toBeInViewport();
  });

  test('the hamburger changes nothing saved and the layout fits the screen', async ({ page, fakeSession }) => {
    void fakeSession;
    const layout = await AppLayout.open(page, '/dashboard', 'Panel');
    await layout.menuToggle.click();
    await expect(layout.backdrop).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-menu-size', 'sm-hover-active');
    // No horizontal scrolling on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
