import { type AttendanceType, attendanceGroupOf, type LaboratoryStudy } from '@odontia/shared/enums';
import { lineTotal, sumMoney } from '@odontia/shared/money';
import { and, eq, inArray } from 'drizzle-orm';
import { inventoryItems } from '../db/schema/index.ts';
import type { TenantTx } from '../db/tenancy.ts';
import { attendancesRepository, insertLinesAndItems } from '../features/attendances/attendances.repository.ts';
import { type AuditEventInput, recordAuditEvent } from '../features/audit/audit.repository.ts';
import { diagnosesRepository } from '../features/diagnoses/diagnoses.repository.ts';
import { laboratoriesRepository } from '../features/laboratories/laboratories.repository.ts';
import { applyStockMovements } from '../features/stock/stock.service.ts';
import { newId } from '../lib/ids.ts';
import { type DemoStaff, firstDemoPatients } from './demo-patients.ts';
import { demoDay, demoInstant } from './demo-time.ts';

/**
 * The demo clinic's medical histories (issue 5): diagnoses, laboratory orders (one with its
 * result) and attendances of the first patients, the attendances' supplies and medicines taken
 * from stock through the stock service like any attendance; each write with its audit event.
 * Runs after the inventory and the patients of the demo.
 */

interface DemoAttendance {
  patient: number;
  days: number;
  attendanceType: AttendanceType;
  titleResume: string;
  resume: string;
  finished: boolean;
  fee: string;
  lines: { description: string; quantity: number; price: string }[];
  supplies: { name: string; quantity: number }[];
  medications: { name: string; quantity: number }[];
}

const demoAttendances: DemoAttendance[] = [
  {
    patient: 0,
    days: 40,
    attendanceType: 'checkup_control',
    titleResume: 'Control y limpieza',
    resume: 'Tartrectomía y profilaxis; se indica control en 6 meses.',
    finished: true,
    fee: '15000.00',
    lines: [{ description: 'Profilaxis con ultrasonido', quantity: 1, price: '12000.00' }],
    supplies: [
      { name: 'Guantes de nitrilo talle M', quantity: 1 },
      { name: 'Eyectores de saliva descartables', quantity: 2 },
    ],
    medications: [],
  },
  {
    patient: 0,
    days: 6,
    attendanceType: 'dentistry',
    titleResume: 'Obturación pieza 36',
    resume: 'Caries oclusal en 36: anestesia infiltrativa y obturación con composite.',
    finished: false,
    fee: '18000.00',
    lines: [{ description: 'Obturación con composite', quantity: 1, price: '35000.00' }],
    supplies: [
      { name: 'Composite fotocurable A2', quantity: 1 },
      { name: 'Agujas dentales cortas 30G', quantity: 1 },
      { name: 'Guantes de nitrilo talle M', quantity: 1 },
    ],
    medications: [{ name: 'Lidocaína 2% con epinefrina 1:100.000', quantity: 1 }],
  },
  {
    patient: 1,
    days: 12,
    attendanceType: 'emergency_attendance',
    titleResume: 'Dolor agudo en pieza 46',
    resume: 'Pulpitis irreversible; apertura cameral y medicación intraconducto.',
    finished: true,
    fee: '25000.00',
    lines: [{ description: 'Apertura cameral', quantity: 1, price: '30000.00' }],
    supplies: [
      { name: 'Limas K 25 mm surtidas 15-40', quantity: 1 },
      { name: 'Conos de papel absorbente 15-40', quantity: 1 },
    ],
    medications: [{ name: 'Articaína 4% con epinefrina', quantity: 1 }],
  },
  {
    patient: 2,
    days: 3,
    attendanceType: 'dental_radiography',
    titleResume: 'Radiografía panorámica',
    resume: 'Panorámica de control previa a ortodoncia.',
    finished: false,
    fee: '9000.00',
    lines: [],
    supplies: [{ name: 'Baberos descartables', quantity: 1 }],
    medications: [],
  },
];

interface DemoDiagnosis {
  patient: number;
  days: number;
  text: string;
  icd10Code: string | null;
  teeth: number[];
  status: 'active' | 'resolved';
}

const demoDiagnoses: DemoDiagnosis[] = [
  { patient: 0, days: 6, text: 'Caries de dentina', icd10Code: 'K02.1', teeth: [36], status: 'active' },
  { patient: 0, days: 40, text: 'Gingivitis crónica', icd10Code: 'K05.1', teeth: [], status: 'resolved' },
  { patient: 1, days: 12, text: 'Pulpitis irreversible', icd10Code: 'K04.0', teeth: [46], status: 'active' },
  { patient: 3, days: 20, text: 'Bruxismo', icd10Code: 'F45.8', teeth: [], status: 'active' },
];

interface DemoLaboratory {
  patient: number;
  days: number;
  laboratoryName: string;
  studies: LaboratoryStudy[];
  instructions: string | null;
  result: { days: number; text: string } | null;
}

const demoLaboratories: DemoLaboratory[] = [
  {
    patient: 1,
    days: 12,
    laboratoryName: 'Laboratorio Central Belgrano',
    studies: ['blood_count', 'coagulation', 'blood_chemistry'],
    instructions: 'Ayuno de 8 horas. Traer la orden y el DNI.',
    result: { days: 9, text: 'Hemograma y coagulograma dentro de valores normales; glucemia 132 mg/dl.' },
  },
  {
    patient: 2,
    days: 3,
    laboratoryName: 'Diagnóstico por Imágenes Palermo',
    studies: ['dental_radiography'],
    instructions: 'Radiografía panorámica digital.',
    result: null,
  },
];

