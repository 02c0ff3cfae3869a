import type { Page } from '@odontia/shared/schemas/common';
import { providerContracts } from '@odontia/shared/schemas/providers';
import type {
  confirmSettlementSchema,
  Settlement,
  SettlementLine,
  SettlementPreview,
  SettlementRule,
  settlementListQuerySchema,
  settlementRuleContracts,
  settlementRulesQuerySchema,
} from '@odontia/shared/schemas/settlements';
import Big from 'big.js';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { RequestContext } from '../../context.ts';
import { isDeadlock, isExclusionViolation, isUniqueViolation } from '../../db/errors.ts';
import { presentStamps } from '../../db/records.ts';
import {
  commercialDocuments,
  documentLines,
  professionalProviders,
  providers,
  settlementRules,
  treatments,
  users,
} from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { audit } from '../audit/audit.repository.ts';
import { auditedRecords } from '../audit/audited-records.ts';
import { clinicCurrency } from '../commercial/clinic-currency.ts';
import { takeSequenceNumber } from '../commercial/document-sequences.ts';
import { documentEntry, postLedgerEntries } from '../commercial/ledger.ts';
import { clinicSnapshot, providerSnapshot } from '../fiscal/party-snapshots.ts';
import { providersService } from '../providers/providers.service.ts';
import { settlementRulesRepository } from './settlements.repository.ts';
import { linesOrder, settlementLinesQuery, sqlUuidV7 } from './settlements.sql.ts';

/**
 * Professional settlements (issue 40). Rules are records (audited, versioned, soft-deleted); a
 * period is previewed (nothing written) and confirmed: one statement computes and stores every line
 * (settlements.sql.ts), the settlement is numbered LQ-00000001 per clinic and never changes, and its
 * total becomes a registered purchase invoice of the professional's provider (point of service
 * 'LQ', the settlement's number), so it sits in the provider's current account and is paid with
 * the provider payments as any other invoice.
 */

type RuleInput = z.output<typeof settlementRuleContracts.create>;
type RuleColumns = Pick<
  typeof settlementRules.$inferSelect,
  | 'professionalId'
  | 'scope'
  | 'treatmentId'
  | 'groupName'
  | 'method'
  | 'value'
  | 'basis'
  | 'deductLabCost'
  | 'validFrom'
  | 'notes'
>;

const ruleColumnsOf = (input: RuleColumns | RuleInput): RuleColumns => ({
  professionalId: input.professionalId,
  scope: input.scope,
  treatmentId: input.scope === 'treatment' ? (input.treatmentId ?? null) : null,
  groupName: input.scope === 'group' ? (input.groupName ?? null) : null,
  method: input.method,
  value: new Big(input.value).toFixed(2),
  basis: input.basis,
  deductLabCost: input.deductLabCost,
  validFrom: input.validFrom,
  notes: input.notes ?? null,
});

type RuleWithoutTreatment = Omit<SettlementRule, 'treatmentName'>;

const rules = auditedRecords({
  repository: settlementRulesRepository,
  entity: 'settlement_rule',
  notFound: 'settlement_rule_not_found',
  columnsOf: ruleColumnsOf,
  present: (row): RuleWithoutTreatment => ({
    id: row.id,
    professionalId: row.professionalId,
    professionalName: row.professionalName,
    scope: row.scope,
    treatmentId: row.treatmentId,
    groupName: row.groupName,
    method: row.method,
    value: row.value,
    basis: row.basis,
    deductLabCost: row.deductLabCost,
    validFrom: row.validFrom,
    notes: row.notes,
    ...presentStamps(row),
  }),
});

/** The treatments' names of the rules, in one query. */
async function withTreatments(ctx: RequestContext, list: RuleWithoutTreatment[]): Promise<SettlementRule[]> {
  const ids = [...new Set(list.flatMap((rule) => (rule.treatmentId ? [rule.treatmentId] : [])))];
  const names = new Map<string, string>();
  if (ids.length > 0) {
    const rows = await ctx.tx
      .select({ id: treatments.id, name: treatments.name })
      .from(treatments)
      .where(and(eq(treatments.accountId, ctx.accountId), inArray(treatments.id, ids)));
    for (const row of rows) names.set(row.id, row.name);
  }
  return list.map((rule) => ({
    ...rule,
    treatmentName: rule.treatmentId ? (names.get(rule.treatmentId) ?? null) : null,
  }));
}

