import { History, type LucideIcon, Menu, Moon, Palette, Sun } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useThemeSettings } from '../../lib/theme-context';
import { mobileLayoutQuery, useMediaQuery } from '../../lib/use-media-query';
import { useRouteTitleKey } from '../route-handle';
import { LanguageSwitcher } from './language-switcher';
import { useLayoutUi } from './layout-ui-context';
import { UserMenu } from './user-menu';

/** A topbar button that opens and closes a side panel (the activity, the customizer). */
function PanelToggle({
  icon: Icon,
  label,
  open,
  onOpen,
}: {
  icon: LucideIcon;
  label: string;
  open: boolean;
  onOpen: (open: boolean) => void;
}) {
  return (
    <button
      type="button"
      className="topbar-btn"
      onClick={() => onOpen(!open)}
      aria-label={label}
      title={label}
      aria-expanded={open}
    >
      <Icon size={20} aria-hidden="true" />
    </button>
  );
}

export function Topbar() {
  const { t } = useTranslation(['layout', 'common']);
  const titleKey = useRouteTitleKey();
  const { settings, setTheme, toggleMenuSize } = useThemeSettings();
  const { mobileMenuOpen, setMobileMenuOpen, activityOpen, setActivityOpen, customizerOpen, setCustomizerOpen } =
    useLayoutUi();
  const mobile = useMediaQuery(mobileLayoutQuery);
  const dark = settings.theme === 'dark';

  const onHamburger = () => (mobile ? setMobileMenuOpen(!mobileMenuOpen) : toggleMenuSize());

  return (
    <header className="app-topbar">
      <div className="topbar-start">
        <button
          type="button"
          className="topbar-btn"
          onClick={onHamburger}
          aria-label={t('layout:topbar.toggleMenu')}
          aria-controls="app-sidebar"
          aria-expanded={mobile ? mobileMenuOpen : undefined}
        >
          <Menu size={22} aria-hidden="true" />
        </button>
        {titleKey ? <h1 className="topbar-title">{t(`common:${titleKey}`)}</h1> : null}
      </div>
      <div className="topbar-end">
        <LanguageSwitcher />
        <button
          type="button"
          className="topbar-btn"
          onClick={() => setTheme(dark ? 'light' : 'dark')}
          aria-label={dark ? t('layout:topbar.lightMode') : t('layout:topbar.darkMode')}
          title={dark ? t('layout:topbar.lightMode') : t('layout:topbar.darkMode')}
        >
          {dark ? <Sun size={20} aria-hidden="true" /> : <Moon size={20} aria-hidden="true" />}
        </button>
        <PanelToggle icon={History} label={t('layout:topbar.activity')} open={activityOpen} onOpen={setActivityOpen} />
        <PanelToggle
          icon={Palette}
          label={t('layout:topbar.customizer')}
          open={customizerOpen}
          onOpen={setCustomizerOpen}
        />
        <UserMenu />
      </div>
    </header>
  );
}
