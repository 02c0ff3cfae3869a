import { type MenuSize, menuSizes, type ThemeMode, themeModes } from '@odontia/shared/appearance';

/**
 * Layout settings of spec §3, kept in localStorage under `__REBACK_NEXT_CONFIG__` as
 * `{ "theme": "light"|"dark", "topbarTheme": "light"|"dark", "menu": { "theme": "light"|"dark", "size": MenuSize } }`.
 * The key name is the spec's (inherited from the Reback template), so it is not obfuscated.
 */
export const themeSettingsKey = '__REBACK_NEXT_CONFIG__';

export interface ThemeSettings {
  theme: ThemeMode;
  topbarTheme: ThemeMode;
  menu: { theme: ThemeMode; size: MenuSize };
}

/** URL query parameters that override the stored settings (and are then saved). */
export const themeQueryParams = {
  theme: 'layout_theme',
  topbarTheme: 'topbar_theme',
  menuTheme: 'menu_theme',
  menuSize: 'menu_size',
} as const;

export const defaultMenuSize: MenuSize = 'sm-hover-active';

export function defaultThemeSettings(prefersDark: boolean): ThemeSettings {
  return {
    theme: prefersDark ? 'dark' : 'light',
    topbarTheme: 'light',
    menu: { theme: 'light', size: defaultMenuSize },
  };
}

export function isThemeMode(value: unknown): value is ThemeMode {
  return typeof value === 'string' && (themeModes as readonly string[]).includes(value);
}

export function isMenuSize(value: unknown): value is MenuSize {
  return typeof value === 'string' && (menuSizes as readonly string[]).includes(value);
}

/** Keeps each valid stored value and takes the default for anything else; never throws. */
export function parseThemeSettings(raw: string | null | undefined, defaults: ThemeSettings): ThemeSettings {
  if (!raw) return cloneSettings(defaults);
  let stored: unknown;
  try {
    stored = JSON.parse(raw);
  } catch {
    return cloneSettings(defaults);
  }
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return cloneSettings(defaults);
  const value = stored as { theme?: unknown; topbarTheme?: unknown; menu?: unknown };
  const menu = value.menu && typeof value.menu === 'object' ? (value.menu as { theme?: unknown; size?: unknown }) : {};
  return {
    theme: isThemeMode(value.theme) ? value.theme : defaults.theme,
    topbarTheme: isThemeMode(value.topbarTheme) ? value.topbarTheme : defaults.topbarTheme,
    menu: {
      theme: isThemeMode(menu.theme) ? menu.theme : defaults.menu.theme,
      size: isMenuSize(menu.size) ? menu.size : defaults.menu.size,
    },
  };
}

/** Applies `layout_theme`, `topbar_theme`, `menu_theme` and `menu_size`; invalid values are ignored. */
export function applyQueryOverrides(settings: ThemeSettings, search: string | URLSearchParams): ThemeSettings {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const theme = params.get(themeQueryParams.theme);
  const topbarTheme = params.get(themeQueryParams.topbarTheme);
  const menuTheme = params.get(themeQueryParams.menuTheme);
  const menuSize = params.get(themeQueryParams.menuSize);
  return {
    theme: isThemeMode(theme) ? theme : settings.theme,
    topbarTheme: isThemeMode(topbarTheme) ? topbarTheme : settings.topbarTheme,
    menu: {
      theme: isThemeMode(menuTheme) ? menuTheme : settings.menu.theme,
      size: isMenuSize(menuSize) ? menuSize : settings.menu.size,
    },
  };
}

export function serializeThemeSettings(settings: ThemeSettings): string {
  return JSON.stringify(settings);
}

export function sameThemeSettings(a: ThemeSettings, b: ThemeSettings): boolean {
  return serializeThemeSettings(a) === serializeThemeSettings(b);
}

function cloneSettings(settings: ThemeSettings): ThemeSettings {
  return { ...settings, menu: { ...settings.menu } };
}

/** Start-up: stored settings (or defaults), then the URL's overrides. */
export function resolveThemeSettings(input: {
  stored: string | null;
  search: string;
  prefersDark: boolean;
}): ThemeSettings {
  return applyQueryOverrides(parseThemeSettings(input.stored, defaultThemeSettings(input.prefersDark)), input.search);
}

/**
 * What the sidebar shows. The hamburger flips between the configured size and the full sidebar
 * (and, when the full sidebar is configured, the icon bar).
 */
export function effectiveMenuSize(configured: MenuSize, toggled: boolean): MenuSize {
  if (!toggled) return configured;
  return configured === 'default' ? 'condensed' : 'default';
}

/** Browser glue, kept apart from the pure functions above. */
export function loadThemeSettings(): ThemeSettings {
  let stored: string | null = null;
  try {
    stored = window.localStorage.getItem(themeSettingsKey);
  } catch {
    stored = null;
  }
  const prefersDark = window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
  const settings = resolveThemeSettings({ stored, search: window.location.search, prefersDark });
  saveThemeSettings(settings);
  return settings;
}

export function saveThemeSettings(settings: ThemeSettings): void {
  try {
    window.localStorage.setItem(themeSettingsKey, serializeThemeSettings(settings));
  } catch {
    // Private mode or full storage: the settings simply do not persist.
  }
}

export function applyThemeToDocument(
  settings: ThemeSettings,
  menuSize: MenuSize,
  root = document.documentElement,
): void {
  root.setAttribute('data-bs-theme', settings.theme);
  root.setAttribute('data-topbar-color', settings.topbarTheme);
  root.setAttribute('data-menu-color', settings.menu.theme);
  root.setAttribute('data-menu-size', menuSize);
}
