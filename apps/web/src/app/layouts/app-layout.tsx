import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { AccountBanner } from '../../features/account/account-banner';
import { mobileLayoutQuery, useMediaQuery } from '../../lib/use-media-query';
import { useAutoLock } from '../../session/auto-lock';
import { useSessionUser } from '../../session/session';
import { lockAfterMinutesOf } from '../../session/types';
import { ActivityStream } from './activity-stream';
import { Footer } from './footer';
import { LayoutUiProvider, useLayoutUi } from './layout-ui-context';
import { PermittedOutlet } from './permission-guard';
import { Sidebar } from './sidebar';
import { ThemeCustomizer } from './theme-customizer';
import { Topbar } from './topbar';

function Shell() {
  const { t } = useTranslation('layout');
  const { mobileMenuOpen, setMobileMenuOpen } = useLayoutUi();
  const { pathname } = useLocation();
  const mobile = useMediaQuery(mobileLayoutQuery);
  useAutoLock(lockAfterMinutesOf(useSessionUser()));

  // A menu link was followed, or the window grew past the breakpoint: close the off-canvas sidebar.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation on purpose
  useEffect(() => {
    setMobileMenuOpen(false);
  }, [pathname, mobile, setMobileMenuOpen]);

  useEffect(() => {
    if (!mobileMenuOpen) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setMobileMenuOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [mobileMenuOpen, setMobileMenuOpen]);

  return (
    <div className={`app-wrapper${mobileMenuOpen ? ' sidebar-open' : ''}`}>
      {/* The first Tab of every page: past the menu and the top bar, to the page itself (WCAG 2.4.1). */}
      {/* biome-ignore lint/a11y/useValidAnchor: a link to the page's section; the script moves the focus without a history entry for the fragment */}
      <a
        href="#main-content"
        className="skip-link visually-hidden-focusable"
        data-testid="skip-link"
        onClick={(event) => {
          event.preventDefault();
          const main = document.getElementById('main-content');
          main?.focus();
          main?.scrollIntoView({ block: 'start' });
        }}
      >
        {t('skipLink')}
      </a>
      <Sidebar />
      {mobileMenuOpen ? (
        <button
          type="button"
          className="sidebar-backdrop"
          aria-label={t('sidebar.close')}
          onClick={() => setMobileMenuOpen(false)}
          data-testid="sidebar-backdrop"
        />
      ) : null}
      <div className="app-content">
        <Topbar />
        <AccountBanner />
        <main className="page-content" id="main-content" tabIndex={-1}>
          <PermittedOutlet />
        </main>
        <Footer />
      </div>
      <ActivityStream />
      <ThemeCustomizer />
    </div>
  );
}

/** Sidebar, top bar, content and footer; rendered by ProtectedLayout after the session check. */
export function AppLayout() {
  return (
    <LayoutUiProvider>
      <Shell />
    </LayoutUiProvider>
  );
}
