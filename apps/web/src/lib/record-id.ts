import { isApiError } from './http';

/*
 * A record page's id comes from the address bar. A malformed one (`/medications/edit/not-a-uuid`,
 * `/patients/edit/123`) names no record: the page says "not found" without asking the server, and
 * an answer that no retry will change (404, or the server refusing the id, 400) is "not found"
 * too. Only a failure that may heal (no answer, a 5xx) offers "Reintentar".
 */

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether an id from the address bar can name a record at all (the API's ids are UUIDs). */
export function isRecordId(id: string | undefined): id is string {
  return typeof id === 'string' && uuidPattern.test(id);
}

/** A load failure that means "there is no such record here" rather than "try again". */
export function isNotFoundError(error: unknown): boolean {
  return isApiError(error) && (error.status === 404 || error.status === 400);
}
