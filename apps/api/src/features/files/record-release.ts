import type { RequestContext } from '../../plugins/routes.ts';
import { audit } from '../audit/audit.repository.ts';
import { recordKey, releaseRecordFiles } from './files.repository.ts';

/**
 * A diagnosis, laboratory order or attendance is deleted: its files leave it and stay in the patient's files,
 * each audited as removed from the record (as "Quitar del registro" does), so no file points at a
 * deleted record. Called by the record's delete, in its transaction.
 */
export async function releaseFilesOfRecord(
  ctx: RequestContext,
  patientId: string,
  kind: keyof typeof recordKey,
  recordId: string,
) {
  const key = recordKey[kind];
  for (const file of await releaseRecordFiles(ctx, kind, recordId)) {
    await audit(ctx, {
      patientId,
      action: 'file_removed',
      entity: 'file',
      entityId: file.id,
      before: { [key]: recordId, originalName: file.originalName, version: file.version - 1 },
      after: { [key]: null, reason: 'record_deleted' },
    });
  }
}
