import { clinicToday } from '@odontia/shared/clinic-time';
import { lineAmounts } from '@odontia/shared/document-totals';
import type { Currency } from '@odontia/shared/enums';
import { type CoverageTerms, type CoverageUsage, ruleFor, splitLines } from '@odontia/shared/payer-split';
import type {
  Coverage,
  CoverageLine,
  PayerInvoiceResult,
  payerInvoiceRequestSchema,
} from '@odontia/shared/schemas/payers';
import { createSaleSchema } from '@odontia/shared/schemas/sales';
import Big from 'big.js';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { payerSplitLines } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { RequestContext } from '../../plugins/routes.ts';
import { audit } from '../audit/audit.repository.ts';
import type { LineRow } from '../commercial/side-documents.repository.ts';
import { markBilled } from '../sales/billed-sources.ts';
import { billableAttendances, decisionOf, findSale, linesOf } from '../sales/budgets.repository.ts';
import { budgetsService, piecesOf } from '../sales/budgets.service.ts';
import { defaultPointOfSale, type SaleDraftLine } from '../sales/invoice-drafts.ts';
import { salesService } from '../sales/sales.service.ts';
import * as repository from './payers.repository.ts';
import { affiliationsService } from './payers.service.ts';
import { splitLinesOf } from './split-lines.repository.ts';

/**
 * Invoicing an affiliated patient's attendances (issue 40): each line not yet invoiced is split
 * with the shared `splitLines` (packages/shared/src/payer-split.ts, the screen's preview runs the
 * same) into the patient's part and the payer's part, and two invoices are issued in the request's
 * one transaction — the patient's (to the patient's customer) and the payer's (to the payer's
 * customer) — through the sales engine (numbering, ledger, audit). Each source line's split is kept
 * in `payer_split_lines`, naming both documents, its rule, its rounding and its authorization
 * number. "Invoiced once" (billed_sources) is written by the patient's invoice for the lines it
 * carries and by the payer's for lines the payer pays in full.
 *
 * Catalogue items (supplies sold at the attendance) are not covered: they stay the patient's, on
 * the patient's invoice, so stock leaves once.
 *
 * The lines split come from a source: the patient's attendances not yet invoiced, or (issue 40) an
 * accepted budget's lines not yet invoiced — its conversion with the payer. Both become the same
 * `SourcePiece`s and go through the same split, invoices and `payer_split_lines`; a budget's line is
 * named by its id (source kind budget_line, no attendance) and "invoiced once" marks it as the
 * budget's conversion does.
 */

type Ctx = RequestContext;
type Request = z.output<typeof payerInvoiceRequestSchema>;

/** Where the lines to split come from: the attendances (null: every one not yet invoiced) or a budget. */
export type SplitSource = { attendanceIds: string[] | null; budgetId?: null } | { budgetId: string };

/** One line to split, whatever its source, with the line the patient's invoice carries when it is theirs whole. */
interface SourcePiece {
  kind: CoverageLine['kind'];
  sourceId: string;
  attendanceId: string | null;
  date: string;
  description: string;
  treatmentId: string | null;
  quantity: string;
  /** Its net (after discount, before VAT): what is split. */
  net: string;
  vatRate: string;
  line: SaleDraftLine;
}

interface CoverageWork {
  coverage: Coverage;
  pieces: SourcePiece[];
  payer: repository.PayerRow | null;
  affiliation: repository.AffiliationRow | null;
  /** Rule id → its target key (plan + treatment/group/*), for the year's usage. */
  date: string;
}

async function requirePatient(ctx: Ctx, patientId: string): Promise<string> {
  const { rows } = await ctx.tx.execute<{ id: string; name: string }>(sql`
    select id, coalesce(nullif(trim(concat_ws(', ', last_name, first_name)), ''), '') as name
    from patients where account_id = ${ctx.accountId}::uuid and id = ${patientId}::uuid and deleted_at is null`);
  if (!rows[0]) throw new AppError('patient_not_found');
  return rows[0].name;
}

async function clinicCurrency(ctx: Ctx): Promise<Currency> {
  const { rows } = await ctx.tx.execute<{ currency: string }>(
    sql`select system_currency as currency from accounts where id = ${ctx.accountId}::uuid`,
  );
  return (rows[0]?.currency ?? 'euro') as Currency;
}

