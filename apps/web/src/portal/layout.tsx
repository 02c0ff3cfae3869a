import { Moon, Sun } from 'lucide-react';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageChoice } from '../components/language-select';
import { brandStyle } from '../lib/brand-style';
import { setDocumentTitle } from '../lib/document-title';
import { applyThemeToDocument, loadThemeSettings, saveThemeSettings } from '../lib/theme-settings';
import type { ClinicBrand } from './brand';

function ThemeToggle() {
  const { t } = useTranslation();
  const [dark, setDark] = useState(() => document.documentElement.getAttribute('data-bs-theme') === 'dark');
  const toggle = () => {
    const settings = { ...loadThemeSettings(), theme: dark ? ('light' as const) : ('dark' as const) };
    saveThemeSettings(settings);
    applyThemeToDocument(settings, settings.menu.size);
    setDark(!dark);
  };
  const Icon = dark ? Sun : Moon;
  return (
    <button type="button" className="btn btn-sm portal-icon-button" onClick={toggle} aria-pressed={dark}>
      <Icon size={18} aria-hidden="true" />
      <span className="visually-hidden">{t('layout.darkMode')}</span>
    </button>
  );
}

/**
 * Every portal page: the clinic's band (logo, name, colour), the page, and the clinic's address,
 * phone and map at the foot. While the clinic loads the band keeps its height (no layout shift).
 */
export function PortalLayout({
  brand,
  title,
  children,
  actions,
}: {
  brand: ClinicBrand | null;
  /** The tab's title. */
  title: string;
  children: ReactNode;
  /** What the band shows at its end when signed in (sign out). */
  actions?: ReactNode;
}) {
  const { t } = useTranslation();
  useEffect(() => {
    setDocumentTitle(brand ? `${title} · ${brand.name}` : title);
  }, [brand, title]);
  // The clinic's colour on the band, the buttons, the links and the focus ring, in shades that keep 4.5:1.
  const palette = brand?.palette ?? null;
  const style = useMemo(() => brandStyle(palette), [palette]);
  return (
    <div className={style ? 'portal brand-scope' : 'portal'} style={style}>
      <a className="skip-link visually-hidden-focusable" href="#portal-main">
        {t('layout.skipLink')}
      </a>
      <header className="portal-band brand-band">
        <div className="portal-band-inner">
          <div className="portal-brand" data-testid="portal-brand">
            {brand?.logoUrl ? <img src={brand.logoUrl} alt="" className="portal-logo" width={40} height={40} /> : null}
            <span className="portal-brand-name">{brand?.name ?? '\u00a0'}</span>
          </div>
          <div className="portal-band-tools">
            {actions}
            <ThemeToggle />
          </div>
        </div>
      </header>
      <main id="portal-main" className="portal-main" tabIndex={-1}>
        {children}
      </main>
      <footer className="portal-footer">
        {brand ? (
          <address className="mb-2" data-testid="portal-clinic-contact">
            <strong className="d-block">{brand.name}</strong>
            {brand.address ? <span className="d-block">{brand.address}</span> : null}
            {brand.phone ? (
              <a className="d-block" href={`tel:${brand.phone.replace(/[^\d+]/g, '')}`}>
                {brand.phone}
              </a>
            ) : null}
            {brand.mapUrl ? (
              <a className="d-block" href={brand.mapUrl} target="_blank" rel="noopener noreferrer">
                {t('layout.map')}
              </a>
            ) : null}
          </address>
        ) : null}
        <LanguageChoice label={t('layout.language')} />
      </footer>
    </div>
  );
}
