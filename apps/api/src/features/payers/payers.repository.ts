import { and, asc, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { TxContext } from '../../context.ts';
import { recordRepository } from '../../db/records.ts';
import {
  customers,
  patientAffiliations,
  payerCoverageRules,
  payerPlans,
  payerSplitLines,
  payers,
  treatments,
} from '../../db/schema/index.ts';

/**
 * Third-party payers (issue 40): the records through `recordRepository`; the plans' rules, the
 * names an affiliation shows and a patient's valid affiliation by hand. Every query names the
 * clinic first, as the indexes do.
 */

export const payersRepository = recordRepository({
  table: payers,
  scope: [],
  order: [asc(payers.name), asc(payers.id)],
});

export const plansRepository = recordRepository({
  table: payerPlans,
  scope: ['payerId'],
  order: [asc(payerPlans.name), asc(payerPlans.id)],
});

export const affiliationsRepository = recordRepository({
  table: patientAffiliations,
  scope: ['patientId'],
  order: [desc(patientAffiliations.validFrom), desc(patientAffiliations.id)],
});

export type PayerRow = typeof payers.$inferSelect;
export type PlanRow = typeof payerPlans.$inferSelect;
export type RuleRow = typeof payerCoverageRules.$inferSelect;
export type AffiliationRow = typeof patientAffiliations.$inferSelect;

/** The payment terms of the payers' customers, by customer id (one query for a page). */
export async function termsOf(ctx: TxContext, customerIds: string[]): Promise<Map<string, number>> {
  if (customerIds.length === 0) return new Map();
  const rows = await ctx.tx
    .select({ id: customers.id, days: customers.paymentTermDays })
    .from(customers)
    .where(and(eq(customers.accountId, ctx.accountId), inArray(customers.id, customerIds)));
  return new Map(rows.map((row) => [row.id, row.days]));
}

/** The live (not replaced) rules of these plans, in order, with their treatment's name. */
export async function rulesOf(ctx: TxContext, planIds: string[]) {
  if (planIds.length === 0) return [];
  return ctx.tx
    .select({ rule: payerCoverageRules, treatmentName: treatments.name })
    .from(payerCoverageRules)
    .leftJoin(
      treatments,
      and(eq(treatments.accountId, payerCoverageRules.accountId), eq(treatments.id, payerCoverageRules.treatmentId)),
    )
    .where(
      and(
        eq(payerCoverageRules.accountId, ctx.accountId),
        inArray(payerCoverageRules.planId, planIds),
        isNull(payerCoverageRules.replacedAt),
      ),
    )
    .orderBy(asc(payerCoverageRules.planId), asc(payerCoverageRules.position));
}

/** Marks a plan's live rules replaced (they stay: split lines name them). */
export async function replaceRules(ctx: TxContext, planId: string): Promise<void> {
  await ctx.tx
    .update(payerCoverageRules)
    .set({ replacedAt: new Date() })
    .where(
      and(
        eq(payerCoverageRules.accountId, ctx.accountId),
        eq(payerCoverageRules.planId, planId),
        isNull(payerCoverageRules.replacedAt),
      ),
    );
}

/** The names an affiliation shows: its payer's and its plan's, by id. */
export async function namesOf(ctx: TxContext, payerIds: string[], planIds: string[]) {
  const [payerRows, planRows] = await Promise.all([
    payerIds.length === 0
      ? []
      : ctx.tx
          .select({ id: payers.id, name: payers.name, kind: payers.kind })
          .from(payers)
          .where(and(eq(payers.accountId, ctx.accountId), inArray(payers.id, payerIds))),
    planIds.length === 0
      ? []
      : ctx.tx
          .select({ id: payerPlans.id, name: payerPlans.name })
          .from(payerPlans)
          .where(and(eq(payerPlans.accountId, ctx.accountId), inArray(payerPlans.id, planIds))),
  ]);
  return {
    payers: new Map(payerRows.map((row) => [row.id, row])),
    plans: new Map(planRows.map((row) => [row.id, row.name])),
  };
}

/** A live plan of a payer (404 material for the caller). */
export async function findPlanOfPayer(ctx: TxContext, payerId: string, planId: string) {
  const [row] = await ctx.tx
    .select()
    .from(payerPlans)
    .where(
      and(
        eq(payerPlans.accountId, ctx.accountId),
        eq(payerPlans.id, planId),
        eq(payerPlans.payerId, payerId),
        isNull(payerPlans.deletedAt),
      ),
    );
  return row;
}

/** The patient's primary affiliation valid on `day`, with its payer and plan, or undefined. */
export async function validAffiliation(ctx: TxContext, patientId: string, day: string) {
  const [row] = await ctx.tx
    .select({ affiliation: patientAffiliations, payer: payers, plan: payerPlans })
    .from(patientAffiliations)
    .innerJoin(
      payers,
      and(eq(payers.accountId, patientAffiliations.accountId), eq(payers.id, patientAffiliations.payerId)),
    )
    .innerJoin(
      payerPlans,
      and(eq(payerPlans.accountId, patientAffiliations.accountId), eq(payerPlans.id, patientAffiliations.planId)),
    )
    .where(
      and(
        eq(patientAffiliations.accountId, ctx.accountId),
        eq(patientAffiliations.patientId, patientId),
        eq(patientAffiliations.primary, true),
        isNull(patientAffiliations.deletedAt),
        sql`${patientAffiliations.validFrom} <= ${day}::date`,
        sql`(${patientAffiliations.validTo} is null or ${patientAffiliations.validTo} >= ${day}::date)`,
        eq(payers.active, true),
        isNull(payers.deletedAt),
        eq(payerPlans.active, true),
        isNull(payerPlans.deletedAt),
      ),
    );
  return row;
}

/** Clears the patient's other primary affiliation (a new primary takes its place), audited by the caller. */
export async function otherPrimary(ctx: TxContext, patientId: string, exceptId: string | null) {
  const rows = await ctx.tx
    .select({ id: patientAffiliations.id, version: patientAffiliations.version })
    .from(patientAffiliations)
    .where(
      and(
        eq(patientAffiliations.accountId, ctx.accountId),
        eq(patientAffiliations.patientId, patientId),
        eq(patientAffiliations.primary, true),
        isNull(patientAffiliations.deletedAt),
        exceptId ? sql`${patientAffiliations.id} <> ${exceptId}::uuid` : undefined,
      ),
    )
    .for('no key update');
  return rows;
}

/**
 * What keeps a plan from being deleted: its live affiliations still valid on `day` (an ended one
 * does not count) and its covered lines not yet in a presentation.
 */
export async function planUsage(ctx: TxContext, planId: string, day: string) {
  const [affiliations, lines] = await Promise.all([
    ctx.tx
      .select({ count: sql<number>`count(*)::int` })
      .from(patientAffiliations)
      .where(
        and(
          eq(patientAffiliations.accountId, ctx.accountId),
          eq(patientAffiliations.planId, planId),
          isNull(patientAffiliations.deletedAt),
          sql`(${patientAffiliations.validTo} is null or ${patientAffiliations.validTo} >= ${day}::date)`,
        ),
      ),
    ctx.tx
      .select({ count: sql<number>`count(*)::int` })
      .from(payerSplitLines)
      .where(
        and(
          eq(payerSplitLines.accountId, ctx.accountId),
          eq(payerSplitLines.planId, planId),
          // Covered lines the payer was invoiced for and that no presentation has taken yet.
          isNotNull(payerSplitLines.payerDocumentId),
          sql`not exists (select 1 from payer_presentation_lines pl
                where pl.account_id = ${payerSplitLines.accountId} and pl.date = ${payerSplitLines.date}
                  and pl.split_line_id = ${payerSplitLines.id})`,
        ),
      ),
  ]);
  return { affiliations: affiliations[0]?.count ?? 0, pendingLines: lines[0]?.count ?? 0 };
}
