import { declaredRecord } from './record-contract.ts';
import type { TestClinicContext } from './test-clinic.ts';

/** What a test reads of a record it wrote when it names no schema: its id, version and the rest. */
export type WrittenRecord = { id: string; version: number; [key: string]: unknown };

/**
 * One kind of a patient's medical-history records as the integration tests call it, from its
 * declaration in packages/shared (/api/patients/:patientId/<collection>): `url` of the list, or of
 * one record with `id` (the test's patient unless another is named), `create`, which POSTs the
 * body (`body()` when none is given) and expects 201, and what the record contract
 * (test/record-contract.ts) of every such record says alike: its entity, where it is, that it is
 * the patient's, its create body and its permissions.
 */
export function patientRecordApi<TRecord = WrittenRecord>(
  t: TestClinicContext,
  declared: Parameters<typeof declaredRecord>[0],
  body: () => Record<string, unknown>,
) {
  const location = declaredRecord(declared);
  const url = (id?: string, patient = t.patientId) => `${location.collection(patient)}${id ? `/${id}` : ''}`;
  const create = (written: object = body(), patient = t.patientId) =>
    t.created<TRecord>(url(undefined, patient), { body: written });
  const contract = {
    ...location,
    body,
    permissions: { read: 'patients.read', write: 'clinical.write' },
  } as const;
  return { url, create, contract };
}
