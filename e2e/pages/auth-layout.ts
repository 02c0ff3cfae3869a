import type { Locator, Page } from '@playwright/test';

/** The plain layout of the public pages (apps/web/src/app/layouts/auth-layout.tsx). */
export class AuthLayout {
  readonly root: Locator;
  readonly card: Locator;
  readonly languageSelect: Locator;
  readonly heading: Locator;

  constructor(readonly page: Page) {
    this.root = page.locator('.auth-layout');
    this.card = this.root.locator('.auth-card');
    this.languageSelect = this.root.getByRole('combobox', { name: /^(Idioma|Language|Langue)$/ });
    this.heading = this.card.getByRole('heading', { level: 1 });
  }

  /** Fills the sign-in form (in Spanish) and sends it. */
  async signIn(email: string, password: string): Promise<void> {
    await this.card.getByLabel('Correo electrónico').fill(email);
    await this.card.getByLabel('Contraseña', { exact: true }).fill(password);
    await this.card.getByRole('button', { name: 'Iniciar sesión' }).click();
  }
}

/** The 404 page (apps/web/src/pages/not-found.tsx). */
export class NotFoundPage {
  readonly root: Locator;
  readonly heading: Locator;
  readonly homeLink: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('not-found');
    this.heading = this.root.getByRole('heading', { level: 1 });
    this.homeLink = this.root.getByRole('link');
  }
}