/** What the patient used this calendar year of each rule's target (its plan and treatment, group or rest). */
async function yearUsage(
  ctx: Ctx,
  patientId: string,
  planId: string,
  rules: repository.RuleRow[],
  day: string,
): Promise<Record<string, CoverageUsage>> {
  if (rules.length === 0) return {};
  const keyOf = (rule: { treatmentId: string | null; treatmentGroup: string | null }) =>
    rule.treatmentId
      ? `t:${rule.treatmentId}`
      : rule.treatmentGroup
        ? `g:${rule.treatmentGroup.trim().toLowerCase()}`
        : '*';
  const { rows } = await ctx.tx.execute<{ key: string; sessions: string; amount: string }>(sql`
    select case when r.treatment_id is not null then 't:' || r.treatment_id::text
                when r.treatment_group is not null then 'g:' || lower(trim(r.treatment_group))
                else '*' end as key,
           coalesce(sum(s.covered_quantity), 0)::text as sessions, coalesce(sum(s.payer_amount), 0)::text as amount
    from payer_split_lines s
    join payer_coverage_rules r on r.account_id = s.account_id and r.id = s.rule_id
    where s.account_id = ${ctx.accountId}::uuid and s.patient_id = ${patientId}::uuid
      and s.date >= date_trunc('year', ${day}::date)::date and s.date < (date_trunc('year', ${day}::date) + interval '1 year')::date
      and r.plan_id = ${planId}::uuid
    group by 1`);
  const byKey = new Map(rows.map((row) => [row.key, row]));
  const usage: Record<string, CoverageUsage> = {};
  for (const rule of rules) {
    const used = byKey.get(keyOf(rule));
    usage[rule.id] = { sessions: used?.sessions ?? '0', amount: used?.amount ?? '0' };
  }
  return usage;
}

const termsOf = (rule: repository.RuleRow): CoverageTerms => ({
  id: rule.id,
  mode: rule.mode,
  value: rule.value,
  limitKind: rule.limitKind,
  limitValue: rule.limitValue,
  authorizationRequired: rule.authorizationRequired,
});

/** The patient's attendances not yet invoiced (these, or every one), piece by piece. */
async function attendancePieces(ctx: Ctx, patientId: string, attendanceIds: string[] | null): Promise<SourcePiece[]> {
  const wanted = attendanceIds ? [...new Set(attendanceIds)] : null;
  const rows = await billableAttendances(ctx, patientId, wanted);
  if (wanted) {
    const found = new Set(rows.map((row) => row.id));
    const missing = wanted.find((id) => !found.has(id));
    if (missing) throw new AppError('attendance_not_found', { attendanceId: missing });
  }
  return rows
    .filter((row) => row.billable)
    .flatMap((row) =>
      piecesOf(row).map((piece) => ({
        kind: piece.kind,
        sourceId: piece.sourceId,
        attendanceId: row.id,
        date: clinicToday(ctx.timeZone, row.date),
        description: piece.description,
        treatmentId: piece.treatmentId,
        quantity: piece.quantity,
        net: lineAmounts({ quantity: piece.quantity, unitPrice: piece.unitPrice, vatRate: piece.vatRate }).subtotal,
        vatRate: piece.vatRate,
        line: { ...piece.line, professionalId: row.professionalId },
      })),
    );
}

/**
 * An accepted budget of the patient: its lines not yet invoiced (404 sale_not_found for another
 * patient's or clinic's; 409 when not a budget, not issued or not accepted).
 */
async function budgetPieces(ctx: Ctx, patientId: string, budgetId: string): Promise<SourcePiece[]> {
  const budget = await findSale(ctx, budgetId, { lock: true });
  if (!budget || budget.patientId !== patientId) throw new AppError('sale_not_found');
  if (budget.documentType !== 'budget')
    throw new AppError('document_type_invalid', { documentType: budget.documentType });
  if (budget.status !== 'issued') throw new AppError('budget_not_issued', { status: budget.status });
  if (budget.currency !== (await clinicCurrency(ctx)))
    throw new AppError('currency_mismatch', { documentId: budgetId });
  if ((await decisionOf(ctx, budgetId))?.decision !== 'accepted') {
    throw new AppError('budget_not_accepted', { decision: null });
  }
  const invoiced = new Set(
    (await budgetsService.progress({ ctx, id: budgetId })).data.lines.filter((l) => l.invoiced).map((l) => l.id),
  );
  const date = clinicToday(ctx.timeZone);
  return (await linesOf(ctx, budgetId))
    .filter(({ line }) => !invoiced.has(line.id))
    .map(({ line }) => ({
      kind: 'budget_line' as const,
      sourceId: line.id,
      attendanceId: null,
      date,
      description: line.description,
      treatmentId: line.treatmentId,
      quantity: new Big(line.quantity).toFixed(2),
      net: lineAmounts({
        quantity: line.quantity,
        unitPrice: line.unitPrice,
        discountRate: line.discountRate,
        vatRate: line.vatRate,
      }).subtotal,
      vatRate: new Big(line.vatRate).toFixed(2),
      line: {
        description: line.description,
        quantity: line.quantity,
        unitPrice: line.unitPrice,
        discountRate: line.discountRate,
        vatRate: line.vatRate,
        itemId: line.itemId,
        treatmentId: line.treatmentId,
        tooth: line.tooth,
        sourceLineId: line.id,
        professionalId: line.professionalId,
      },
    }));
}

