import { addDays, clinicToday } from '@odontia/shared/clinic-time';
import { createPaymentSchema } from '@odontia/shared/schemas/payments';
import { treatmentContracts } from '@odontia/shared/schemas/schedules';
import { confirmSettlementSchema, settlementRuleContracts } from '@odontia/shared/schemas/settlements';
import Big from 'big.js';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { treatments } from '../db/schema/index.ts';
import type { TenantTx } from '../db/tenancy.ts';
import { paymentsService } from '../features/payments/payments.service.ts';
import { treatmentsService } from '../features/schedules/treatments.service.ts';
import { settlementRulesService, settlementsService } from '../features/settlements/settlements.service.ts';
import { demoCommercialContext } from './demo-commercial.ts';

/**
 * The demo clinic's professional settlements (issue 40), through the services: the laboratory's
 * cost of a porcelain crown and a post on the price list; Martín Sosa on a fixed amount per
 * treatment (the crown and the post with their lab cost deducted, a root canal) and 30 % of the
 * rest invoiced; Laura Gómez on 40 % of what is collected. Last month is settled for both, and
 * Martín Sosa's settlement is paid.
 */

const labCosts: Record<string, string> = { COR: '140000', PER: '35000' };

export async function seedDemoSettlements(
  tx: TenantTx,
  accountId: string,
  { administratorId, professionalIds }: { administratorId: string; professionalIds: readonly string[] },
) {
  const ctx = demoCommercialContext(tx, accountId, administratorId);
  const today = clinicToday(ctx.timeZone);
  const sosa = professionalIds[1];
  const gomez = professionalIds[0];
  if (!sosa || !gomez) return;

  const priced = await tx
    .select({ id: treatments.id, code: treatments.code })
    .from(treatments)
    .where(
      and(
        eq(treatments.accountId, accountId),
        isNull(treatments.deletedAt),
        inArray(treatments.code, ['COR', 'PER', 'ENM', 'END']),
      ),
    );
  const byCode = new Map(priced.map((row) => [row.code, row.id]));
  for (const [code, labCost] of Object.entries(labCosts)) {
    const id = byCode.get(code);
    if (!id) continue;
    const current = await treatmentsService.get({ ctx, id });
    await treatmentsService.update({
      ctx,
      id,
      input: treatmentContracts.update.parse({ ...current, labCost }),
    });
  }

  // The rules hold from the first month of the demo's sales (four months back).
  const validFrom = `${addDays(today, -130).slice(0, 7)}-01`;
  const rule = (values: Record<string, unknown>) =>
    settlementRulesService.create({
      ctx,
      input: settlementRuleContracts.create.parse({ basis: 'invoiced', validFrom, ...values }),
    });
  for (const [code, value, deductLabCost] of [
    ['COR', '200000', true],
    ['PER', '60000', true],
    ['ENM', '110000', false],
    ['END', '80000', false],
  ] as const) {
    const treatmentId = byCode.get(code);
    if (treatmentId)
      await rule({ professionalId: sosa, scope: 'treatment', treatmentId, method: 'fixed', value, deductLabCost });
  }
  await rule({ professionalId: sosa, scope: 'default', method: 'percentage', value: '30' });
  await rule({ professionalId: gomez, scope: 'default', method: 'percentage', value: '40', basis: 'collected' });

  // Last month, settled for both (a professional with nothing that month is left unsettled).
  const firstOfMonth = `${today.slice(0, 7)}-01`;
  const to = addDays(firstOfMonth, -1);
  const from = `${to.slice(0, 7)}-01`;
  for (const professionalId of [sosa, gomez]) {
    const preview = await settlementsService.preview({ ctx, query: { professionalId, from, to } });
    if (preview.lineCount === 0 || new Big(preview.total).lte(0)) continue;
    const { data: settlement } = await settlementsService.confirm({
      ctx,
      input: confirmSettlementSchema.parse({ professionalId, from, to, expectedTotal: preview.total }),
    });
    if (professionalId !== sosa || !settlement.documentId) continue;
    await paymentsService.create({
      ctx,
      input: createPaymentSchema.parse({
        providerId: settlement.providerId,
        date: addDays(to, 5) > today ? today : addDays(to, 5),
        amount: settlement.total,
        currency: settlement.currency,
        method: 'bank_transfer',
        transactionNumber: `LIQ-${settlement.number}`,
        notes: `Pago de la liquidación ${settlement.number}.`,
        allocations: [{ documentId: settlement.documentId, amount: settlement.total }],
      }),
    });
  }
}
