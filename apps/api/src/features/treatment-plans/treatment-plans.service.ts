import { clinicToday } from '@odontia/shared/clinic-time';
import { formatSaleNumber } from '@odontia/shared/commercial';
import type { Currency, ToothZone } from '@odontia/shared/enums';
import type { FieldError } from '@odontia/shared/errors';
import { chartAt } from '@odontia/shared/odontogram';
import { createAppointmentRequestSchema } from '@odontia/shared/schemas/appointments';
import { budgetDecisionRequestSchema } from '@odontia/shared/schemas/budgets';
import type { PageQuery } from '@odontia/shared/schemas/records';
import { createSaleSchema } from '@odontia/shared/schemas/sales';
import type {
  PlanAlternative,
  PlanFollowUpRow,
  PlanItem,
  PlanProgress,
  PlanSession,
  PlanSuggestion,
  TreatmentPlan,
  TreatmentPlanSummary,
} from '@odontia/shared/schemas/treatment-plans';
import {
  findingsToTreat,
  itemAmount,
  type PlanPhaseKind,
  type PlanSessionStatus,
  type PlanZone,
  resultingMark,
  splitShares,
  suggestTreatment,
  type TreatmentPlanStatus,
} from '@odontia/shared/treatment-plans';
import type { FieldCode } from '@odontia/shared/validation';
import Big from 'big.js';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { RequestContext } from '../../context.ts';
import { accounts, attendances, treatments } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { appointmentsService } from '../appointments/appointments.service.ts';
import { audit } from '../audit/audit.repository.ts';
import { invalidFields, requirePatient, requireProfessional } from '../clinical/clinical.service.ts';
import * as odontogramRepository from '../odontogram/odontogram.repository.ts';
import { budgetsService } from '../sales/budgets.service.ts';
import { defaultPointOfSale } from '../sales/invoice-drafts.ts';
import { salesService } from '../sales/sales.service.ts';
import * as repository from './treatment-plans.repository.ts';

/**
 * Treatment plans (issue 41; docs/decisions.md "Treatment plans (issue 41)").
 *
 * - A plan is a draft, presented, then answered once: accepted (one alternative) or rejected; a
 *   draft or presented plan may be cancelled. Its content (alternatives, phases, items, sessions)
 *   is edited whole while draft or presented, and is final once accepted.
 * - Accepting an alternative makes the budget through the sales service (a sale of type budget,
 *   issued) with ONE LINE PER SESSION, and accepts it through the budgets service (signed on the
 *   pad or marked), in the same transaction; each session keeps its budget line. The other
 *   alternatives are closed.
 * - A session's state is derived, never stored: done when a live attendance line carries out its
 *   budget line, scheduled when its appointment (followed through moves) is still scheduled, else
 *   pending — so cancelling or deleting the appointment, or retiring the attendance line, returns
 *   it to pending without anything to keep in step. Invoiced: its budget line or the attendance
 *   line carrying it out is in billed_sources (the existing invoicing, once).
 * - When an attendance carries out the last session of an item, the item's result is charted on
 *   the odontogram (resultingMark of the treatment), once per item.
 * - Every write is audited (entity 'treatment_plan', with the patient).
 */

type Scope = { ctx: RequestContext; patientId: string };
type Content = Awaited<ReturnType<typeof repository.contentOf>>;
type PlanInput = import('@odontia/shared/schemas/treatment-plans').TreatmentPlanInput;

const editable = new Set(['draft', 'presented']);

async function requirePlan(ctx: RequestContext, patientId: string, id: string, options: { lock?: boolean } = {}) {
  const plan = await repository.findPlan(ctx, patientId, id, options);
  if (!plan) throw new AppError('treatment_plan_not_found');
  return plan;
}

/** Checks the version of a locked plan: 409 version_conflict with the current plan when stale. */
async function lockAt(ctx: RequestContext, patientId: string, id: string, version: number) {
  await requirePatient(ctx, patientId, { lock: true }).catch(() => {
    throw new AppError('treatment_plan_not_found');
  });
  const plan = await requirePlan(ctx, patientId, id, { lock: true });
  if (plan.version !== version) throw new AppError('version_conflict', { current: await get(ctx, patientId, id) });
  return plan;
}

function requireStatus(plan: repository.PlanRow, allowed: Set<string>) {
  if (!allowed.has(plan.status)) throw new AppError('treatment_plan_status_invalid', { status: plan.status });
}

