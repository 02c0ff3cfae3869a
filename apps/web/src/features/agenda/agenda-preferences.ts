import { readItem, writeItem } from '../../lib/storage-keys';
import { type AgendaView, agendaViews } from './display-time';

/*
 * What the agenda remembers per user and clinic (issue 34): the view last chosen, the
 * professionals filter and the chair columns. The URL still wins: a link opens what it says.
 */

export interface AgendaPreferences {
  view?: AgendaView;
  professionals?: string[];
  byChair?: boolean;
}

/** The view a receptionist opens on: the day, one column per professional. */
export const defaultAgendaView: AgendaView = 'day';

const keyOf = (userId: string, accountId: string) => `agenda.${accountId}.${userId}` as const;

export function readAgendaPreferences(userId: string | undefined, accountId: string | undefined): AgendaPreferences {
  if (!userId || !accountId) return {};
  try {
    const parsed = JSON.parse(readItem(keyOf(userId, accountId)) ?? '{}') as AgendaPreferences;
    return typeof parsed === 'object' && parsed ? parsed : {};
  } catch {
    return {};
  }
}

export function writeAgendaPreferences(
  userId: string | undefined,
  accountId: string | undefined,
  preferences: AgendaPreferences,
): void {
  if (!userId || !accountId) return;
  try {
    writeItem(keyOf(userId, accountId), JSON.stringify(preferences));
  } catch {
    // Storage full or disabled: the agenda still works, it only forgets.
  }
}

/** The view, professionals and chair columns shown: the URL's, else the remembered ones, else the day. */
export function agendaState(
  search: URLSearchParams,
  stored: AgendaPreferences,
): { view: AgendaView; professionals: string[]; byChair: boolean } {
  const isView = (value: unknown): value is AgendaView => agendaViews.includes(value as AgendaView);
  const rawView = search.get('view');
  const view = isView(rawView) ? rawView : isView(stored.view) ? stored.view : defaultAgendaView;
  const professionals = search.has('professionals')
    ? (search.get('professionals') ?? '').split(',').filter(Boolean)
    : Array.isArray(stored.professionals)
      ? stored.professionals.filter((id) => typeof id === 'string')
      : [];
  const rawChair = search.get('byChair');
  const byChair = rawChair === null ? stored.byChair === true : rawChair === '1';
  return { view, professionals, byChair };
}
