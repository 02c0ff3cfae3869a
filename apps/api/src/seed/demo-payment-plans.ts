import { addDays, clinicToday } from '@odontia/shared/clinic-time';
import { pointOfSaleContracts } from '@odontia/shared/schemas/clinic-fiscal';
import { createCollectionSchema } from '@odontia/shared/schemas/collections';
import { createPaymentPlanSchema } from '@odontia/shared/schemas/payment-plans';
import { createSaleSchema } from '@odontia/shared/schemas/sales';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { patients } from '../db/schema/index.ts';
import type { TenantTx } from '../db/tenancy.ts';
import { collectionsService } from '../features/collections/collections.service.ts';
import { pointsOfSaleService } from '../features/fiscal/fiscal.service.ts';
import { paymentPlansService } from '../features/payment-plans/payment-plans.service.ts';
import { salesService } from '../features/sales/sales.service.ts';
import { demoCommercialContext } from './demo-commercial.ts';

/**
 * The demo clinic's payment plan (issue 40), written through the services: a patient's implant
 * invoiced 100 days ago (at a point of sale of its own, "Financiación", so its date does not come
 * before the front desk's later invoices) and paid in 6 monthly instalments from 70 days ago: the
 * first two collected on their due dates, the third overdue since 10 days ago, three to come.
 */
export async function seedDemoPaymentPlans(
  tx: TenantTx,
  accountId: string,
  { administratorId, professionalIds }: { administratorId: string; professionalIds: readonly string[] },
) {
  // The implant is the clinic's first professional's work (the dashboard credits it to them).
  const professionalId = professionalIds[0] ?? administratorId;
  const ctx = demoCommercialContext(tx, accountId, administratorId);
  const today = clinicToday(ctx.timeZone);
  await pointsOfSaleService.create({
    ctx,
    input: pointOfSaleContracts.create.parse({ code: '2', name: 'Financiación' }),
  });
  const [patient] = await tx
    .select({ id: patients.id })
    .from(patients)
    .where(and(eq(patients.accountId, accountId), isNull(patients.deletedAt), eq(patients.active, true)))
    .orderBy(asc(patients.skuPatient))
    .offset(3)
    .limit(1);
  if (!patient) return;
  const invoice = await salesService.create({
    ctx,
    input: createSaleSchema.parse({
      documentType: 'invoice',
      patientId: patient.id,
      pointOfService: '0002',
      date: addDays(today, -100),
      dueDate: addDays(today, -70),
      currency: 'argentine_peso',
      conditionSale: 'current_account',
      notes: 'Implante con corona, financiado en 6 cuotas.',
      lines: [
        {
          description: 'Implante dental de titanio — pieza 36',
          quantity: '1',
          unitPrice: '540000',
          vatRate: '0',
          professionalId,
        },
        {
          description: 'Corona de porcelana sobre implante — pieza 36',
          quantity: '1',
          unitPrice: '180000',
          vatRate: '0',
          professionalId,
        },
      ],
      issue: true,
    }),
  });
  const plan = await paymentPlansService.create({
    ctx,
    input: createPaymentPlanSchema.parse({
      documentId: invoice.data.id,
      instalmentCount: 6,
      firstDueOn: addDays(today, -70),
      frequency: 'monthly',
      notes: 'Acordado con la paciente en la consulta.',
    }),
  });
  for (const instalment of plan.instalments.slice(0, 2)) {
    await collectionsService.create({
      ctx,
      input: createCollectionSchema.parse({
        patientId: patient.id,
        date: instalment.dueOn,
        amount: instalment.amount,
        currency: 'argentine_peso',
        method: 'debit_card',
        status: 'paid',
        allocations: [{ documentId: invoice.data.id, amount: instalment.amount }],
      }),
    });
  }
}
