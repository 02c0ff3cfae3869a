import { clinicToday } from '@odontia/shared/clinic-time';
import type { Page } from '@odontia/shared/schemas/common';
import { customerRecordContracts } from '@odontia/shared/schemas/customer-records';
import type {
  Affiliation,
  affiliationContracts,
  CoverageRule,
  Payer,
  PayerKind,
  PayerPlan,
  payerContracts,
  payerPlanContracts,
} from '@odontia/shared/schemas/payers';
import type { PageQuery } from '@odontia/shared/schemas/records';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { presentStamps } from '../../db/records.ts';
import { payerCoverageRules } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { RequestContext } from '../../plugins/routes.ts';
import { audit } from '../audit/audit.repository.ts';
import { auditedRecords } from '../audit/audited-records.ts';
import { customersService } from '../customers/customers.service.ts';
import * as repository from './payers.repository.ts';

/**
 * Payers, their plans (with their coverage rules) and the patients' affiliations (issue 40).
 * Versioned, audited, soft-deleted records. A payer is made with its customer (kind insurer), whose
 * name, tax id, payment term and active flag follow the payer's, so the payer's invoices, ledger,
 * current account and aging are the customers' ones. A plan's rules are written with the plan: an
 * edit replaces them (the old rows stay, marked replaced, for the split lines that name them).
 */

type Ctx = RequestContext;
type PayerInput = z.output<typeof payerContracts.create>;
type PayerUpdate = z.output<typeof payerContracts.update>;
type PlanInput = z.output<typeof payerPlanContracts.create>;
type PlanUpdate = z.output<typeof payerPlanContracts.update>;
type AffiliationInput = z.output<typeof affiliationContracts.create>;
type AffiliationUpdate = z.output<typeof affiliationContracts.update>;

// ── Payers ─────────────────────────────────────────────────────────────────────────────────────
const payerColumns = (value: Omit<PayerInput, 'paymentTermDays'> | repository.PayerRow) => ({
  kind: value.kind as PayerKind,
  name: value.name,
  code: value.code ?? null,
  taxId: value.taxId ?? null,
  notes: value.notes ?? null,
  active: value.active,
});

const payerRecords = auditedRecords({
  repository: repository.payersRepository,
  entity: 'payer',
  notFound: 'payer_not_found',
  columnsOf: payerColumns,
  present: (row) => ({
    id: row.id,
    kind: row.kind as PayerKind,
    name: row.name,
    code: row.code,
    taxId: row.taxId,
    notes: row.notes,
    active: row.active,
    customerId: row.customerId,
    ...presentStamps(row),
  }),
});

async function withTerms(ctx: Ctx, rows: Omit<Payer, 'paymentTermDays'>[]): Promise<Payer[]> {
  const terms = await repository.termsOf(
    ctx,
    rows.map((row) => row.customerId),
  );
  return rows.map((row) => ({ ...row, paymentTermDays: terms.get(row.customerId) ?? 0 }));
}

/**
 * The customer's columns that follow the payer: checked as a customer's (a tax id the customers'
 * contract refuses is the payer's field error, 400, never a 500).
 */
function customerInput(input: PayerInput) {
  const parsed = customerRecordContracts.create.safeParse({
    kind: 'insurer',
    name: input.name,
    taxId: input.taxId,
    paymentTermDays: input.paymentTermDays,
    notes: null,
    active: input.active,
    language: 'es',
  });
  if (!parsed.success) {
    throw new AppError('validation_error', {
      fields: parsed.error.issues.map((issue) => ({ path: String(issue.path[0] ?? 'name'), code: issue.message })),
    });
  }
  return parsed.data;
}

