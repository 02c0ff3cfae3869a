import { languages } from '@odontia/shared/enums';
import { Languages } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { languageNames, supportedLanguage } from '../lib/i18n';

/**
 * Language choice of the public pages. A native select on purpose: the dropdown of the top bar
 * pulls in Popper, which the sign-in page's bundle budget cannot afford.
 */
export function LanguageSelect() {
  const { t } = useTranslation('layout');
  return <LanguageChoice label={t('topbar.language')} />;
}

/** The select itself, labelled by the caller (the patient portal has its own catalog). */
export function LanguageChoice({ label }: { label: string }) {
  const { i18n } = useTranslation();
  const id = useId();
  const current = supportedLanguage(i18n.resolvedLanguage ?? i18n.language);
  return (
    <div className="language-select">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <Languages size={16} aria-hidden="true" className="language-select-icon" />
      <select
        id={id}
        className="form-select form-select-sm"
        value={current}
        onChange={(event) => void i18n.changeLanguage(event.target.value)}
      >
        {languages.map((language) => (
          <option key={language} value={language} lang={language}>
            {languageNames[language]}
          </option>
        ))}
      </select>
    </div>
  );
}
