import { languages } from '@odontia/shared/languages';
import { Check, Languages } from 'lucide-react';
import Dropdown from 'react-bootstrap/Dropdown';
import { useTranslation } from 'react-i18next';
import { languageNames, supportedLanguage } from '../../lib/i18n';

/** The top bar's language menu: each language named in its own language. */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation('layout');
  const current = supportedLanguage(i18n.resolvedLanguage ?? i18n.language);

  return (
    <Dropdown align="end" className="language-switcher">
      <Dropdown.Toggle variant="link" className="topbar-btn no-caret" title={t('topbar.language')}>
        <Languages size={18} aria-hidden="true" />
        {/* The name is the visible code with a hidden word before it (WCAG 2.5.3): "Idioma: ES". */}
        <span className="visually-hidden">{t('topbar.language')}: </span>
        <span className="topbar-btn-label">{current.toUpperCase()}</span>
      </Dropdown.Toggle>
      <Dropdown.Menu className="dropdown-menu-animated">
        {languages.map((language) => (
          <Dropdown.Item
            key={language}
            as="button"
            lang={language}
            active={language === current}
            aria-current={language === current ? 'true' : undefined}
            onClick={() => void i18n.changeLanguage(language)}
            className="d-flex align-items-center justify-content-between gap-3"
          >
            {languageNames[language]}
            {language === current ? <Check size={16} aria-hidden="true" /> : null}
          </Dropdown.Item>
        ))}
      </Dropdown.Menu>
    </Dropdown>
  );
}
