import { describe, expect, it } from 'vitest';
import {
  applyQueryOverrides,
  defaultThemeSettings,
  effectiveMenuSize,
  parseThemeSettings,
  resolveThemeSettings,
  type ThemeSettings,
} from './theme-settings';

const light = defaultThemeSettings(false);

describe('defaultThemeSettings', () => {
  it('follows the system preference and uses the spec defaults', () => {
    expect(defaultThemeSettings(false)).toEqual({
      theme: 'light',
      topbarTheme: 'light',
      menu: { theme: 'light', size: 'sm-hover-active' },
    });
    expect(defaultThemeSettings(true).theme).toBe('dark');
  });
});

describe('parseThemeSettings', () => {
  it('returns the defaults when nothing is stored', () => {
    expect(parseThemeSettings(null, light)).toEqual(light);
    expect(parseThemeSettings('', light)).toEqual(light);
  });

  it('reads a valid stored value', () => {
    const stored: ThemeSettings = { theme: 'dark', topbarTheme: 'dark', menu: { theme: 'dark', size: 'condensed' } };
    expect(parseThemeSettings(JSON.stringify(stored), light)).toEqual(stored);
  });

  it('falls back to defaults on invalid JSON or shapes', () => {
    for (const raw of ['{not json', '"dark"', '[]', 'null', '42', 'true']) {
      expect(parseThemeSettings(raw, light)).toEqual(light);
    }
  });

  it('keeps valid fields and replaces invalid ones', () => {
    const raw = JSON.stringify({ theme: 'dark', topbarTheme: 'purple', menu: { theme: 7, size: 'huge' } });
    expect(parseThemeSettings(raw, light)).toEqual({ ...light, theme: 'dark' });
    expect(parseThemeSettings(JSON.stringify({ theme: 'dark', menu: 'x' }), light)).toEqual({
      ...light,
      theme: 'dark',
    });
  });

  it('does not share the defaults object', () => {
    const parsed = parseThemeSettings(null, light);
    parsed.menu.size = 'hidden';
    expect(light.menu.size).toBe('sm-hover-active');
  });
});

describe('applyQueryOverrides', () => {
  it('overrides each setting from its query parameter', () => {
    expect(
      applyQueryOverrides(light, '?layout_theme=dark&topbar_theme=dark&menu_theme=dark&menu_size=condensed'),
    ).toEqual({ theme: 'dark', topbarTheme: 'dark', menu: { theme: 'dark', size: 'condensed' } });
  });

  it('accepts URLSearchParams and leaves other settings alone', () => {
    expect(applyQueryOverrides(light, new URLSearchParams('menu_size=hidden'))).toEqual({
      ...light,
      menu: { ...light.menu, size: 'hidden' },
    });
  });

  it('ignores invalid values', () => {
    expect(applyQueryOverrides(light, '?layout_theme=blue&menu_size=tiny')).toEqual(light);
  });
});

describe('resolveThemeSettings', () => {
  it('applies the URL over the stored value over the defaults', () => {
    const stored = JSON.stringify({ theme: 'light', topbarTheme: 'dark', menu: { theme: 'dark', size: 'default' } });
    expect(resolveThemeSettings({ stored, search: '?layout_theme=dark', prefersDark: false })).toEqual({
      theme: 'dark',
      topbarTheme: 'dark',
      menu: { theme: 'dark', size: 'default' },
    });
    expect(resolveThemeSettings({ stored: 'garbage', search: '', prefersDark: true }).theme).toBe('dark');
  });
});

describe('effectiveMenuSize', () => {
  it('shows the configured size until the hamburger toggles it', () => {
    expect(effectiveMenuSize('sm-hover-active', false)).toBe('sm-hover-active');
    expect(effectiveMenuSize('sm-hover-active', true)).toBe('default');
    expect(effectiveMenuSize('hidden', true)).toBe('default');
    expect(effectiveMenuSize('default', true)).toBe('condensed');
  });
});
