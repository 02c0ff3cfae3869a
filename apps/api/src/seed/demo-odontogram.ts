import type { ToothStatus, ToothZone } from '@odontia/shared/enums';
import { and, eq, inArray } from 'drizzle-orm';
import { attendances } from '../db/schema/index.ts';
import type { TenantTx } from '../db/tenancy.ts';
import { recordAuditEvent } from '../features/audit/audit.repository.ts';
import { entriesSavedEvent, insertEntries } from '../features/odontogram/odontogram.repository.ts';
import { newId } from '../lib/ids.ts';
import { type DemoStaff, firstDemoPatients } from './demo-patients.ts';
import { demoInstant } from './demo-time.ts';

/**
 * The demo clinic's odontograms (issue 6): the first two patients get a plausible chart charted
 * on the days of their attendances (the first visit finds caries, the next one fills them), so
 * the timeline has stops. Each batch with its audit event, like the API writes it. Runs after
 * the medical histories.
 */

type Mark = [tooth: number, zone: ToothZone | null, status: ToothStatus];

const demoCharts: { patient: number; days: number; attendance: string | null; marks: Mark[] }[] = [
  {
    patient: 0,
    days: 40,
    attendance: 'Control y limpieza',
    marks: [
      [18, null, 'missing'],
      [28, null, 'missing'],
      [16, 'occlusal', 'sealant'],
      [26, 'occlusal', 'sealant'],
      [36, 'occlusal', 'caries'],
      [25, 'distal', 'caries'],
      [46, 'occlusal', 'filling'],
      [46, 'buccal', 'filling'],
      [11, null, 'crown'],
      [38, null, 'impacted'],
    ],
  },
  { patient: 0, days: 6, attendance: 'Obturación pieza 36', marks: [[36, 'occlusal', 'filling']] },
  {
    patient: 1,
    days: 12,
    attendance: 'Dolor agudo en pieza 46',
    marks: [
      [46, null, 'root_canal'],
      [46, 'occlusal', 'caries'],
      [47, 'mesial', 'caries'],
      [37, null, 'extracted'],
      [48, null, 'to_extract'],
      [14, 'buccal', 'fractured'],
      [24, null, 'implant'],
    ],
  },
];

export async function seedDemoOdontogram(tx: TenantTx, accountId: string, users: DemoStaff): Promise<void> {
  const patientIds = await firstDemoPatients(tx, accountId, 2);
  if (!patientIds) return;
  const visits = await tx
    .select({ id: attendances.id, patientId: attendances.patientId, title: attendances.titleResume })
    .from(attendances)
    .where(and(eq(attendances.accountId, accountId), inArray(attendances.patientId, patientIds)));
  for (const [index, chart] of demoCharts.entries()) {
    const patientId = patientIds[chart.patient] as string;
    const attendanceId =
      visits.find((visit) => visit.patientId === patientId && visit.title === chart.attendance)?.id ?? null;
    const professionalId = index % 2 === 0 ? users.administratorId : users.supervisorId;
    const chartedAt = demoInstant(chart.days, '10:30');
    const rows = chart.marks.map(([tooth, zone, status]) => ({
      accountId,
      id: newId(),
      patientId,
      tooth,
      zone,
      status,
      notes: null,
      chartedAt,
      professionalId,
      attendanceId,
      createdBy: professionalId,
    }));
    await insertEntries(tx, rows);
    await recordAuditEvent(tx, {
      accountId,
      userId: professionalId,
      ...entriesSavedEvent({ patientId, chartedAt, professionalId, attendanceId }, rows),
    });
  }
}