export const payersService = {
  async list({ ctx, query }: { ctx: Ctx; query: PageQuery }): Promise<Page<Payer>> {
    const page = await payerRecords.page(ctx, {}, query);
    return { ...page, data: await withTerms(ctx, page.data) };
  },
  async get({ ctx, id }: { ctx: Ctx; id: string }): Promise<Payer> {
    const [payer] = await withTerms(ctx, [await payerRecords.get(ctx, {}, id)]);
    return payer as Payer;
  },
  async create({ ctx, input }: { ctx: Ctx; input: PayerInput }): Promise<Payer> {
    const customer = await customersService.create({ ctx, input: customerInput(input) });
    const created = await payerRecords.create(ctx, {}, payerColumns(input), { customerId: customer.id });
    return { ...created, paymentTermDays: customer.paymentTermDays };
  },
  async update({ ctx, id, input }: { ctx: Ctx; id: string; input: PayerUpdate }): Promise<Payer> {
    const updated = await payerRecords.update(ctx, {}, id, { version: input.version, next: payerColumns(input) });
    const customer = await customersService.get({ ctx, id: updated.customerId });
    await customersService.update({
      ctx,
      id: customer.id,
      input: {
        ...customerRecordContracts.update.parse({ ...customer, ...customerInput(input) }),
        version: customer.version,
      },
    });
    return payersService.get({ ctx, id });
  },
  remove: ({ ctx, id }: { ctx: Ctx; id: string }) => payerRecords.remove(ctx, {}, id),
  changes: ({ ctx, id, query }: { ctx: Ctx; id: string; query: PageQuery }) => payerRecords.changes(ctx, {}, id, query),
  /** A live payer (404 otherwise). */
  find: (ctx: Ctx, id: string) => payerRecords.get(ctx, {}, id),
};

// ── Plans ──────────────────────────────────────────────────────────────────────────────────────
type PlanScope = { payerId: string };
const planColumns = (value: Omit<PlanInput, 'rules'> | repository.PlanRow) => ({
  name: value.name,
  code: value.code ?? null,
  active: value.active,
});

const planRecords = auditedRecords({
  repository: repository.plansRepository,
  entity: 'payer_plan',
  notFound: 'payer_plan_not_found',
  columnsOf: planColumns,
  present: (row) => ({
    id: row.id,
    payerId: row.payerId,
    name: row.name,
    code: row.code,
    active: row.active,
    ...presentStamps(row),
  }),
});

function presentRule({
  rule,
  treatmentName,
}: {
  rule: repository.RuleRow;
  treatmentName: string | null;
}): CoverageRule {
  return {
    id: rule.id,
    treatmentId: rule.treatmentId,
    treatmentName,
    treatmentGroup: rule.treatmentGroup,
    mode: rule.mode,
    value: rule.value,
    limitKind: rule.limitKind,
    limitValue: rule.limitValue,
    authorizationRequired: rule.authorizationRequired,
  };
}

async function withRules(ctx: Ctx, plans: Omit<PayerPlan, 'rules'>[]): Promise<PayerPlan[]> {
  const rules = await repository.rulesOf(
    ctx,
    plans.map((plan) => plan.id),
  );
  return plans.map((plan) => ({
    ...plan,
    rules: rules.filter((row) => row.rule.planId === plan.id).map(presentRule),
  }));
}

/** The rules as audited: one line each. */
const rulesText = (rules: PlanInput['rules'] | CoverageRule[]) =>
  rules.map(
    (rule) =>
      `${rule.treatmentId ?? rule.treatmentGroup ?? '*'} ${rule.mode} ${rule.value}` +
      `${rule.limitKind !== 'none' ? ` ${rule.limitKind}≤${rule.limitValue}` : ''}${rule.authorizationRequired ? ' auth' : ''}`,
  );

async function writeRules(ctx: Ctx, planId: string, rules: PlanInput['rules']): Promise<void> {
  const treatmentIds = [...new Set(rules.flatMap((rule) => (rule.treatmentId ? [rule.treatmentId] : [])))];
  if (treatmentIds.length > 0) {
    const { rows } = await ctx.tx.execute<{ id: string }>(sqlTreatments(ctx.accountId, treatmentIds));
    const found = new Set(rows.map((row) => row.id));
    const wrong = rules.findIndex((rule) => rule.treatmentId && !found.has(rule.treatmentId));
    if (wrong >= 0) {
      throw new AppError('validation_error', {
        fields: [{ path: `rules.${wrong}.treatmentId`, code: 'invalid_value' }],
      });
    }
  }
  await repository.replaceRules(ctx, planId);
  if (rules.length === 0) return;
  await ctx.tx.insert(payerCoverageRules).values(
    rules.map((rule, index) => ({
      accountId: ctx.accountId,
      id: newId(),
      planId,
      position: index + 1,
      treatmentId: rule.treatmentId,
      treatmentGroup: rule.treatmentGroup,
      mode: rule.mode,
      value: rule.value,
      limitKind: rule.limitKind,
      limitValue: rule.limitKind === 'none' ? null : rule.limitValue,
      authorizationRequired: rule.authorizationRequired,
    })),
  );
}

