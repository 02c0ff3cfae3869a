import { useTranslation } from 'react-i18next';

export const vendorUrl = 'https://odontia.app';

export function Footer() {
  const { t } = useTranslation('layout');
  const year = new Date().getFullYear();
  return (
    <footer className="app-footer">
      <span>
        © {year} Odontia. {t('footer.copyright')}
      </span>
      <span>
        {t('footer.madeBy')}{' '}
        <a href={vendorUrl} target="_blank" rel="noopener noreferrer">
          odontia.app
        </a>
      </span>
    </footer>
  );
}
