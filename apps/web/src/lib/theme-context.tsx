import type { MenuSize, ThemeMode } from '@odontia/shared/appearance';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import {
  applyThemeToDocument,
  defaultThemeSettings,
  effectiveMenuSize,
  loadThemeSettings,
  saveThemeSettings,
  type ThemeSettings,
} from './theme-settings';

interface ThemeContextValue {
  settings: ThemeSettings;
  /** The size the sidebar shows now: the configured one, or the full bar after the hamburger. */
  menuSize: MenuSize;
  menuToggled: boolean;
  toggleMenuSize: () => void;
  setTheme: (theme: ThemeMode) => void;
  setTopbarTheme: (theme: ThemeMode) => void;
  setMenuTheme: (theme: ThemeMode) => void;
  setMenuSize: (size: MenuSize) => void;
  resetSettings: () => void;
}

const ThemeContext = createContext<ThemeContextValue | null>(null);

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [settings, setSettings] = useState<ThemeSettings>(loadThemeSettings);
  const [menuToggled, setMenuToggled] = useState(false);
  const menuSize = effectiveMenuSize(settings.menu.size, menuToggled);

  useEffect(() => {
    applyThemeToDocument(settings, menuSize);
  }, [settings, menuSize]);

  const update = useCallback((change: (current: ThemeSettings) => ThemeSettings) => {
    setSettings((current) => {
      const next = change(current);
      saveThemeSettings(next);
      return next;
    });
  }, []);

  const value = useMemo<ThemeContextValue>(
    () => ({
      settings,
      menuSize,
      menuToggled,
      toggleMenuSize: () => setMenuToggled((toggled) => !toggled),
      setTheme: (theme) => update((current) => ({ ...current, theme })),
      setTopbarTheme: (topbarTheme) => update((current) => ({ ...current, topbarTheme })),
      setMenuTheme: (theme) => update((current) => ({ ...current, menu: { ...current.menu, theme } })),
      setMenuSize: (size) => {
        setMenuToggled(false);
        update((current) => ({ ...current, menu: { ...current.menu, size } }));
      },
      resetSettings: () => {
        setMenuToggled(false);
        const prefersDark = window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
        update(() => defaultThemeSettings(prefersDark));
      },
    }),
    [settings, menuSize, menuToggled, update],
  );

  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useThemeSettings(): ThemeContextValue {
  const context = useContext(ThemeContext);
  if (!context) throw new Error('useThemeSettings must be used inside ThemeProvider');
  return context;
}
