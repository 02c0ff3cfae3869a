import { activityRoutes } from '@odontia/shared/routes/activity';
import type { ActivityEntry } from '@odontia/shared/schemas/activity';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';

/** The top bar's activity stream: fetched when the panel opens, fresh each time. */
export function useActivity(enabled: boolean) {
  return useQuery({
    queryKey: ['activity'],
    queryFn: async () => (await callApi(activityRoutes.latest, { query: { limit: 30 } })).data,
    enabled,
    staleTime: 0,
  });
}

const enc = encodeURIComponent;

/** Where an entry opens: its record, else the patient's history tab, else the area. Null for what is gone. */
export function activityLink(entry: ActivityEntry): string | null {
  const deleted = entry.action.endsWith('_deleted');
  if (entry.patientId) {
    const history = (tab?: string) => `/patients/${enc(entry.patientId ?? '')}/mh${tab ? `?tab=${tab}` : ''}`;
    const record = (kind: string) =>
      !deleted && entry.entityId
        ? `/patients/${enc(entry.patientId ?? '')}/mh/${kind}/show/${enc(entry.entityId)}`
        : null;
    switch (entry.entity) {
      case 'attendance':
        return record('attendance') ?? history('attendances');
      case 'diagnosis':
        return record('diagnosis') ?? history('diagnoses');
      case 'laboratory':
        return record('laboratory') ?? history('laboratory');
      case 'prescription':
        return record('prescription') ?? history('prescriptions');
      case 'authorization':
        return record('authorization') ?? history('authorizations');
      case 'file':
        return history('files');
      case 'odontogram':
      case 'odontogram_entry':
        return history('odontogram');
      default:
        return history();
    }
  }
  switch (entry.entity) {
    case 'medication':
      return entry.entityId ? `/medications/edit/${enc(entry.entityId)}` : '/medications';
    case 'supply':
      return entry.entityId ? `/supplies/edit/${enc(entry.entityId)}` : '/supplies';
    case 'inventory':
      return '/medications';
    case 'authorization_template':
      return '/settings/authorization-templates';
    case 'user':
      return '/account/users';
    default:
      return null;
  }
}