/** The items' treatments: live treatments of the price list (400 on the item's field otherwise). */
async function treatmentsOf(ctx: RequestContext, input: PlanInput) {
  const ids = [
    ...new Set(input.alternatives.flatMap((a) => a.phases.flatMap((p) => p.items.map((i) => i.treatmentId)))),
  ];
  const rows =
    ids.length === 0
      ? []
      : await ctx.tx
          .select({ id: treatments.id, name: treatments.name, vatRate: treatments.vatRate })
          .from(treatments)
          .where(
            and(eq(treatments.accountId, ctx.accountId), inArray(treatments.id, ids), isNull(treatments.deletedAt)),
          );
  const byId = new Map(rows.map((row) => [row.id, row] as const));
  const fields: FieldError[] = [];
  input.alternatives.forEach((alternative, a) => {
    alternative.phases.forEach((phase, p) => {
      phase.items.forEach((item, i) => {
        if (!byId.has(item.treatmentId))
          fields.push({ path: `alternatives.${a}.phases.${p}.items.${i}.treatmentId`, code: 'invalid_value' });
      });
    });
  });
  if (fields.length > 0) throw invalidFields(fields);
  return byId;
}

/** The rows of a plan's content, amounts computed (items) and split to the cent (sessions). */
function contentRows(
  ctx: RequestContext,
  planId: string,
  input: PlanInput,
  treatmentById: Map<string, { name: string; vatRate: string }>,
): repository.ContentRows {
  const rows: repository.ContentRows = { alternatives: [], phases: [], items: [], sessions: [] };
  const accountId = ctx.accountId;
  input.alternatives.forEach((alternative, a) => {
    const alternativeId = newId();
    rows.alternatives.push({ accountId, id: alternativeId, planId, position: a + 1, label: alternative.label });
    let itemPosition = 0;
    let sessionPosition = 0;
    alternative.phases.forEach((phase, p) => {
      const phaseId = newId();
      rows.phases.push({
        accountId,
        id: phaseId,
        planId,
        alternativeId,
        position: p + 1,
        kind: phase.kind,
        name: phase.name,
      });
      for (const item of phase.items) {
        const itemId = newId();
        const treatment = treatmentById.get(item.treatmentId) as { name: string; vatRate: string };
        const amount = itemAmount(item.unitPrice, item.quantity, item.discountRate);
        itemPosition += 1;
        rows.items.push({
          accountId,
          id: itemId,
          planId,
          phaseId,
          position: itemPosition,
          tooth: item.tooth,
          zone: item.zone,
          treatmentId: item.treatmentId,
          description: item.description ?? treatment.name,
          unitPrice: item.unitPrice,
          quantity: item.quantity,
          discountRate: item.discountRate,
          vatRate: treatment.vatRate,
          amount,
          notes: item.notes ?? null,
        });
        const parts = splitShares(
          amount,
          item.sessions.map((session) => session.sharePercent),
        );
        item.sessions.forEach((session, s) => {
          sessionPosition += 1;
          rows.sessions.push({
            accountId,
            id: newId(),
            planId,
            itemId,
            position: sessionPosition,
            // Unnamed sessions of a split item are numbered (the budget's lines say which one is which).
            description:
              session.description ??
              (item.sessions.length > 1 ? `Sesión ${s + 1}` : (item.description ?? treatment.name)),
            sharePercent: session.sharePercent,
            amount: parts[s] as string,
          });
        });
      }
    });
  });
  return rows;
}

/** What the audit keeps of a plan's content: per alternative its label, total and items. */
function auditContent(input: PlanInput) {
  return {
    alternatives: input.alternatives.map((alternative) => ({
      label: alternative.label,
      phases: alternative.phases.map((phase) => ({
        kind: phase.kind,
        name: phase.name,
        items: phase.items.map((item) => ({
          tooth: item.tooth,
          zone: item.zone,
          treatmentId: item.treatmentId,
          amount: itemAmount(item.unitPrice, item.quantity, item.discountRate),
          sessions: item.sessions.map((session) => session.sharePercent),
        })),
      })),
    })),
  };
}

type SessionState = {
  status: PlanSessionStatus;
  attendanceId: string | null;
  doneAt: string | null;
  invoiced: boolean;
  appointmentId: string | null;
  appointmentStartsAt: string | null;
};