async function coverageWork(ctx: Ctx, patientId: string, source: SplitSource): Promise<CoverageWork> {
  await requirePatient(ctx, patientId);
  const date = clinicToday(ctx.timeZone);
  const pieces = source.budgetId
    ? await budgetPieces(ctx, patientId, source.budgetId)
    : await attendancePieces(ctx, patientId, 'attendanceIds' in source ? source.attendanceIds : null);
  const found = await repository.validAffiliation(ctx, patientId, date);
  const rules = found ? (await repository.rulesOf(ctx, [found.plan.id])).map((row) => row.rule) : [];
  const treatmentIds = [...new Set(pieces.flatMap((piece) => (piece.treatmentId ? [piece.treatmentId] : [])))];
  const treatmentInfo = new Map<string, { code: string | null; group: string | null }>();
  if (treatmentIds.length > 0) {
    const { rows: found } = await ctx.tx.execute<{ id: string; code: string | null; group_name: string | null }>(sql`
      select id, code, group_name from treatments
      where account_id = ${ctx.accountId}::uuid and id in (${sql.join(
        treatmentIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`);
    for (const row of found) treatmentInfo.set(row.id, { code: row.code, group: row.group_name });
  }
  const lines: CoverageLine[] = pieces.map((piece) => {
    const info = piece.treatmentId ? treatmentInfo.get(piece.treatmentId) : undefined;
    const rule =
      found && !piece.line.itemId
        ? ruleFor(rules, { treatmentId: piece.treatmentId, treatmentGroup: info?.group ?? null })
        : null;
    return {
      kind: piece.kind,
      sourceId: piece.sourceId,
      attendanceId: piece.attendanceId,
      date: piece.date,
      description: piece.description,
      treatmentId: piece.treatmentId,
      treatmentCode: info?.code ?? null,
      quantity: piece.quantity,
      total: piece.net,
      vatRate: piece.vatRate,
      rule: rule ? termsOf(rule) : null,
    };
  });
  const affiliation = found ? await affiliationsService.get({ ctx, patientId, id: found.affiliation.id }) : null;
  return {
    coverage: {
      patientId,
      currency: await clinicCurrency(ctx),
      affiliation,
      lines,
      usage: found ? await yearUsage(ctx, patientId, found.plan.id, rules, date) : {},
    },
    pieces,
    payer: found?.payer ?? null,
    affiliation: found?.affiliation ?? null,
    date,
  };
}

/** GET /api/patients/:patientId/payer-coverage */
export async function coverage({
  ctx,
  patientId,
  source,
}: {
  ctx: Ctx;
  patientId: string;
  source: SplitSource;
}): Promise<{ data: Coverage }> {
  return { data: (await coverageWork(ctx, patientId, source)).coverage };
}

