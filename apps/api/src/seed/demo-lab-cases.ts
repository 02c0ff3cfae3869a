import { appointmentContracts } from '@odontia/shared/schemas/appointments';
import { createLabCaseSchema, type LabCaseStep, labCaseStepSchemas } from '@odontia/shared/schemas/lab-cases';
import { providerContracts } from '@odontia/shared/schemas/providers';
import type { TenantTx } from '../db/tenancy.ts';
import { appointmentsService } from '../features/appointments/appointments.service.ts';
import { labCasesService } from '../features/lab-cases/lab-cases.service.ts';
import { providersService } from '../features/providers/providers.service.ts';
import { AppError } from '../lib/app-error.ts';
import { demoCommercialContext } from './demo-commercial.ts';
import { firstDemoPatients } from './demo-patients.ts';
import { demoDay, demoInstant } from './demo-time.ts';

/** The demo clinic's dental lab (issue 41): the provider its crowns, bridges and dentures come from. */
export const demoDentalLab = {
  fantasyName: 'Laboratorio Dental Sur',
  bussinesName: 'Laboratorio Dental Sur S.R.L.',
  companyName: null,
  nif: '30-71888999-1',
  taxIdKind: 'cuit',
  fiscalCondition: 'ar_responsable_inscripto',
  contactName: 'Téc. Dental Marcelo Ruiz',
  commercialAddress: 'Av. Directorio 2150, Flores, CABA',
  phoneAreaBussines: '11',
  phoneBusiness: '4631-7720',
  phoneMobile: null,
  email: 'pedidos@labdentalsur.com.ar',
  bankName: null,
  bankAccount: null,
  bankKey: null,
  currency: 'argentine_peso',
  paymentTermDays: 30,
  notes: 'Laboratorio de prótesis: coronas, puentes, prótesis removibles y placas.',
  active: true,
} as const;

/**
 * Dental lab cases of the demo clinic (issue 41), written as the screens write them: one in every
 * state (draft, sent, overdue, received, checked, returned for a remake, seated) and a crown whose
 * seating appointment is tomorrow but is still at the lab, so the demo agenda shows its warning.
 */
export async function seedDemoLabCases(
  tx: TenantTx,
  accountId: string,
  { administratorId, professionalIds }: { administratorId: string; professionalIds: string[] },
): Promise<void> {
  const ctx = demoCommercialContext(tx, accountId, administratorId);
  const patients = await firstDemoPatients(tx, accountId, 8);
  if (!patients) return;
  const lab = await providersService.create({ ctx, input: providerContracts.create.parse(demoDentalLab) });
  const providerId = lab.id;

  const newCase = async (patient: number, fields: Record<string, unknown>) =>
    labCasesService.create({
      ctx,
      input: createLabCaseSchema.parse({ patientId: patients[patient], providerId, ...fields }),
    });
  /** The steps in order, each with its body (dates in days before today). */
  const walk = async (id: string, steps: [LabCaseStep, Record<string, unknown>][]) => {
    let version = (await labCasesService.get({ ctx, id })).version;
    for (const [step, body] of steps) {
      const input = labCaseStepSchemas[step].parse({ ...body, version });
      version = (await labCasesService.step({ ctx, id, step, input: input as never })).version;
    }
  };
  const sent = (daysAgo: number, dueInDays: number): [LabCaseStep, Record<string, unknown>] => [
    'send',
    { sentOn: demoDay(daysAgo), dueOn: demoDay(-dueInDays) },
  ];

  // Draft: impression taken, not sent yet.
  await newCase(0, { workType: 'crown', teeth: [36], shade: 'A3', material: 'Zirconio monolítico' });
  // Draft for the crown on 46 of the second patient's accepted treatment plan (its impression is the
  // plan's next session): the case names the plan's item.
  const crownItem = (await labCasesService.planItems({ ctx, patientId: patients[1] as string })).find(
    (item) => item.tooth === 46 && /corona/i.test(item.description),
  );
  if (crownItem)
    await newCase(1, {
      workType: 'crown',
      teeth: [46],
      shade: 'A3',
      material: 'Metal-cerámica',
      treatmentPlanItemId: crownItem.id,
    });
  // Sent, due in four days.
  const bridge = await newCase(1, {
    workType: 'bridge',
    teeth: [14, 15, 16],
    shade: 'A2',
    material: 'Metal-cerámica',
    instructions: 'Póntico higiénico en 15.',
  });
  await walk(bridge.id, [sent(3, 4)]);
  // Overdue: the lab promised it two days ago.
  const denture = await newCase(2, {
    workType: 'complete_denture',
    material: 'Acrílico termocurable',
    instructions: 'Dientes 3B, enfilado según modelo de cera aprobado.',
  });
  await walk(denture.id, [sent(12, -2)]);
  // Received yesterday, to check.
  const veneers = await newCase(3, {
    workType: 'veneer',
    teeth: [11, 21],
    shade: 'B1',
    material: 'Disilicato de litio',
  });
  await walk(veneers.id, [sent(10, -2), ['receive', { receivedOn: demoDay(1) }]]);
  // Checked, ready to seat.
  const implant = await newCase(4, { workType: 'implant_crown', teeth: [46], shade: 'A3', material: 'Zirconio' });
  await walk(implant.id, [sent(9, -3), ['receive', { receivedOn: demoDay(3) }], ['check', { checkedOn: demoDay(2) }]]);
  // Returned for a remake: the shade did not match.
  const remake = await newCase(5, { workType: 'crown', teeth: [21], shade: 'A2', material: 'Disilicato de litio' });
  await walk(remake.id, [
    sent(14, -6),
    ['receive', { receivedOn: demoDay(6) }],
    ['check', { checkedOn: demoDay(5) }],
    ['return', { returnedOn: demoDay(5), reason: 'Color más claro que la muestra: repetir en A3.' }],
  ]);
  // Seated last week.
  const guard = await newCase(6, { workType: 'night_guard', material: 'Acrílico rígido' });
  await walk(guard.id, [
    sent(20, -14),
    ['receive', { receivedOn: demoDay(13) }],
    ['check', { checkedOn: demoDay(12) }],
    ['seat', { seatedOn: demoDay(7) }],
  ]);

  // Tomorrow's seating of a crown still at the lab (due tomorrow): the agenda warns.
  const professionalId = professionalIds[1] ?? administratorId;
  let appointmentId: string | null = null;
  for (const time of ['18:00', '18:30', '19:00', '19:30', '07:30']) {
    const [hours, minutes] = time.split(':').map(Number) as [number, number];
    const end = `${String(hours + (minutes === 30 ? 1 : 0)).padStart(2, '0')}:${minutes === 30 ? '00' : '30'}`;
    try {
      const created = await appointmentsService.create({
        ctx,
        input: appointmentContracts.create.parse({
          patientId: patients[7],
          professionalId,
          startsAt: demoInstant(-1, time).toISOString(),
          endsAt: demoInstant(-1, end).toISOString(),
          reason: 'Cementado de corona 26',
          allowOutsideSchedule: true,
        }),
      });
      appointmentId = created.id;
      break;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
  }
  const crown = await newCase(7, {
    workType: 'crown',
    teeth: [26],
    shade: 'A3.5',
    material: 'Zirconio',
    appointmentId,
  });
  await walk(crown.id, [sent(6, 1)]);
}