const sqlTreatments = (accountId: string, ids: string[]) => sql`
  select id from treatments where account_id = ${accountId}::uuid and deleted_at is null
    and id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`;

export const payerPlansService = {
  async list({ ctx, payerId, query }: { ctx: Ctx; payerId: string; query: PageQuery }): Promise<Page<PayerPlan>> {
    await payersService.find(ctx, payerId);
    const page = await planRecords.page(ctx, { payerId }, query);
    return { ...page, data: await withRules(ctx, page.data) };
  },
  async get({ ctx, payerId, id }: { ctx: Ctx; id: string } & PlanScope): Promise<PayerPlan> {
    await payersService.find(ctx, payerId);
    const [plan] = await withRules(ctx, [await planRecords.get(ctx, { payerId }, id)]);
    return plan as PayerPlan;
  },
  async create({ ctx, payerId, input }: { ctx: Ctx; input: PlanInput } & PlanScope): Promise<PayerPlan> {
    await payersService.find(ctx, payerId);
    const id = newId();
    const created = await planRecords.create(ctx, { payerId }, planColumns(input), { id });
    await writeRules(ctx, id, input.rules);
    await audit(ctx, {
      action: 'payer_plan_rules_set',
      entity: 'payer_plan',
      entityId: id,
      after: { rules: rulesText(input.rules) },
    });
    return (await withRules(ctx, [created]))[0] as PayerPlan;
  },
  async update({ ctx, payerId, id, input }: { ctx: Ctx; id: string; input: PlanUpdate } & PlanScope) {
    await payersService.find(ctx, payerId);
    const before = await payerPlansService.get({ ctx, payerId, id });
    const updated = await planRecords.update(ctx, { payerId }, id, {
      version: input.version,
      next: planColumns(input),
    });
    const oldRules = rulesText(before.rules);
    const newRules = rulesText(input.rules);
    if (JSON.stringify(oldRules) !== JSON.stringify(newRules)) {
      await writeRules(ctx, id, input.rules);
      await audit(ctx, {
        action: 'payer_plan_rules_set',
        entity: 'payer_plan',
        entityId: id,
        before: { rules: oldRules },
        after: { rules: newRules },
      });
    }
    return (await withRules(ctx, [updated]))[0] as PayerPlan;
  },
  /** Soft delete; 409 payer_plan_in_use while patients are affiliated to it or its covered lines wait to be presented. */
  async remove({ ctx, payerId, id }: { ctx: Ctx; id: string } & PlanScope) {
    await payersService.find(ctx, payerId);
    return planRecords.remove(ctx, { payerId }, id, async () => {
      const usage = await repository.planUsage(ctx, id, clinicToday(ctx.timeZone));
      if (usage.affiliations > 0 || usage.pendingLines > 0) throw new AppError('payer_plan_in_use', usage);
    });
  },
  async changes({ ctx, payerId, id, query }: { ctx: Ctx; id: string; query: PageQuery } & PlanScope) {
    await payersService.find(ctx, payerId);
    return planRecords.changes(ctx, { payerId }, id, query);
  },
};

// ── Affiliations ───────────────────────────────────────────────────────────────────────────────
type PatientScope = { patientId: string };
const affiliationColumns = (value: AffiliationInput | repository.AffiliationRow) => ({
  payerId: value.payerId,
  planId: value.planId,
  memberNumber: value.memberNumber,
  validFrom: value.validFrom,
  validTo: value.validTo ?? null,
  primary: value.primary,
  notes: value.notes ?? null,
});

const affiliationRecords = auditedRecords({
  repository: repository.affiliationsRepository,
  entity: 'affiliation',
  notFound: 'affiliation_not_found',
  columnsOf: affiliationColumns,
  present: (row) => ({ ...affiliationColumns(row), id: row.id, patientId: row.patientId, ...presentStamps(row) }),
});

