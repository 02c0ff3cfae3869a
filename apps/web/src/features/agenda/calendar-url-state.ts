import { clinicToday } from '@odontia/shared/clinic-time';
import type { Schedule } from '@odontia/shared/schemas/schedules';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useClinicTimeZone } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import { agendaState, readAgendaPreferences, writeAgendaPreferences } from './agenda-preferences';

/**
 * The agenda's state: the URL's (a link opens what it says), else what this user chose last time
 * on this clinic (the view, the professionals, chair columns), else the day view of today.
 */
export function useUrlState() {
  const [search, setSearch] = useSearchParams();
  const timeZone = useClinicTimeZone();
  const user = useSessionUser();
  const [stored] = useState(() => readAgendaPreferences(user?.id, user?.account.id));
  const { view, professionals, byChair } = agendaState(search, stored);
  const professionalsKey = professionals.join(',');
  useEffect(() => {
    writeAgendaPreferences(user?.id, user?.account.id, {
      view,
      professionals: professionalsKey ? professionalsKey.split(',') : [],
      byChair,
    });
  }, [user?.id, user?.account.id, view, professionalsKey, byChair]);
  const rawDate = search.get('date') ?? '';
  const date = /^\d{4}-\d{2}-\d{2}$/.test(rawDate) ? rawDate : clinicToday(timeZone);
  const set = useCallback(
    (changes: Record<string, string | null>, replace = false) =>
      setSearch(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(changes)) {
            if (value === null) next.delete(key);
            else next.set(key, value);
          }
          return next;
        },
        { replace },
      ),
    [setSearch],
  );
  return { search, view, date, set, professionals, byChair };
}

/** The wall-clock ranges of a week for a resource: the professional's, else the clinic's. */
export function rangesFor(
  schedules: { clinic: Schedule | null; professionals: Schedule[] } | undefined,
  professionalId?: string,
) {
  const own = professionalId ? schedules?.professionals.find((s) => s.professionalId === professionalId) : undefined;
  if (own?.ranges.length) return own.ranges;
  return schedules?.clinic?.ranges ?? [];
}
