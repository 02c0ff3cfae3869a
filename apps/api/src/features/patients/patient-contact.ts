import { sql } from 'drizzle-orm';
import { patients } from '../../db/schema/index.ts';

/**
 * The patient of an agenda row (an appointment, a waiting-list entry) as the screens show it — the
 * name, a phone to call, whether an e-mail can reach them — read in the row's own query (joined to
 * `patients`), answered as `patientContactFields` (shared schemas/patients.ts).
 */
export const patientContactColumns = {
  patientName: sql<string>`${patients.firstName} || ' ' || ${patients.lastName}`,
  patientPhone: sql<string | null>`nullif(concat_ws(' ', ${patients.phoneArea}, ${patients.phone}), '')`,
  patientHasEmail: sql<boolean>`coalesce(${patients.email}, '') <> ''`,
};

/** The contact of a row read with `patientContactColumns`, with the row's patient id. */
export function presentPatientContact(named: {
  row: { patientId: string };
  patientName: string;
  patientPhone: string | null;
  patientHasEmail: boolean;
}) {
  return {
    patientId: named.row.patientId,
    patientName: named.patientName,
    patientPhone: named.patientPhone,
    patientHasEmail: named.patientHasEmail,
  };
}
