import {
  certificateTemplates,
  createHealthCertificateRequestSchema,
} from '@odontia/shared/schemas/health-certificates';
import type { TenantTx } from '../db/tenancy.ts';
import { certificatesService } from '../features/certificates/certificates.service.ts';
import { firstDemoPatients } from './demo-patients.ts';
import { demoDay, demoTimeZone } from './demo-time.ts';

/**
 * The demo clinic's health certificates (issue 24), issued through the service like any other
 * (placeholders filled, professional copied, code, audit): an attendance certificate for an
 * employer, and a rest certificate voided for its wrong dates and issued again.
 */
export async function seedDemoCertificates(
  tx: TenantTx,
  accountId: string,
  { supervisorId }: { supervisorId: string },
): Promise<void> {
  const patientIds = await firstDemoPatients(tx, accountId, 2);
  if (!patientIds) return;
  const [first, second] = patientIds as [string, string];
  const ctx = {
    tx,
    accountId,
    userId: supervisorId,
    level: 'supervisor',
    timeZone: demoTimeZone,
    ip: '127.0.0.1',
  } as const;
  const issue = (patientId: string, input: Record<string, unknown>) =>
    certificatesService.create({ ctx, patientId, input: createHealthCertificateRequestSchema.parse(input) });
  await issue(first, {
    kind: 'attendance',
    date: demoDay(6),
    professionalId: supervisorId,
    addressee: 'Banco Ciudad, Recursos Humanos',
    visitTime: '10:00',
    text: certificateTemplates.es.attendance,
  });
  const rest = {
    kind: 'rest',
    date: demoDay(3),
    professionalId: supervisorId,
    restFrom: demoDay(3),
    restTo: demoDay(3),
    diagnosis: 'Exodoncia de tercer molar inferior',
    showDiagnosis: false,
    text: certificateTemplates.es.rest,
  };
  const wrong = await issue(second, rest);
  await certificatesService.void({
    ctx,
    patientId: second,
    id: wrong.id,
    input: { reason: 'Faltaba el día siguiente a la cirugía', version: wrong.version },
  });
  await issue(second, { ...rest, restTo: demoDay(2), replacesId: wrong.id });
}
