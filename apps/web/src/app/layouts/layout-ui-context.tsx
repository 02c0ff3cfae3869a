import { createContext, type ReactNode, useContext, useMemo, useState } from 'react';

/** Panels of the authenticated layout that can be toggled (spec §2): not persisted. */
interface LayoutUiState {
  activityOpen: boolean;
  customizerOpen: boolean;
  /** The off-canvas sidebar and its backdrop below 992 px. */
  mobileMenuOpen: boolean;
  setActivityOpen: (open: boolean) => void;
  setCustomizerOpen: (open: boolean) => void;
  setMobileMenuOpen: (open: boolean) => void;
}

const LayoutUiContext = createContext<LayoutUiState | null>(null);

export function LayoutUiProvider({ children }: { children: ReactNode }) {
  const [activityOpen, setActivityOpen] = useState(false);
  const [customizerOpen, setCustomizerOpen] = useState(false);
  const [mobileMenuOpen, setMobileMenuOpen] = useState(false);
  const value = useMemo(
    () => ({ activityOpen, customizerOpen, mobileMenuOpen, setActivityOpen, setCustomizerOpen, setMobileMenuOpen }),
    [activityOpen, customizerOpen, mobileMenuOpen],
  );
  return <LayoutUiContext.Provider value={value}>{children}</LayoutUiContext.Provider>;
}

export function useLayoutUi(): LayoutUiState {
  const context = useContext(LayoutUiContext);
  if (!context) throw new Error('useLayoutUi must be used inside LayoutUiProvider');
  return context;
}