/**
 * The professional: a staff user of the clinic (404 otherwise); active for a new rule, while a
 * professional who has left is still settled for what they did.
 */
async function professionalOf(ctx: RequestContext, professionalId: string, { activeOnly = false } = {}) {
  const [row] = await ctx.tx
    .select({ id: users.id, name: users.completeName, level: users.level, active: users.active })
    .from(users)
    .where(and(eq(users.accountId, ctx.accountId), eq(users.id, professionalId)));
  if (!row || row.level === 'customer' || (activeOnly && !row.active)) {
    throw new AppError('settlement_professional_not_found');
  }
  return row;
}

async function checkRule(ctx: RequestContext, input: RuleInput) {
  await professionalOf(ctx, input.professionalId, { activeOnly: true });
  if (input.scope === 'treatment' && input.treatmentId) {
    const [found] = await ctx.tx
      .select({ id: treatments.id })
      .from(treatments)
      .where(
        and(
          eq(treatments.accountId, ctx.accountId),
          eq(treatments.id, input.treatmentId),
          isNull(treatments.deletedAt),
        ),
      );
    if (!found) throw new AppError('treatment_not_found');
  }
}

/** A second rule of the same target and date: 409 naming the one that holds it. */
async function ruleGuard<T>(ctx: RequestContext, write: () => Promise<T>): Promise<T> {
  try {
    return await ctx.tx.transaction(() => write());
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw new AppError('settlement_rule_exists');
  }
}

type One = { ctx: RequestContext; id: string };

export const settlementRulesService = {
  async list({ ctx, query }: { ctx: RequestContext; query: z.output<typeof settlementRulesQuerySchema> }) {
    const filter = query.professionalId ? eq(settlementRules.professionalId, query.professionalId) : undefined;
    const page = await rules.page(ctx, {}, query, filter);
    return { ...page, data: await withTreatments(ctx, page.data) };
  },
  async get({ ctx, id }: One): Promise<SettlementRule> {
    const [rule] = await withTreatments(ctx, [await rules.get(ctx, {}, id)]);
    return rule as SettlementRule;
  },
  async create({ ctx, input }: { ctx: RequestContext; input: RuleInput }): Promise<SettlementRule> {
    await checkRule(ctx, input);
    const created = await ruleGuard(ctx, () => rules.create(ctx, {}, ruleColumnsOf(input)));
    const [rule] = await withTreatments(ctx, [created]);
    return rule as SettlementRule;
  },
  async update({ ctx, id, input }: One & { input: RuleInput & { version: number } }): Promise<SettlementRule> {
    await rules.get(ctx, {}, id);
    await checkRule(ctx, input);
    const updated = await ruleGuard(ctx, () =>
      rules.update(ctx, {}, id, { version: input.version, next: ruleColumnsOf(input) }),
    );
    const [rule] = await withTreatments(ctx, [updated]);
    return rule as SettlementRule;
  },
  remove: ({ ctx, id }: One) => rules.remove(ctx, {}, id),
  changes: ({ ctx, id, query }: One & { query: { page: number; pageSize: number } }) =>
    rules.changes(ctx, {}, id, query),
};

// ---------------------------------------------------------------------------------------------
// Settlements

type LineRow = {
  id?: string | null;
  kind: 'regular' | 'adjustment';
  source_kind: SettlementLine['sourceKind'];
  source_id: string;
  document_line_id: string;
  document_id: string;
  document_type: string;
  document_label: string;
  payment_id: string | null;
  attendance_id: string | null;
  patient_id: string | null;
  patient_name: string | null;
  treatment_id: string | null;
  description: string;
  group_name: string | null;
  source_date: string;
  quantity: string;
  base: string;
  lab_cost: string;
  rule_id: string;
  rule_scope: SettlementLine['ruleScope'];
  rule_method: SettlementLine['ruleMethod'];
  rule_value: string;
  rule_basis: SettlementLine['ruleBasis'];
  amount: string;
};

