import { useEffect, useMemo, useState } from 'react';
import type { BookingSource } from './pages/book';
import { publicBookingApi } from './public-api';

type BookingPage = Awaited<ReturnType<typeof publicBookingApi.page>>['data'];

/**
 * What the booking offers at the clinic `slug` (its treatments, professionals and zone, the lists
 * its public page offers), with the free slots from `freeSlots` (public or the patient's own).
 */
export function useBookingSource(slug: string, freeSlots: BookingSource['freeSlots']) {
  const [page, setPage] = useState<{ data: BookingPage | null; error: unknown }>({ data: null, error: null });
  useEffect(() => {
    if (!slug) return;
    let current = true;
    publicBookingApi.page({ params: { slug } }).then(
      ({ data }) => current && setPage({ data, error: null }),
      (error: unknown) => current && setPage({ data: null, error }),
    );
    return () => {
      current = false;
    };
  }, [slug]);
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
  return { clinic: page.data?.clinic ?? null, source, error: page.error };
}