/** POST /api/patients/:patientId/payer-invoices */
export async function invoiceWithPayer({
  ctx,
  patientId,
  input,
}: {
  ctx: Ctx;
  patientId: string;
  input: Request;
}): Promise<PayerInvoiceResult> {
  const work = await coverageWork(
    ctx,
    patientId,
    input.budgetId ? { budgetId: input.budgetId } : { attendanceIds: input.attendanceIds },
  );
  const { coverage: found, pieces, payer, affiliation, date } = work;
  if (!payer || !affiliation) throw new AppError('patient_not_affiliated');
  if (found.lines.length === 0) throw new AppError('nothing_to_invoice');
  const split = splitLines(
    found.lines.map((line) => ({ total: line.total, quantity: line.quantity, rule: line.rule })),
    found.usage,
  );
  const numbers = new Map(input.authorizations.map((entry) => [entry.sourceId, entry.number]));
  const missing = found.lines
    .filter((line, index) => line.rule?.authorizationRequired && split.lines[index]?.payerAmount !== '0.00')
    .filter((line) => !numbers.get(line.sourceId))
    .map((line) => line.sourceId);
  if (missing.length > 0) throw new AppError('payer_authorization_required', { sourceIds: missing });
  const pointOfService = await defaultPointOfSale(ctx);
  if (!pointOfService) throw new AppError('point_of_sale_not_found');

  const patientLines = [];
  const payerLines = [];
  for (const [index, line] of found.lines.entries()) {
    const parts = split.lines[index];
    const piece = pieces[index];
    if (!parts || !piece) continue;
    const common = {
      description: line.description,
      vatRate: line.vatRate,
      treatmentId: line.treatmentId,
      tooth: piece.line.tooth ?? null,
      professionalId: piece.line.professionalId ?? null,
    };
    if (parts.patientAmount !== '0.00') {
      const whole = parts.payerAmount === '0.00';
      patientLines.push({
        ...common,
        itemId: piece.line.itemId ?? null,
        quantity: whole ? piece.line.quantity : '1',
        unitPrice: whole ? piece.line.unitPrice : parts.patientAmount,
        discountRate: whole ? (piece.line.discountRate ?? '0') : '0',
        attendanceId: piece.line.attendanceId ?? null,
        attendanceLineId: piece.line.attendanceLineId ?? null,
        sourceLineId: piece.line.sourceLineId ?? null,
      });
    }
    if (parts.payerAmount !== '0.00') {
      payerLines.push({ ...common, quantity: '1', unitPrice: parts.payerAmount });
    }
  }
  const sale = (body: Record<string, unknown>) =>
    salesService.create({
      ctx,
      input: createSaleSchema.parse({
        documentType: 'invoice',
        pointOfService,
        date,
        currency: found.currency,
        conditionSale: 'current_account',
        issue: true,
        ...body,
      }),
    });
  const patientInvoice = patientLines.length > 0 ? (await sale({ patientId, lines: patientLines })).data : null;
  const payerInvoice =
    payerLines.length > 0
      ? (
          await sale({
            customerId: payer.customerId,
            notes: `${payer.name} · ${affiliation.memberNumber}`,
            lines: payerLines,
          })
        ).data
      : null;
  // Lines the payer pays in full are on the payer's invoice alone: "invoiced once" names it.
  const payerOnly = found.lines
    .map((line, index) => ({ line, parts: split.lines[index], piece: pieces[index] }))
    .filter((entry) => entry.parts?.patientAmount === '0.00');
  if (payerInvoice && payerOnly.length > 0) {
    await markBilled(
      ctx,
      payerInvoice.id,
      payerOnly.map(
        (entry) =>
          ({
            attendanceId: entry.piece?.line.attendanceId ?? null,
            attendanceLineId: entry.piece?.line.attendanceLineId ?? null,
            sourceLineId: entry.piece?.line.sourceLineId ?? null,
          }) as LineRow,
      ),
    );
  }
  const rows = found.lines.map((line, index) => {
    const parts = split.lines[index] as (typeof split.lines)[number];
    return {
      accountId: ctx.accountId,
      id: newId(),
      patientId,
      payerId: payer.id,
      planId: affiliation.planId,
      affiliationId: affiliation.id,
      ruleId: parts.ruleId,
      sourceKind: line.kind,
      sourceId: line.sourceId,
      attendanceId: line.attendanceId,
      date: line.date,
      treatmentId: line.treatmentId,
      treatmentCode: line.treatmentCode,
      description: line.description,
      memberNumber: affiliation.memberNumber,
      quantity: line.quantity,
      coveredQuantity: parts.coveredQuantity,
      lineTotal: parts.lineTotal,
      vatRate: line.vatRate,
      payerAmount: parts.payerAmount,
      patientAmount: parts.patientAmount,
      rounding: parts.rounding,
      authorizationNumber: line.rule?.authorizationRequired ? (numbers.get(line.sourceId) ?? null) : null,
      patientDocumentId: parts.patientAmount !== '0.00' ? (patientInvoice?.id ?? null) : null,
      payerDocumentId: parts.payerAmount !== '0.00' ? (payerInvoice?.id ?? null) : null,
      createdBy: ctx.userId,
    };
  });
  await ctx.tx.insert(payerSplitLines).values(rows);
  await audit(ctx, {
    action: 'payer_invoices_issued',
    entity: 'payer',
    entityId: payer.id,
    patientId,
    after: {
      budgetId: input.budgetId,
      patientInvoiceId: patientInvoice?.id ?? null,
      payerInvoiceId: payerInvoice?.id ?? null,
      patientTotal: split.patientTotal,
      payerTotal: split.payerTotal,
      lines: rows.map(
        (row) =>
          `${row.description}: ${row.lineTotal} = ${row.patientAmount} + ${row.payerAmount} (${row.rounding})` +
          `${row.authorizationNumber ? ` aut. ${row.authorizationNumber}` : ''}`,
      ),
    },
  });
  return {
    data: {
      patientInvoiceId: patientInvoice?.id ?? null,
      payerInvoiceId: payerInvoice?.id ?? null,
      patientTotal: split.patientTotal,
      payerTotal: split.payerTotal,
      lines: await splitLinesOf(
        ctx,
        rows.map((row) => row.id),
      ),
    },
    code: 'payer_invoices_issued',
  };
}
