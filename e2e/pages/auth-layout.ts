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
