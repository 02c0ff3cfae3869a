import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { portalErrorText } from '../errors';
import { PortalLayout } from '../layout';
import { portalBookingApi, usePortalMe } from '../portal-session';
import { publicBookingApi } from '../public-api';
import { useRouter } from '../router';
import { ErrorAlert, Placeholder } from '../ui';
import { type BookingChoices, BookingFlow, type BookingSource } from './book';

type BookingPage = Awaited<ReturnType<typeof publicBookingApi.page>>['data'];

/**
 * `/portal/book`: the signed-in patient books, or with `?reschedule=<appointment>` moves an
 * appointment to another free time (the clinic's rules decide what may be booked and until when).
 */
export function PortalBookingPage() {
  const { t } = useTranslation();
  const { me, brand, error } = usePortalMe();
  const { query, navigate } = useRouter();
  const reschedule = query.get('reschedule');
  const slug = me?.clinic.slug ?? '';
  const [page, setPage] = useState<{ data: BookingPage | null; error: unknown }>({ data: null, error: null });

  useEffect(() => {
    if (!slug) return;
    let current = true;
    // The clinic's bookable treatments and professionals: the same lists its public page offers.
    publicBookingApi.page({ params: { slug } }).then(
      ({ data }) => current && setPage({ data, error: null }),
      (failure: unknown) => current && setPage({ data: null, error: failure }),
    );
    return () => {
      current = false;
    };
  }, [slug]);

  const freeSlots = useCallback<BookingSource['freeSlots']>(
    async (slotQuery) => (await portalBookingApi.freeSlots({ query: { ...slotQuery, limit: 200 } })).data,
    [],
  );
  const source = useMemo<BookingSource | null>(
    () =>
      page.data
        ? {
            timeZone: page.data.clinic.timeZone,
            treatments: page.data.treatments,
            professionals: page.data.professionals,
            freeSlots,
          }
        : null,
    [page.data, freeSlots],
  );

  const book = async (choices: BookingChoices) => {
    const answer = reschedule
      ? await portalBookingApi.reschedule({
          params: { id: reschedule },
          body: { startsAt: choices.startsAt, professionalId: choices.professionalId },
        })
      : await portalBookingApi.book({ body: choices });
    // Back to the list, which says what happened; Back from there does not book again.
    navigate(`/portal?done=${answer.code ?? 'appointment_booked_online'}`, { replace: true });
  };

  const title = reschedule ? t('book.rescheduleTitle') : t('book.title');
  const failure = error ?? page.error;
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