const money = (value: string | number | null | undefined) => new Big(value ?? 0).toFixed(2);
const day = (value: unknown) => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10));

function presentLine(row: LineRow): SettlementLine {
  return {
    id: row.id ?? null,
    kind: row.kind,
    sourceKind: row.source_kind,
    sourceId: row.source_id,
    documentLineId: row.document_line_id,
    documentId: row.document_id,
    documentLabel: `${row.document_type}:${row.document_label}`,
    paymentId: row.payment_id,
    attendanceId: row.attendance_id,
    patientId: row.patient_id,
    patientName: row.patient_name,
    treatmentId: row.treatment_id,
    description: row.description,
    groupName: row.group_name,
    sourceDate: day(row.source_date),
    quantity: new Big(row.quantity).toString(),
    base: money(row.base),
    labCost: money(row.lab_cost),
    ruleId: row.rule_id,
    ruleScope: row.rule_scope,
    ruleMethod: row.rule_method,
    ruleValue: money(row.rule_value),
    ruleBasis: row.rule_basis,
    amount: money(row.amount),
  };
}

type Totals = {
  line_count: number | string;
  base_total: string | null;
  lab_cost_total: string | null;
  adjustment_total: string | null;
  total: string | null;
};

const totalsOf = (row: Totals | undefined) => ({
  lineCount: Number(row?.line_count ?? 0),
  baseTotal: money(row?.base_total),
  labCostTotal: money(row?.lab_cost_total),
  adjustmentTotal: money(row?.adjustment_total),
  total: money(row?.total),
});

type Period = { professionalId: string; from: string; to: string };
const previewLimit = 1000;

async function overlapping(ctx: RequestContext, period: Period) {
  const { rows } = await ctx.tx.execute<{ id: string; number: string }>(sql`
    select id, number from settlements
    where account_id = ${ctx.accountId}::uuid and professional_id = ${period.professionalId}::uuid
      and daterange(period_from, period_to, '[]') && daterange(${period.from}::date, ${period.to}::date, '[]')
    limit 1`);
  return rows[0];
}

async function preview({ ctx, query }: { ctx: RequestContext; query: Period }): Promise<SettlementPreview> {
  const professional = await professionalOf(ctx, query.professionalId);
  const lines = settlementLinesQuery({ ...query, accountId: ctx.accountId, timeZone: ctx.timeZone });
  const { rows } = await ctx.tx.execute<LineRow & Totals>(sql`
    with c as (${lines})
    select c.*, count(*) over () as line_count, sum(base) over () as base_total,
           sum(lab_cost) over () as lab_cost_total,
           sum(case when kind = 'adjustment' then amount else 0 end) over () as adjustment_total,
           sum(amount) over () as total
    from c order by ${linesOrder} limit ${previewLimit}`);
  const currency = await clinicCurrency(ctx);
  return {
    professionalId: professional.id,
    professionalName: professional.name,
    from: query.from,
    to: query.to,
    currency,
    ...totalsOf(rows[0]),
    lines: rows.map(presentLine),
    overlaps: (await overlapping(ctx, query)) !== undefined,
  };
}

/** The professional's provider, made the first time the clinic owes them (audited as any provider). */
async function providerOf(ctx: RequestContext, professional: { id: string; name: string }): Promise<string> {
  const [linked] = await ctx.tx
    .select({ providerId: professionalProviders.providerId })
    .from(professionalProviders)
    .where(
      and(
        eq(professionalProviders.accountId, ctx.accountId),
        eq(professionalProviders.professionalId, professional.id),
      ),
    );
  if (linked) return linked.providerId;
  const currency = await clinicCurrency(ctx);
  const provider = await providersService.create({
    ctx,
    input: providerContracts.create.parse({
      fantasyName: professional.name,
      currency,
      paymentTermDays: 0,
      notes: 'Profesional de la clínica: sus liquidaciones se pagan desde aquí.',
    }),
  });
  await ctx.tx
    .insert(professionalProviders)
    .values({ accountId: ctx.accountId, professionalId: professional.id, providerId: provider.id });
  return provider.id;
}