type BareAffiliation = Omit<Affiliation, 'payerName' | 'payerKind' | 'planName'>;
async function withNames(ctx: Ctx, rows: BareAffiliation[]): Promise<Affiliation[]> {
  const names = await repository.namesOf(
    ctx,
    [...new Set(rows.map((row) => row.payerId))],
    [...new Set(rows.map((row) => row.planId))],
  );
  return rows.map((row) => ({
    ...row,
    payerName: names.payers.get(row.payerId)?.name ?? '',
    payerKind: (names.payers.get(row.payerId)?.kind ?? 'obra_social') as PayerKind,
    planName: names.plans.get(row.planId) ?? '',
  }));
}

async function requirePatient(ctx: Ctx, patientId: string, lock = true): Promise<void> {
  const { rows } = await ctx.tx.execute<{ id: string }>(sql`
    select id from patients where account_id = ${ctx.accountId}::uuid and id = ${patientId}::uuid and deleted_at is null
    ${lock ? sql`for no key update` : sql``}`);
  if (rows.length === 0) throw new AppError('patient_not_found');
}

/** The payer and plan exist, are live and the plan is the payer's. */
async function checkPlan(ctx: Ctx, input: AffiliationInput): Promise<void> {
  await payersService.find(ctx, input.payerId);
  const plan = await repository.findPlanOfPayer(ctx, input.payerId, input.planId);
  if (!plan) throw new AppError('payer_plan_mismatch');
}

/** A new primary affiliation takes the place of the patient's other one (that edit audited too). */
async function demoteOtherPrimary(ctx: Ctx, patientId: string, exceptId: string | null): Promise<void> {
  for (const other of await repository.otherPrimary(ctx, patientId, exceptId)) {
    await affiliationRecords.update(ctx, { patientId }, other.id, {
      version: other.version,
      next: (current) => ({ ...affiliationColumns(current), primary: false }),
    });
  }
}

export const affiliationsService = {
  async list({ ctx, patientId, query }: { ctx: Ctx; query: PageQuery } & PatientScope): Promise<Page<Affiliation>> {
    await requirePatient(ctx, patientId, false);
    const page = await affiliationRecords.page(ctx, { patientId }, query);
    return { ...page, data: await withNames(ctx, page.data) };
  },
  async get({ ctx, patientId, id }: { ctx: Ctx; id: string } & PatientScope): Promise<Affiliation> {
    await requirePatient(ctx, patientId, false);
    return (await withNames(ctx, [await affiliationRecords.get(ctx, { patientId }, id)]))[0] as Affiliation;
  },
  async create({ ctx, patientId, input }: { ctx: Ctx; input: AffiliationInput } & PatientScope): Promise<Affiliation> {
    await requirePatient(ctx, patientId);
    await checkPlan(ctx, input);
    if (input.primary) await demoteOtherPrimary(ctx, patientId, null);
    const created = await affiliationRecords.create(ctx, { patientId }, affiliationColumns(input));
    return (await withNames(ctx, [created]))[0] as Affiliation;
  },
  async update({
    ctx,
    patientId,
    id,
    input,
  }: { ctx: Ctx; id: string; input: AffiliationUpdate } & PatientScope): Promise<Affiliation> {
    await requirePatient(ctx, patientId);
    await affiliationRecords.lock(ctx, { patientId }, id);
    await checkPlan(ctx, input);
    if (input.primary) await demoteOtherPrimary(ctx, patientId, id);
    const updated = await affiliationRecords.update(ctx, { patientId }, id, {
      version: input.version,
      next: affiliationColumns(input),
    });
    return (await withNames(ctx, [updated]))[0] as Affiliation;
  },
  async remove({ ctx, patientId, id }: { ctx: Ctx; id: string } & PatientScope) {
    await requirePatient(ctx, patientId);
    return affiliationRecords.remove(ctx, { patientId }, id);
  },
  async changes({ ctx, patientId, id, query }: { ctx: Ctx; id: string; query: PageQuery } & PatientScope) {
    await requirePatient(ctx, patientId, false);
    return affiliationRecords.changes(ctx, { patientId }, id, query);
  },
};
