import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useBookingSource } from '../booking-source';
import { portalErrorText } from '../errors';
import { PortalLayout } from '../layout';
import { portalBookingApi, usePortalMe } from '../portal-session';
import { useRouter } from '../router';
import { ErrorAlert, Placeholder } from '../ui';
import { type BookingChoices, BookingFlow, type BookingSource } from './book';

/**
 * `/portal/book`: the signed-in patient books, or with `?reschedule=<appointment>` moves an
 * appointment to another free time (the clinic's rules decide what may be booked and until when).
 * The home page's reschedule link names the appointment's treatment and professional, so the move
 * starts at the day; Back lets the patient choose others.
 */
export function PortalBookingPage() {
  const { t } = useTranslation();
  const { me, brand, error } = usePortalMe();
  const { query, navigate } = useRouter();
  const reschedule = query.get('reschedule');
  const slug = me?.clinic.slug ?? '';
  const freeSlots = useCallback<BookingSource['freeSlots']>(
    async (slotQuery) => (await portalBookingApi.freeSlots({ query: { ...slotQuery, limit: 200 } })).data,
    [],
  );
  // The clinic's bookable treatments and professionals: the same lists its public page offers.
  const booking = useBookingSource(slug, freeSlots);
  const source = booking.source;

  const book = async (choices: BookingChoices) => {
    const answer = reschedule
      ? await portalBookingApi.reschedule({
          params: { id: reschedule },
          body: {
            startsAt: choices.startsAt,
            professionalId: choices.professionalId,
            treatmentId: choices.treatmentId,
          },
        })
      : await portalBookingApi.book({ body: choices });
    // Back to the list, which says what happened; Back from there does not book again.
    navigate(`/portal?done=${answer.code ?? 'appointment_booked_online'}`, { replace: true });
  };

  const title = reschedule ? t('book.rescheduleTitle') : t('book.title');
  const failure = error ?? booking.error;
  return (
    <PortalLayout brand={brand} title={title}>
      <h1 className="h3 mb-3">{title}</h1>
      {failure ? (
        <ErrorAlert>{portalErrorText(failure)}</ErrorAlert>
      ) : !source ? (
        <Placeholder testId="booking-loading" minHeight="20rem" />
      ) : (
        <BookingFlow source={source} path="/portal/book" details={false} book={book} />
      )}
    </PortalLayout>
  );
}
