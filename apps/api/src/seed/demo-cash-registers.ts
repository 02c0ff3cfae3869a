import {
  cashRegisterContracts,
  closeCashSessionSchema,
  createCashMovementSchema,
  openCashSessionSchema,
} from '@odontia/shared/schemas/cash-registers';
import { createCollectionSchema } from '@odontia/shared/schemas/collections';
import Big from 'big.js';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { patients } from '../db/schema/index.ts';
import type { TenantTx } from '../db/tenancy.ts';
import { cashRegistersService, cashSessionsService } from '../features/cash-registers/cash-registers.service.ts';
import { collectionsService } from '../features/collections/collections.service.ts';
import { demoCommercialContext } from './demo-commercial.ts';
import { demoDay, demoInstant } from './demo-time.ts';

/**
 * The demo clinic's registers (issue 40), written through the service: the front desk's and a
 * professional's; three past days of the front desk closed (one with a small explained
 * difference), one past day of the professional's, and today's front-desk session open with two
 * collections taken at it.
 */
export async function seedDemoCashRegisters(
  tx: TenantTx,
  accountId: string,
  { administratorId, professionalId }: { administratorId: string; professionalId: string },
) {
  const ctx = demoCommercialContext(tx, accountId, administratorId);
  const frontDesk = await cashRegistersService.create({
    ctx,
    input: cashRegisterContracts.create.parse({ name: 'Recepción', kind: 'front_desk' }),
  });
  const professional = await cashRegistersService.create({
    ctx,
    input: cashRegisterContracts.create.parse({ name: 'Consultorio 2', kind: 'professional', professionalId }),
  });

  /** One past day at a register: opened in the morning, its movements, closed at night. */
  const day = async (
    registerId: string,
    daysAgo: number,
    float: string,
    movements: {
      kind: 'income' | 'expense' | 'withdrawal';
      method: string;
      amount: string;
      reason: string;
      time: string;
    }[],
    counted: (expected: Record<string, string>) => {
      counted: { method: string; amount: string }[];
      explanation?: string;
    },
  ) => {
    const session = await cashSessionsService.open({
      ctx,
      id: registerId,
      input: openCashSessionSchema.parse({ openingFloat: float }),
      at: demoInstant(daysAgo, '08:30'),
    });
    for (const movement of movements) {
      await cashSessionsService.addMovement({
        ctx,
        id: session.id,
        input: createCashMovementSchema.parse(movement),
        at: demoInstant(daysAgo, movement.time),
      });
    }
    const current = await cashSessionsService.get({ ctx, id: session.id });
    const expected = Object.fromEntries(current.methods.map((method) => [method.method, method.expected]));
    const count = counted(expected);
    await cashSessionsService.close({
      ctx,
      id: session.id,
      input: closeCashSessionSchema.parse({ version: current.version, ...count }),
      at: demoInstant(daysAgo, '20:15'),
    });
  };
  const exact = (expected: Record<string, string>) => ({
    counted: Object.entries(expected).map(([method, amount]) => ({ method, amount })),
  });

  await day(
    frontDesk.id,
    3,
    '20000',
    [
      {
        kind: 'income',
        method: 'cash_payment',
        amount: '45000',
        reason: 'Consultas del día sin factura',
        time: '11:00',
      },
      { kind: 'income', method: 'debit_card', amount: '38000', reason: 'Limpieza (posnet)', time: '12:30' },
      { kind: 'expense', method: 'cash_payment', amount: '3500', reason: 'Artículos de limpieza', time: '16:00' },
    ],
    exact,
  );
  await day(
    frontDesk.id,
    2,
    '61500',
    [
      {
        kind: 'income',
        method: 'cash_payment',
        amount: '52000',
        reason: 'Consultas del día sin factura',
        time: '10:40',
      },
      {
        kind: 'withdrawal',
        method: 'cash_payment',
        amount: '80000',
        reason: 'Depósito en el Banco Nación',
        time: '13:00',
      },
      { kind: 'income', method: 'credit_card', amount: '125000', reason: 'Blanqueamiento (posnet)', time: '17:20' },
    ],
    (expected) => ({
      counted: Object.entries(expected).map(([method, amount]) => ({
        method,
        // 500 pesos short in the drawer.
        amount: method === 'cash_payment' ? new Big(amount).minus(500).toFixed(2) : amount,
      })),
      explanation: 'Faltan $ 500: vuelto mal dado a un paciente; se avisó a la administración.',
    }),
  );
  await day(
    professional.id,
    2,
    '10000',
    [{ kind: 'income', method: 'cash_payment', amount: '30000', reason: 'Control de ortodoncia', time: '15:00' }],
    exact,
  );
  await day(
    frontDesk.id,
    1,
    '33000',
    [
      {
        kind: 'income',
        method: 'cash_payment',
        amount: '27000',
        reason: 'Consultas del día sin factura',
        time: '09:45',
      },
      { kind: 'expense', method: 'cash_payment', amount: '6000', reason: 'Mensajería al laboratorio', time: '14:10' },
    ],
    exact,
  );

  // Today: the front desk is open, with two patients' collections taken at it.
  await cashSessionsService.open({
    ctx,
    id: frontDesk.id,
    input: openCashSessionSchema.parse({ openingFloat: '54000' }),
  });
  const people = await tx
    .select({ id: patients.id })
    .from(patients)
    .where(and(eq(patients.accountId, accountId), isNull(patients.deletedAt), eq(patients.active, true)))
    .orderBy(asc(patients.skuPatient))
    .limit(2);
  const today = demoDay(0);
  const takings: [string, string][] = [
    ['18000', 'cash_payment'],
    ['25000', 'debit_card'],
  ];
  for (const [index, person] of people.entries()) {
    const [amount, method] = takings[index] ?? takings[0] ?? ['0', 'cash_payment'];
    await collectionsService.create({
      ctx,
      input: createCollectionSchema.parse({
        patientId: person.id,
        date: today,
        amount,
        currency: 'argentine_peso',
        method,
        registerId: frontDesk.id,
        notes: 'Cobro en recepción',
      }),
    });
  }
}