/** Each session's state, derived: three reads for the whole set (done, billed, booked). */
async function sessionStates(ctx: RequestContext, sessions: repository.SessionRow[]) {
  const budgetLineIds = sessions.flatMap((session) => (session.budgetLineId ? [session.budgetLineId] : []));
  const appointmentIds = sessions.flatMap((session) => (session.appointmentId ? [session.appointmentId] : []));
  const [done, billed, booked] = [
    await repository.doneOf(ctx, budgetLineIds),
    await repository.billedBudgetLines(ctx, budgetLineIds),
    await repository.bookedNow(ctx, [...new Set(appointmentIds)]),
  ];
  const doneByLine = new Map<string, repository.DoneRow[]>();
  for (const row of done) doneByLine.set(row.budgetLineId, [...(doneByLine.get(row.budgetLineId) ?? []), row]);
  const states = new Map<string, SessionState>();
  for (const session of sessions) {
    const carried = session.budgetLineId ? (doneByLine.get(session.budgetLineId) ?? []) : [];
    const first = carried[0];
    const now = session.appointmentId ? booked.get(session.appointmentId) : undefined;
    const scheduled = !first && now !== undefined && now.status === 'scheduled' && !now.deleted;
    states.set(session.id, {
      status: first ? 'done' : scheduled ? 'scheduled' : 'pending',
      attendanceId: first?.attendanceId ?? null,
      doneAt: first ? first.date.toISOString() : null,
      invoiced:
        (session.budgetLineId !== null && billed.has(session.budgetLineId)) || carried.some((row) => row.billed),
      appointmentId: scheduled && now ? now.id : null,
      appointmentStartsAt: scheduled && now ? now.startsAt.toISOString() : null,
    });
  }
  return states;
}

function itemStatus(sessions: PlanSession[]): PlanSessionStatus {
  if (sessions.length > 0 && sessions.every((session) => session.status === 'done')) return 'done';
  return sessions.some((session) => session.status !== 'pending') ? 'scheduled' : 'pending';
}

function progressOf(items: PlanItem[]): PlanProgress {
  const counts = () => ({ done: 0, scheduled: 0, pending: 0, total: 0 });
  const progress = { items: counts(), sessions: counts() };
  const money = { done: new Big(0), scheduled: new Big(0), pending: new Big(0), total: new Big(0) };
  for (const item of items) {
    progress.items[item.status] += 1;
    progress.items.total += 1;
    for (const session of item.sessions) {
      progress.sessions[session.status] += 1;
      progress.sessions.total += 1;
      money[session.status] = money[session.status].plus(session.amount);
      money.total = money.total.plus(session.amount);
    }
  }
  return {
    ...progress,
    money: {
      done: money.done.toFixed(2),
      scheduled: money.scheduled.toFixed(2),
      pending: money.pending.toFixed(2),
      total: money.total.toFixed(2),
    },
  };
}

/** The plans' alternatives as answered, with their sessions' states. */
async function alternativesOf(ctx: RequestContext, plans: repository.PlanRow[], content: Content) {
  const states = await sessionStates(ctx, content.sessions);
  const sessionsOf = new Map<string, PlanSession[]>();
  for (const session of content.sessions) {
    const state = states.get(session.id) as SessionState;
    const presented: PlanSession = {
      id: session.id,
      position: session.position,
      description: session.description,
      sharePercent: new Big(session.sharePercent).toFixed(2),
      amount: session.amount,
      budgetLineId: session.budgetLineId,
      ...state,
    };
    sessionsOf.set(session.itemId, [...(sessionsOf.get(session.itemId) ?? []), presented]);
  }
  const itemsOf = new Map<string, PlanItem[]>();
  for (const item of content.items) {
    const sessions = sessionsOf.get(item.id) ?? [];
    itemsOf.set(item.phaseId, [
      ...(itemsOf.get(item.phaseId) ?? []),
      {
        id: item.id,
        position: item.position,
        tooth: item.tooth,
        zone: item.zone as PlanZone | null,
        treatmentId: item.treatmentId,
        treatmentCode: item.treatmentCode,
        treatmentName: item.treatmentName,
        description: item.description,
        unitPrice: item.unitPrice,
        quantity: item.quantity,
        discountRate: new Big(item.discountRate).toFixed(2),
        vatRate: new Big(item.vatRate).toFixed(2),
        amount: item.amount,
        notes: item.notes,
        status: itemStatus(sessions),
        sessions,
      },
    ]);
  }
  const phasesOf = new Map<string, PlanAlternative['phases']>();
  for (const phase of content.phases) {
    phasesOf.set(phase.alternativeId, [
      ...(phasesOf.get(phase.alternativeId) ?? []),
      {
        id: phase.id,
        position: Number(phase.position),
        kind: phase.kind as PlanPhaseKind,
        name: phase.name,
        items: itemsOf.get(phase.id) ?? [],
      },
    ]);
  }
  const byPlan = new Map<string, PlanAlternative[]>();
  const planOf = new Map(plans.map((plan) => [plan.id, plan] as const));
  for (const alternative of content.alternatives) {
    const plan = planOf.get(alternative.planId);
    const phases = phasesOf.get(alternative.id) ?? [];
    const total = phases
      .flatMap((phase) => phase.items)
      .reduce((sum, item) => sum.plus(item.amount), new Big(0))
      .toFixed(2);
    const state: PlanAlternative['state'] = !plan?.acceptedAlternativeId
      ? 'open'
      : plan.acceptedAlternativeId === alternative.id
        ? 'accepted'
        : 'closed';
    byPlan.set(alternative.planId, [
      ...(byPlan.get(alternative.planId) ?? []),
      { id: alternative.id, position: alternative.position, label: alternative.label, state, total, phases },
    ]);
  }
  return byPlan;
}

