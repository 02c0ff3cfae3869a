import { expect, type Locator, type Page } from '@playwright/test';

/** The authenticated layout (apps/web/src/app/layouts), addressed the way a Spanish user sees it. */
export class AppLayout {
  readonly sidebar: Locator;
  readonly nav: Locator;
  readonly topbar: Locator;
  readonly title: Locator;
  readonly menuToggle: Locator;
  readonly languageButton: Locator;
  readonly darkModeButton: Locator;
  readonly lightModeButton: Locator;
  readonly activityButton: Locator;
  readonly customizerButton: Locator;
  readonly userMenuButton: Locator;
  readonly activityStream: Locator;
  readonly customizer: Locator;
  readonly backdrop: Locator;
  readonly comingSoon: Locator;
  readonly footer: Locator;

  constructor(readonly page: Page) {
    this.sidebar = page.locator('#app-sidebar');
    this.nav = page.getByRole('navigation', { name: 'Menú principal' });
    this.topbar = page.locator('header.app-topbar');
    this.title = this.topbar.getByRole('heading', { level: 1 });
    this.menuToggle = page.getByRole('button', { name: 'Mostrar u ocultar el menú' });
    this.languageButton = page.getByRole('button', { name: 'Idioma' });
    this.darkModeButton = page.getByRole('button', { name: 'Activar el modo oscuro' });
    this.lightModeButton = page.getByRole('button', { name: 'Activar el modo claro' });
    this.activityButton = page.getByRole('button', { name: 'Actividad reciente' });
    this.customizerButton = page.getByRole('button', { name: 'Personalizar la apariencia' });
    this.userMenuButton = page.getByRole('button', { name: 'Menú de usuario' });
    this.activityStream = page.getByTestId('activity-stream');
    this.customizer = page.getByTestId('theme-customizer');
    this.backdrop = page.getByTestId('sidebar-backdrop');
    this.comingSoon = page.getByTestId('coming-soon');
    this.footer = page.locator('footer.app-footer');
  }

  /** Opens `path` and sees its title in the top bar: the layout, ready. */
  static async open(page: Page, path: string, title: string | RegExp): Promise<AppLayout> {
    await page.goto(path);
    const layout = new AppLayout(page);
    await expect(layout.title).toHaveText(title);
    return layout;
  }

  /** A sidebar link by its path inside the app (`/patients`), whatever the base path. */
  sidebarLink(to: string): Locator {
    return this.nav.locator(`a[href$="${to}"]`);
  }

  /**
   * Follows a sidebar link the way a mouse user does. In the icon bars (`sm-hover*`) the sidebar
   * opens to full width as soon as the pointer is over it, and there a group's links show only
   * once the group is expanded; so hover first, then open the group if its link is not shown.
   */
  async follow(to: string, group?: string): Promise<void> {
    await this.sidebar.hover();
    const link = this.sidebarLink(to);
    if (group && !(await link.isVisible())) {
      const toggle = this.sidebarGroup(group);
      if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    }
    await link.click();
  }

  /** A collapsible sidebar group ("Cuentas corrientes", "Mi cuenta"). */
  sidebarGroup(name: string): Locator {
    return this.nav.getByRole('button', { name });
  }

  /** An entry of the open user menu: "Mi perfil", "Usuarios", "Bloquear pantalla" (links) or "Cerrar sesión". */
  userMenuItem(name: string): Locator {
    const menu = this.page.locator('.user-menu .dropdown-menu');
    return menu.getByRole('link', { name, exact: true }).or(menu.getByRole('button', { name, exact: true }));
  }

  /** Opens a toggle panel and waits until it is shown. */
  async open(panel: 'activity' | 'customizer'): Promise<Locator> {
    const [button, target] =
      panel === 'activity' ? [this.activityButton, this.activityStream] : [this.customizerButton, this.customizer];
    await button.click();
    await target.waitFor({ state: 'visible' });
    return target;
  }
}
