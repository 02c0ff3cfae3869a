import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { supportedLanguage } from '../../lib/i18n';
import { useBookingSource } from '../booking-source';
import { portalErrorText } from '../errors';
import { PortalLayout } from '../layout';
import { publicBookingApi } from '../public-api';
import { brandOf } from '../public-clinic';
import { ErrorAlert, Placeholder } from '../ui';
import { type BookingChoices, BookingFlow, type BookingSource, CheckYourMail } from './book';

/** `/c/:slug/book`: a new patient books from the clinic's public page, then confirms by e-mail. */
export function PublicBookingPage({ slug }: { slug: string }) {
  const { t, i18n } = useTranslation();
  const [held, setHeld] = useState<{ expiresAt: string } | null>(null);

  const freeSlots = useCallback<BookingSource['freeSlots']>(
    async (query) => (await publicBookingApi.freeSlots({ params: { slug }, query: { ...query, limit: 200 } })).data,
    [slug],
  );
  const { clinic, source, error } = useBookingSource(slug, freeSlots);

  const book = async (choices: BookingChoices, person: Record<string, string> | null) => {
    const answer = await publicBookingApi.book({
      params: { slug },
      body: {
        ...choices,
        firstName: person?.firstName ?? '',
        lastName: person?.lastName ?? '',
        email: person?.email ?? '',
        phone: person?.phone ?? '',
        idNumber: person?.idNumber ?? '',
        sex: person?.sex === 'male' ? 'male' : 'female',
        birthdate: person?.birthdate ?? '',
        language: supportedLanguage(i18n.language),
      },
    });
    setHeld({ expiresAt: answer.data.expiresAt });
  };

  return (
    <PortalLayout brand={clinic ? brandOf(clinic) : null} title={t('book.title')}>
      <h1 className="h3 mb-3">{t('book.title')}</h1>
      {error ? (
        <ErrorAlert>{portalErrorText(error)}</ErrorAlert>
      ) : !source ? (
        <Placeholder testId="booking-loading" minHeight="20rem" />
      ) : held ? (
        <CheckYourMail expiresAt={held.expiresAt} timeZone={source.timeZone} />
      ) : (
        <BookingFlow source={source} path={`/c/${encodeURIComponent(slug)}/book`} details book={book} />
      )}
    </PortalLayout>
  );
}
