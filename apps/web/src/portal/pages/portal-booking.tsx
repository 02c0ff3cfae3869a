import { useTranslation } from 'react-i18next';
import { PortalLayout } from '../layout';
import { usePortalMe } from '../portal-session';
import { Placeholder } from '../ui';

/** `/portal/book`: the signed-in patient books (the clinic's rules decide what may be booked). */
export function PortalBookingPage() {
  const { t } = useTranslation();
  const { brand } = usePortalMe();
  return (
    <PortalLayout brand={brand} title={t('book.title')}>
      <h1 className="h3 mb-3">{t('book.title')}</h1>
      <Placeholder testId="booking-loading" minHeight="20rem" />
    </PortalLayout>
  );
}