export async function seedDemoClinical(tx: TenantTx, accountId: string, users: DemoStaff): Promise<void> {
  const patientIds = await firstDemoPatients(tx, accountId, 4);
  if (!patientIds) return;
  const names = [
    ...new Set(demoAttendances.flatMap((a) => [...a.supplies, ...a.medications].map((item) => item.name))),
  ];
  const items = new Map(
    (
      await tx
        .select({ id: inventoryItems.id, name: inventoryItems.name })
        .from(inventoryItems)
        .where(and(eq(inventoryItems.accountId, accountId), inArray(inventoryItems.name, names)))
    ).map((row) => [row.name, row.id] as const),
  );
  const patientOf = (index: number) => patientIds[index] as string;
  const professionalOf = (index: number) => (index % 2 === 0 ? users.administratorId : users.supervisorId);
  const author = users.administratorId;
  // Written by the administrator, like any record; the audit rows have no ip (nobody's request).
  const asAuthor = { tx, accountId, userId: author };
  const audited = (event: Omit<AuditEventInput, 'accountId' | 'userId'>) =>
    recordAuditEvent(tx, { ...event, accountId, userId: author });

  for (const [index, diagnosis] of demoDiagnoses.entries()) {
    const id = newId();
    const columns = {
      date: demoDay(diagnosis.days),
      professionalId: professionalOf(index),
      text: diagnosis.text,
      icd10Code: diagnosis.icd10Code,
      teeth: diagnosis.teeth,
      status: diagnosis.status,
      notes: null,
    };
    const patientId = patientOf(diagnosis.patient);
    await diagnosesRepository.insert(asAuthor, { ...columns, id, patientId });
    await audited({
      patientId,
      action: 'diagnosis_created',
      entity: 'diagnosis',
      entityId: id,
      after: columns,
    });
  }

  for (const [index, laboratory] of demoLaboratories.entries()) {
    const id = newId();
    const columns = {
      orderDate: demoDay(laboratory.days),
      professionalId: professionalOf(index),
      laboratoryName: laboratory.laboratoryName,
      studies: laboratory.studies,
      instructions: laboratory.instructions,
      notes: null,
      status: laboratory.result ? ('result_received' as const) : ('ordered' as const),
      resultDate: laboratory.result ? demoDay(laboratory.result.days) : null,
      result: laboratory.result?.text ?? null,
    };
    const patientId = patientOf(laboratory.patient);
    await laboratoriesRepository.insert(asAuthor, { ...columns, id, patientId });
    await audited({
      patientId,
      action: 'laboratory_created',
      entity: 'laboratory',
      entityId: id,
      after: columns,
    });
  }

  for (const [index, attendance] of demoAttendances.entries()) {
    const id = newId();
    const patientId = patientOf(attendance.patient);
    const lines = attendance.lines.map((line) => ({
      ...line,
      itemId: null,
      total: lineTotal(line.price, line.quantity),
    }));
    const used = [
      ...attendance.supplies.map((item) => ({ ...item, kind: 'supply' as const })),
      ...attendance.medications.map((item) => ({ ...item, kind: 'medication' as const })),
    ].flatMap((item) => {
      const itemId = items.get(item.name);
      return itemId ? [{ itemId, kind: item.kind, quantity: item.quantity }] : [];
    });
    const date = demoInstant(attendance.days);
    const columns = {
      date,
      attendanceType: attendance.attendanceType,
      attendanceGroup: attendanceGroupOf[attendance.attendanceType],
      specialization: 'Odontología general',
      professionalId: professionalOf(index),
      titleResume: attendance.titleResume,
      resume: attendance.resume,
      detail: null,
      nextAppointment: attendance.finished ? null : demoDay(-14),
      finished: attendance.finished,
      finishedAt: attendance.finished ? date : null,
      resultDate: null,
      result: null,
      billable: true,
      attendanceFee: attendance.fee,
      totalBillable: sumMoney([attendance.fee, ...lines.map((line) => line.total)]),
    };
    await attendancesRepository.insert(asAuthor, { ...columns, id, patientId });
    await insertLinesAndItems(
      asAuthor,
      lines.map((line, position) => ({ ...line, id: newId(), attendanceId: id, position })),
      used.map((item) => ({ ...item, id: newId(), attendanceId: id })),
    );
    await applyStockMovements(
      tx,
      asAuthor,
      used.map((item) => ({
        itemId: item.itemId,
        kind: 'consumption',
        quantity: -item.quantity,
        reason: attendance.titleResume,
        referenceType: 'attendance',
        referenceId: id,
      })),
    );
    await audited({
      patientId,
      action: 'attendance_created',
      entity: 'attendance',
      entityId: id,
      after: {
        ...columns,
        date: date.toISOString(),
        finishedAt: undefined,
        lines,
        supplies: used.filter((item) => item.kind === 'supply').map(({ itemId, quantity }) => ({ itemId, quantity })),
        medications: used
          .filter((item) => item.kind === 'medication')
          .map(({ itemId, quantity }) => ({ itemId, quantity })),
      },
    });
  }
}