function summaryFields(plan: repository.PlanRow, alternatives: PlanAlternative[]) {
  const shown = alternatives.find((alternative) => alternative.state === 'accepted') ?? alternatives[0];
  const items = shown ? shown.phases.flatMap((phase) => phase.items) : [];
  const progress = progressOf(items);
  const completed =
    plan.status === 'accepted' && progress.sessions.total > 0 && progress.sessions.done === progress.sessions.total;
  return {
    id: plan.id,
    patientId: plan.patientId,
    title: plan.title,
    professionalId: plan.professionalId,
    professionalName: plan.professionalName,
    status: (completed ? 'completed' : plan.status) as TreatmentPlanStatus,
    notes: plan.notes,
    presentedAt: plan.presentedAt?.toISOString() ?? null,
    decidedAt: plan.decidedAt?.toISOString() ?? null,
    acceptedAlternativeId: plan.acceptedAlternativeId,
    budgetId: plan.budgetId,
    budgetNumber:
      plan.budgetPointOfService && plan.budgetSequence !== null
        ? formatSaleNumber(plan.budgetPointOfService, plan.budgetSequence)
        : null,
    progress,
    createdAt: plan.createdAt.toISOString(),
    createdByName: plan.createdByName,
    updatedAt: plan.updatedAt.toISOString(),
    updatedByName: plan.updatedByName,
    version: plan.version,
  };
}

async function get(ctx: RequestContext, patientId: string, id: string): Promise<TreatmentPlan> {
  const plan = await requirePlan(ctx, patientId, id);
  const content = await repository.contentOf(ctx, [id]);
  const alternatives = (await alternativesOf(ctx, [plan], content)).get(id) ?? [];
  return { ...summaryFields(plan, alternatives), alternatives };
}

async function writeContent(ctx: RequestContext, planId: string, input: PlanInput) {
  const treatmentById = await treatmentsOf(ctx, input);
  await repository.insertContent(ctx, contentRows(ctx, planId, input, treatmentById));
}

async function clinicCurrency(ctx: RequestContext): Promise<Currency> {
  const [account] = await ctx.tx
    .select({ currency: accounts.systemCurrency })
    .from(accounts)
    .where(eq(accounts.id, ctx.accountId));
  return (account?.currency ?? 'euro') as Currency;
}

const toothText = (tooth: number | null) => (tooth === null ? null : String(tooth));

/** A step that only changes the plan's status (present, reject, cancel). */
async function step(
  { ctx, patientId, id, version }: Scope & { id: string; version: number },
  change: { from: Set<string>; to: string; stamp?: 'presentedAt' | 'decidedAt'; code: string },
) {
  const plan = await lockAt(ctx, patientId, id, version);
  requireStatus(plan, change.from);
  await repository.updatePlan(ctx, id, {
    status: change.to,
    ...(change.stamp ? { [change.stamp]: new Date() } : {}),
  });
  await audit(ctx, {
    patientId,
    action: change.code,
    entity: 'treatment_plan',
    entityId: id,
    before: { status: plan.status, version: plan.version },
    after: { status: change.to },
  });
  return { data: await get(ctx, patientId, id), code: change.code as 'treatment_plan_presented' };
}