type ConfirmInput = z.output<typeof confirmSettlementSchema>;

async function confirm({ ctx, input }: { ctx: RequestContext; input: ConfirmInput }) {
  const professional = await professionalOf(ctx, input.professionalId);
  // One settlement per professional and period: concurrent confirms queue here, the later one finds the first's.
  await ctx.tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`settlement:${ctx.accountId}:${professional.id}`}, 0))`,
  );
  const taken = await overlapping(ctx, input);
  if (taken) throw new AppError('settlement_period_settled', { settlement: taken });
  const providerId = await providerOf(ctx, professional);
  const currency = await clinicCurrency(ctx);
  const sequence = await takeSequenceNumber(ctx, 'LQ', 'settlement');
  const number = String(sequence).padStart(8, '0');
  const id = newId();
  const documentId = newId();
  const clinic = await clinicSnapshot(ctx);

  // The payable, a draft until the lines say its total (its lines are final once registered).
  await ctx.tx.insert(commercialDocuments).values({
    accountId: ctx.accountId,
    id: documentId,
    side: 'purchase',
    status: 'draft',
    documentType: 'invoice',
    providerId,
    pointOfService: 'LQ',
    documentNumber: number,
    date: input.to,
    dueDate: input.to,
    currency,
    notes: `Liquidación LQ-${number} (${input.from} – ${input.to})`,
    createdBy: ctx.userId,
    updatedBy: ctx.userId,
  });

  const lines = settlementLinesQuery({ ...input, accountId: ctx.accountId, timeZone: ctx.timeZone });
  let totals: ReturnType<typeof totalsOf>;
  try {
    // The sorts and hashes of a month (100,000 lines) fit in memory for this transaction only.
    await ctx.tx.execute(sql`set local work_mem = '64MB'`);
    // One pass: the lines stream straight into settlement_lines, the totals are summed from what was
    // stored (RETURNING), and the settlement row carries them; its lines' reference to it is checked
    // at the end of the statement (trigger settlement_lines_refs, migration 0046).
    const stmt = sql`
      with l as (
        insert into settlement_lines (account_id, id, settlement_id, professional_id, kind, source_kind, source_id,
          document_line_id, document_id, document_type, document_label, payment_id, attendance_id, patient_id, patient_name,
          treatment_id, description, group_name, source_date, quantity, base, lab_cost, rule_id, rule_scope, rule_method,
          rule_value, rule_basis, amount)
        select ${ctx.accountId}::uuid, ${sqlUuidV7(sql`c.line_number`)}, ${id}::uuid, ${professional.id}::uuid, c.kind, c.source_kind,
          c.source_id, c.document_line_id, c.document_id, c.document_type, c.document_label, c.payment_id,
          c.attendance_id, c.patient_id, c.patient_name, c.treatment_id, c.description, c.group_name, c.source_date,
          c.quantity, c.base, c.lab_cost, c.rule_id, c.rule_scope, c.rule_method, c.rule_value, c.rule_basis, c.amount
        from (select x.*, row_number() over () as line_number from (${lines}) x) c
        returning kind, base, lab_cost, amount
      ),
      t as (
        select count(*) as line_count, coalesce(sum(base), 0) as base_total, coalesce(sum(lab_cost), 0) as lab_cost_total,
               coalesce(sum(case when kind = 'adjustment' then amount else 0 end), 0) as adjustment_total,
               coalesce(sum(amount), 0) as total
        from l
      ),
      s as (
        insert into settlements (account_id, id, number, sequence_number, professional_id, professional_name, provider_id,
          period_from, period_to, currency, base_total, lab_cost_total, adjustment_total, total, line_count, document_id,
          clinic_snapshot, notes, created_by)
        select ${ctx.accountId}::uuid, ${id}::uuid, ${`LQ-${number}`}, ${sequence}, ${professional.id}::uuid,
          ${professional.name}, ${providerId}::uuid, ${input.from}::date, ${input.to}::date, ${currency},
          t.base_total, t.lab_cost_total, t.adjustment_total, t.total, t.line_count, ${documentId}::uuid,
          ${JSON.stringify(clinic)}::jsonb, ${input.notes ?? null}, ${ctx.userId}::uuid
        from t
        returning id
      )
      select t.*, (select count(*) from s) as stored from t`;
    const { rows } = await ctx.tx.execute<Totals>(stmt);
    totals = totalsOf(rows[0]);
  } catch (error) {
    if (isExclusionViolation(error) || isDeadlock(error) || isUniqueViolation(error)) {
      throw new AppError('settlement_period_settled');
    }
    throw error;
  }
  if (totals.lineCount === 0) throw new AppError('settlement_empty');
  if (new Big(totals.total).lt(0)) throw new AppError('settlement_negative', { total: totals.total });
  if (input.expectedTotal !== undefined && !new Big(input.expectedTotal).eq(totals.total)) {
    throw new AppError('settlement_preview_stale', { total: totals.total });
  }

  // The payable: one line with the settlement's total, no VAT, registered and posted to the ledger.
  await ctx.tx.insert(documentLines).values({
    accountId: ctx.accountId,
    id: newId(),
    documentId,
    position: 1,
    description: `Liquidación LQ-${number} · ${professional.name} · ${input.from} – ${input.to}`,
    quantity: '1',
    unitPrice: totals.total,
    vatRate: '0',
    subtotal1: totals.total,
    discount: '0',
    subtotal: totals.total,
    vat: '0',
    total: totals.total,
  });
  const ledger = documentEntry({
    id: documentId,
    side: 'purchase',
    documentType: 'invoice',
    partyId: providerId,
    date: input.to,
    total: totals.total,
    description: `Liquidación LQ-${number}`,
  });
  if (ledger) await postLedgerEntries(ctx, [ledger.entry]);
  const registeredAt = new Date();
  // The payable copies the provider's whole fiscal data, as every purchase does: the purchase's
  // contract requires every field of the snapshot.
  const [provider] = await ctx.tx
    .select()
    .from(providers)
    .where(and(eq(providers.accountId, ctx.accountId), eq(providers.id, providerId)));
  if (!provider) throw new Error(`provider ${providerId} not found`);
  await ctx.tx
    .update(commercialDocuments)
    .set({
      status: 'registered',
      subtotal1: totals.total,
      subtotal2: totals.total,
      vatTotal: '0',
      total: totals.total,
      vatBreakdown: [{ rate: '0.00', base: totals.total, vat: '0.00' }],
      openAmount: ledger?.openAmount ?? '0.00',
      issuerSnapshot: providerSnapshot(provider),
      counterpartySnapshot: clinic,
      registeredAt,
      registeredBy: ctx.userId,
      version: 2,
      updatedAt: registeredAt,
      updatedBy: ctx.userId,
    })
    .where(and(eq(commercialDocuments.accountId, ctx.accountId), eq(commercialDocuments.id, documentId)));
  await audit(ctx, {
    action: 'settlement_created',
    entity: 'settlement',
    entityId: id,
    after: {
      number: `LQ-${number}`,
      professionalId: professional.id,
      from: input.from,
      to: input.to,
      ...totals,
      documentId,
    },
  });
  return { data: await getSettlement({ ctx, id }), code: 'settlement_created' as const };
}

type SettlementRow = {
  id: string;
  number: string;
  professional_id: string;
  professional_name: string;
  provider_id: string;
  period_from: string;
  period_to: string;
  currency: string;
  base_total: string;
  lab_cost_total: string;
  adjustment_total: string;
  total: string;
  line_count: number;
  document_id: string | null;
  open_amount: string | null;
  notes: string | null;
  created_at: string | Date;
  created_by_name: string | null;
};

function presentSettlement(row: SettlementRow): Settlement {
  const total = new Big(row.total);
  const open = new Big(row.open_amount ?? 0);
  return {
    id: row.id,
    number: row.number,
    professionalId: row.professional_id,
    professionalName: row.professional_name,
    providerId: row.provider_id,
    periodFrom: day(row.period_from),
    periodTo: day(row.period_to),
    currency: row.currency,
    baseTotal: money(row.base_total),
    labCostTotal: money(row.lab_cost_total),
    adjustmentTotal: money(row.adjustment_total),
    total: money(row.total),
    lineCount: Number(row.line_count),
    documentId: row.document_id,
    openAmount: open.toFixed(2),
    status: total.eq(0) ? 'nothing_to_pay' : open.eq(0) ? 'paid' : open.eq(total) ? 'pending' : 'partially_paid',
    notes: row.notes,
    createdAt: new Date(row.created_at).toISOString(),
    createdByName: row.created_by_name,
  };
}

const settlementColumns = sql`
  s.id, s.number, s.professional_id, s.professional_name, s.provider_id, s.period_from::text, s.period_to::text,
  s.currency, s.base_total::text, s.lab_cost_total::text, s.adjustment_total::text, s.total::text, s.line_count,
  s.document_id, d.open_amount::text, s.notes, s.created_at, u.complete_name as created_by_name`;
const settlementJoins = sql`
  left join commercial_documents d on d.account_id = s.account_id and d.id = s.document_id
  left join users u on u.account_id = s.account_id and u.id = s.created_by`;

async function findSettlement(ctx: RequestContext, id: string): Promise<SettlementRow> {
  const { rows } = await ctx.tx.execute<SettlementRow>(sql`
    select ${settlementColumns} from settlements s ${settlementJoins}
    where s.account_id = ${ctx.accountId}::uuid and s.id = ${id}::uuid`);
  const row = rows[0];
  if (!row) throw new AppError('settlement_not_found');
  return row;
}

/**
 * One settlement with its lines in print order: the first 1,000 on screen (`lineCount` says how many
 * there are), every one for the PDF (`allLines`).
 */
async function getSettlement({ ctx, id, allLines = false }: { ctx: RequestContext; id: string; allLines?: boolean }) {
  const row = await findSettlement(ctx, id);
  const { rows } = await ctx.tx.execute<LineRow>(sql`
    select id, kind, source_kind, source_id, document_line_id, document_id, document_type, document_label, payment_id,
      attendance_id, patient_id, patient_name, treatment_id, description, group_name, source_date::text, quantity::text,
      base::text, lab_cost::text, rule_id, rule_scope, rule_method, rule_value::text, rule_basis, amount::text
    from settlement_lines
    where account_id = ${ctx.accountId}::uuid and settlement_id = ${id}::uuid
    order by ${linesOrder}
    ${allLines ? sql`` : sql`limit ${previewLimit}`}`);
  return { ...presentSettlement(row), lines: rows.map(presentLine) };
}

async function list({
  ctx,
  query,
}: {
  ctx: RequestContext;
  query: z.output<typeof settlementListQuerySchema>;
}): Promise<Page<Settlement>> {
  const conditions = [sql`s.account_id = ${ctx.accountId}::uuid`];
  if (query.professionalId) conditions.push(sql`s.professional_id = ${query.professionalId}::uuid`);
  if (query.status === 'pending') conditions.push(sql`coalesce(d.open_amount, 0) <> 0`);
  if (query.status === 'paid') conditions.push(sql`coalesce(d.open_amount, 0) = 0`);
  const where = sql.join(conditions, sql` and `);
  const { rows } = await ctx.tx.execute<SettlementRow & { full_count: number }>(sql`
    select ${settlementColumns}, count(*) over () as full_count
    from settlements s ${settlementJoins}
    where ${where}
    order by s.period_from desc, s.id desc
    limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`);
  let total = Number(rows[0]?.full_count ?? 0);
  if (rows.length === 0 && query.page > 1) {
    const { rows: counted } = await ctx.tx.execute<{ n: number }>(
      sql`select count(*) as n from settlements s ${settlementJoins} where ${where}`,
    );
    total = Number(counted[0]?.n ?? 0);
  }
  return { data: rows.map(presentSettlement), total, page: query.page, pageSize: query.pageSize };
}

export const settlementsService = { preview, confirm, get: getSettlement, list };