/** The professional who charts what an attendance did: its own. */
async function attendanceProfessional(ctx: RequestContext, attendanceId: string) {
  const [row] = await ctx.tx
    .select({ professionalId: attendances.professionalId })
    .from(attendances)
    .where(and(eq(attendances.accountId, ctx.accountId), eq(attendances.id, attendanceId)));
  return row?.professionalId;
}

export const treatmentPlansService = {
  async list({ ctx, patientId, query }: Scope & { query: PageQuery }) {
    await requirePatient(ctx, patientId);
    const { rows, total } = await repository.listPlans(ctx, patientId, query);
    const content = await repository.contentOf(
      ctx,
      rows.map((row) => row.id),
    );
    const alternatives = await alternativesOf(ctx, rows, content);
    const data: TreatmentPlanSummary[] = rows.map((plan) => {
      const own = alternatives.get(plan.id) ?? [];
      return {
        ...summaryFields(plan, own),
        alternatives: own.map(({ id, label, total }) => ({ id, label, total })),
      };
    });
    return { data, total, page: query.page, pageSize: query.pageSize };
  },

  async get({ ctx, patientId, id }: Scope & { id: string }) {
    await requirePatient(ctx, patientId).catch(() => {
      throw new AppError('treatment_plan_not_found');
    });
    return { data: await get(ctx, patientId, id) };
  },

  async create({ ctx, patientId, input }: Scope & { input: PlanInput }) {
    await requirePatient(ctx, patientId, { lock: true });
    await requireProfessional(ctx, input.professionalId);
    const id = newId();
    await repository.insertPlan(ctx, {
      id,
      patientId,
      professionalId: input.professionalId,
      title: input.title,
      notes: input.notes ?? null,
    });
    await writeContent(ctx, id, input);
    await audit(ctx, {
      patientId,
      action: 'treatment_plan_created',
      entity: 'treatment_plan',
      entityId: id,
      after: {
        title: input.title,
        professionalId: input.professionalId,
        notes: input.notes ?? null,
        ...auditContent(input),
      },
    });
    return { data: await get(ctx, patientId, id), code: 'treatment_plan_created' as const };
  },

  async update({ ctx, patientId, id, input }: Scope & { id: string; input: PlanInput & { version: number } }) {
    const plan = await lockAt(ctx, patientId, id, input.version);
    requireStatus(plan, editable);
    if (input.professionalId !== plan.professionalId) await requireProfessional(ctx, input.professionalId);
    const before = await get(ctx, patientId, id);
    await repository.retireContent(ctx, id);
    await writeContent(ctx, id, input);
    await repository.updatePlan(ctx, id, {
      title: input.title,
      professionalId: input.professionalId,
      notes: input.notes ?? null,
    });
    await audit(ctx, {
      patientId,
      action: 'treatment_plan_updated',
      entity: 'treatment_plan',
      entityId: id,
      before: {
        title: before.title,
        professionalId: before.professionalId,
        notes: before.notes,
        version: before.version,
        alternatives: before.alternatives.map((alternative) => ({
          label: alternative.label,
          total: alternative.total,
          items: alternative.phases.reduce((sum, phase) => sum + phase.items.length, 0),
        })),
      },
      after: {
        title: input.title,
        professionalId: input.professionalId,
        notes: input.notes ?? null,
        ...auditContent(input),
      },
    });
    return { data: await get(ctx, patientId, id), code: 'treatment_plan_updated' as const };
  },

  /** Soft delete: not once accepted (the budget and its sessions are the clinic's record). */
  async remove({ ctx, patientId, id, version }: Scope & { id: string; version: number }) {
    const plan = await lockAt(ctx, patientId, id, version);
    requireStatus(plan, new Set(['draft', 'presented', 'rejected', 'cancelled']));
    await repository.softDeletePlan(ctx, id);
    await audit(ctx, {
      patientId,
      action: 'treatment_plan_deleted',
      entity: 'treatment_plan',
      entityId: id,
      before: { title: plan.title, status: plan.status, version: plan.version },
      after: { deleted: true },
    });
    return { code: 'treatment_plan_deleted' as const };
  },

  present: (args: Scope & { id: string; version: number }) =>
    step(args, { from: new Set(['draft']), to: 'presented', stamp: 'presentedAt', code: 'treatment_plan_presented' }),
  reject: (args: Scope & { id: string; version: number }) =>
    step(args, { from: editable, to: 'rejected', stamp: 'decidedAt', code: 'treatment_plan_rejected' }),
  cancel: (args: Scope & { id: string; version: number }) =>
    step(args, { from: editable, to: 'cancelled', code: 'treatment_plan_cancelled' }),

  /**
   * Accepts one alternative: the budget (a sale of type budget, one line per session, issued) made
   * and accepted through the sales and budgets services in this transaction; the sessions keep
   * their budget lines; the other alternatives are closed.
   */
  async accept({
    ctx,
    patientId,
    id,
    input,
  }: Scope & {
    id: string;
    input: {
      version: number;
      alternativeId: string;
      signature: { image: string; signerName: string; signerIdNumber: string } | null;
    };
  }) {
    const plan = await lockAt(ctx, patientId, id, input.version);
    requireStatus(plan, editable);
    const content = await repository.contentOf(ctx, [id]);
    const alternative = content.alternatives.find((row) => row.id === input.alternativeId);
    if (!alternative) throw invalidFields([{ path: 'alternativeId', code: 'invalid_value' }]);
    const phaseIds = new Set(content.phases.filter((phase) => phase.alternativeId === alternative.id).map((p) => p.id));
    const items = content.items.filter((item) => phaseIds.has(item.phaseId));
    const itemById = new Map(items.map((item) => [item.id, item] as const));
    const sessions = content.sessions.filter((session) => itemById.has(session.itemId));
    if (sessions.length === 0) throw new AppError('treatment_plan_empty');
    const pointOfService = await defaultPointOfSale(ctx);
    if (!pointOfService) throw new AppError('point_of_sale_inactive', { pointOfSale: { code: null } });
    const sessionsPerItem = new Map<string, number>();
    for (const session of sessions) sessionsPerItem.set(session.itemId, (sessionsPerItem.get(session.itemId) ?? 0) + 1);
    const created = await salesService.create({
      ctx,
      input: createSaleSchema.parse({
        documentType: 'budget',
        patientId,
        pointOfService,
        date: clinicToday(ctx.timeZone),
        currency: await clinicCurrency(ctx),
        conditionSale: 'current_account',
        notes: `${plan.title} — ${alternative.label}`.slice(0, 2000),
        issue: true,
        lines: sessions.map((session) => {
          const item = itemById.get(session.itemId) as repository.ItemRow;
          const tooth = item.tooth === null ? '' : ` — pieza ${item.tooth}`;
          const part =
            (sessionsPerItem.get(item.id) ?? 1) > 1
              ? ` (${session.description}, ${new Big(session.sharePercent).toString()} %)`
              : '';
          return {
            treatmentId: item.treatmentId,
            tooth: toothText(item.tooth),
            description: `${item.description}${tooth}${part}`.slice(0, 300),
            quantity: '1',
            unitPrice: session.amount,
            discountRate: '0',
            vatRate: item.vatRate,
            professionalId: plan.professionalId,
          };
        }),
      }),
    });
    const budgetId = created.data.id;
    const lines = [...created.data.lines].sort((a, b) => a.position - b.position);
    await budgetsService.decide({
      ctx,
      id: budgetId,
      input: budgetDecisionRequestSchema.parse({ decision: 'accepted', signature: input.signature }),
    });
    await repository.setSessionBudgetLines(
      ctx,
      sessions.map((session, index) => ({ id: session.id, budgetLineId: (lines[index] as { id: string }).id })),
    );
    await repository.updatePlan(ctx, id, {
      status: 'accepted',
      acceptedAlternativeId: alternative.id,
      budgetId,
      decidedAt: new Date(),
    });
    await audit(ctx, {
      patientId,
      action: 'treatment_plan_accepted',
      entity: 'treatment_plan',
      entityId: id,
      before: { status: plan.status, version: plan.version },
      after: {
        status: 'accepted',
        alternativeId: alternative.id,
        label: alternative.label,
        budgetId,
        signed: input.signature !== null,
        total: items.reduce((sum, item) => sum.plus(item.amount), new Big(0)).toFixed(2),
      },
    });
    return { data: await get(ctx, patientId, id), code: 'treatment_plan_accepted' as const };
  },

  /** Books a pending session of an accepted plan: an appointment of the agenda for the item's treatment. */
  async bookSession({
    ctx,
    patientId,
    id,
    sessionId,
    input,
  }: Scope & {
    id: string;
    sessionId: string;
    input: {
      professionalId: string;
      chairId: string | null;
      startsAt: string;
      endsAt: string;
      notes: string | null | undefined;
      allowOutsideSchedule: boolean;
    };
  }) {
    await requirePatient(ctx, patientId, { lock: true }).catch(() => {
      throw new AppError('treatment_plan_not_found');
    });
    const plan = await requirePlan(ctx, patientId, id, { lock: true });
    if (plan.status !== 'accepted') throw new AppError('treatment_plan_not_accepted', { status: plan.status });
    const content = await repository.contentOf(ctx, [id]);
    const phaseIds = new Set(
      content.phases.filter((phase) => phase.alternativeId === plan.acceptedAlternativeId).map((p) => p.id),
    );
    const items = new Map(content.items.filter((item) => phaseIds.has(item.phaseId)).map((item) => [item.id, item]));
    const session = content.sessions.find((row) => row.id === sessionId && items.has(row.itemId));
    if (!session) throw new AppError('treatment_plan_session_not_found');
    const state = (await sessionStates(ctx, [session])).get(session.id) as SessionState;
    if (state.status !== 'pending') {
      throw new AppError('treatment_plan_session_not_pending', {
        status: state.status,
        appointmentId: state.appointmentId,
      });
    }
    const item = items.get(session.itemId) as repository.ItemRow;
    const parsed = createAppointmentRequestSchema.safeParse({
      patientId,
      professionalId: input.professionalId,
      chairId: input.chairId,
      treatmentId: item.treatmentId,
      startsAt: input.startsAt,
      endsAt: input.endsAt,
      reason: `${session.description}${item.tooth === null ? '' : ` — pieza ${item.tooth}`}`.slice(0, 200),
      notes: input.notes ?? null,
      allowOutsideSchedule: input.allowOutsideSchedule,
    });
    if (!parsed.success) {
      throw invalidFields(
        parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), code: issue.message as FieldCode })),
      );
    }
    const appointment = await appointmentsService.create({ ctx, input: parsed.data });
    await repository.setSessionAppointment(ctx, session.id, appointment.id);
    await audit(ctx, {
      patientId,
      action: 'treatment_plan_session_booked',
      entity: 'treatment_plan',
      entityId: id,
      after: { sessionId: session.id, appointmentId: appointment.id, startsAt: appointment.startsAt },
    });
    return { data: await get(ctx, patientId, id), code: 'treatment_plan_session_booked' as const };
  },

  /** What the odontogram's current findings ask for, with the price list's treatment each suggests. */
  async suggestions({ ctx, patientId }: Scope): Promise<{ data: PlanSuggestion[] }> {
    await requirePatient(ctx, patientId);
    const entries = await odontogramRepository.entriesUpTo(ctx, patientId, new Date());
    const chart = chartAt(
      entries.map((row) => ({
        id: row.id,
        tooth: row.tooth,
        zone: row.zone as ToothZone | null,
        status: row.status,
        chartedAt: row.chartedAt.toISOString(),
      })),
    );
    const priceList = await ctx.tx
      .select({ id: treatments.id, code: treatments.code, name: treatments.name, price: treatments.price })
      .from(treatments)
      .where(and(eq(treatments.accountId, ctx.accountId), isNull(treatments.deletedAt), eq(treatments.active, true)))
      .orderBy(treatments.name);
    const data: PlanSuggestion[] = [];
    const suggest = (tooth: number, zone: ToothZone | null, finding: keyof typeof findingsToTreat) => {
      const phaseKind = findingsToTreat[finding];
      if (!phaseKind) return;
      const treatment = suggestTreatment(finding, priceList);
      data.push({
        tooth,
        zone,
        finding,
        phaseKind,
        treatmentId: treatment?.id ?? null,
        treatmentCode: treatment?.code ?? null,
        treatmentName: treatment?.name ?? null,
        unitPrice: treatment ? new Big(treatment.price).toFixed(2) : null,
      });
    };
    for (const tooth of chart) {
      if (tooth.piece) suggest(tooth.tooth, null, tooth.piece.status);
      for (const [zone, mark] of Object.entries(tooth.zones)) {
        if (mark) suggest(tooth.tooth, zone as ToothZone, mark.status);
      }
    }
    return { data };
  },

  /** The front desk's call list: accepted plans with work pending, oldest answer first. */
  async followUp({ ctx, query }: { ctx: RequestContext; query: PageQuery }) {
    const { rows, total } = await repository.followUp(ctx, query);
    const booked = await repository.bookedNow(ctx, [...new Set(rows.flatMap((row) => row.openAppointments ?? []))]);
    const data: PlanFollowUpRow[] = rows.map((row) => {
      const scheduled = (row.openAppointments ?? []).filter((appointmentId) => {
        const now = booked.get(appointmentId);
        return now?.status === 'scheduled' && !now.deleted;
      }).length;
      return {
        planId: row.planId,
        patientId: row.patientId,
        patientName: `${row.firstName} ${row.lastName}`,
        phone: row.phone ? [row.phoneArea, row.phone].filter(Boolean).join(' ') : null,
        title: row.title,
        professionalName: row.professionalName,
        decidedAt: row.decidedAt ? new Date(row.decidedAt).toISOString() : null,
        pendingSessions: Number(row.openSessions) - scheduled,
        scheduledSessions: scheduled,
        pendingAmount: new Big(row.pendingAmount).toFixed(2),
        total: new Big(row.total).toFixed(2),
        nextItem: row.nextItem,
        nextTooth: row.nextTooth === null ? null : Number(row.nextTooth),
        lastVisit: row.lastVisit,
      };
    });
    return { data, total, page: query.page, pageSize: query.pageSize };
  },

  /**
   * After an attendance's lines are written: the items of accepted plans whose sessions are now
   * all carried out (one of them by this attendance) chart their result on the odontogram, once
   * per item, as one batch by the attendance's professional.
   */
  async chartCarriedOut(ctx: RequestContext, patientId: string, attendanceId: string) {
    const plans = await repository.plansCarriedBy(ctx, attendanceId);
    if (plans.length === 0) return;
    const accepted = new Set(plans.map((plan) => plan.acceptedAlternativeId));
    const content = await repository.contentOf(
      ctx,
      plans.map((plan) => plan.id),
    );
    const phaseIds = new Set(content.phases.filter((phase) => accepted.has(phase.alternativeId)).map((p) => p.id));
    const items = content.items.filter((item) => phaseIds.has(item.phaseId) && item.chartedAt === null);
    const itemIds = new Set(items.map((item) => item.id));
    const sessions = content.sessions.filter((session) => itemIds.has(session.itemId));
    const done = await repository.doneOf(
      ctx,
      sessions.flatMap((session) => (session.budgetLineId ? [session.budgetLineId] : [])),
    );
    const doneLines = new Set(done.map((row) => row.budgetLineId));
    const byThis = new Set(done.filter((row) => row.attendanceId === attendanceId).map((row) => row.budgetLineId));
    const finished = items.filter((item) => {
      const own = sessions.filter((session) => session.itemId === item.id);
      return (
        own.length > 0 &&
        own.every((session) => session.budgetLineId && doneLines.has(session.budgetLineId)) &&
        own.some((session) => session.budgetLineId && byThis.has(session.budgetLineId))
      );
    });
    if (finished.length === 0) return;
    const marks = new Map<string, NonNullable<ReturnType<typeof resultingMark>>>();
    for (const item of finished) {
      const mark = resultingMark({ code: item.treatmentCode, name: item.treatmentName }, item.tooth, item.zone);
      if (mark) marks.set(`${mark.tooth}:${mark.zone ?? ''}`, mark);
    }
    const chartedAt = new Date();
    if (marks.size > 0) {
      const professionalId = (await attendanceProfessional(ctx, attendanceId)) ?? ctx.userId;
      const rows = [...marks.values()].map((mark) => ({
        accountId: ctx.accountId,
        id: newId(),
        patientId,
        tooth: mark.tooth,
        zone: mark.zone,
        status: mark.status,
        notes: null,
        chartedAt,
        professionalId,
        attendanceId,
        createdBy: ctx.userId,
      }));
      await odontogramRepository.insertEntries(ctx.tx, rows);
      await audit(
        ctx,
        odontogramRepository.entriesSavedEvent({ patientId, chartedAt, professionalId, attendanceId }, rows),
      );
    }
    await repository.markItemsCharted(
      ctx,
      finished.map((item) => item.id),
      chartedAt,
    );
  },
};
