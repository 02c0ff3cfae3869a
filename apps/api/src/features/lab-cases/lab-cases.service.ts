import { clinicToday } from '@odontia/shared/clinic-time';
import {
  type LabCase,
  type LabCaseDetail,
  type LabCaseEdit,
  type LabCaseEventAction,
  type LabCaseInput,
  type LabCaseStatus,
  type LabCaseStep,
  type LabWorkType,
  type labCaseStepSchemas,
  type labCasesQuerySchema,
  labCaseTransitions,
} from '@odontia/shared/schemas/lab-cases';
import type { z } from 'zod';
import type { RequestContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import { changedFields } from '../audit/record-changes.ts';
import { invalidFields, requirePatient } from '../clinical/clinical.service.ts';
import {
  acceptedPlanItems,
  appointmentPatient,
  caseEvents,
  findCase,
  insertEvent,
  type LabCaseRow,
  pageCases,
  providerExists,
  purchaseProvider,
  labCasesRepository as repository,
} from './lab-cases.repository.ts';

/**
 * Dental lab cases (issue 41): the rules of a case's life. Every write locks the case, checks the
 * version read (409 version_conflict with the current case), checks the step is allowed from the
 * state (409 lab_case_transition_invalid), writes the new version, appends the step to the case's
 * events and audits it (`lab_case_<action>`), all in the request's transaction.
 */

const audit = recordAudit('lab_case');

type StoredCase = NonNullable<Awaited<ReturnType<typeof repository.findForUpdate>>>;

function present(named: LabCaseRow, today: string): LabCase {
  const { row } = named;
  const overdue = Boolean(named.overdue);
  const seatingWarning = Boolean(named.seatingWarning);
  return {
    id: row.id,
    patientId: row.patientId,
    patientName: named.patientName,
    providerId: row.providerId,
    providerName: named.providerName,
    workType: row.workType as LabWorkType,
    teeth: row.teeth,
    shade: row.shade,
    material: row.material,
    instructions: row.instructions,
    notes: row.notes,
    status: row.status as LabCaseStatus,
    sentOn: row.sentOn,
    dueOn: row.dueOn,
    receivedOn: row.receivedOn,
    checkedOn: row.checkedOn,
    seatedOn: row.seatedOn,
    remakeCount: row.remakeCount,
    returnReason: row.returnReason,
    cancelReason: row.cancelReason,
    appointmentId: row.appointmentId,
    appointmentStartsAt: named.appointmentStartsAt ? named.appointmentStartsAt.toISOString() : null,
    purchaseId: row.purchaseId,
    purchaseNumber: named.purchaseNumber,
    treatmentPlanItemId: row.treatmentPlanItemId,
    treatmentPlanItemLabel: named.treatmentPlanItemLabel,
    overdue,
    seatingWarning,
    atRisk: overdue || seatingWarning || (row.status === 'draft' && row.dueOn !== null && row.dueOn < today),
    createdAt: row.createdAt.toISOString(),
    createdByName: named.createdByName,
    updatedAt: row.updatedAt.toISOString(),
    updatedByName: named.updatedByName,
    version: row.version,
  };
}

/** The editable, audited columns of an input or a stored case. */
function columnsOf(input: Omit<LabCaseEdit, 'version'> | StoredCase) {
  return {
    providerId: input.providerId,
    workType: input.workType,
    teeth: input.teeth,
    shade: input.shade ?? null,
    material: input.material ?? null,
    instructions: input.instructions ?? null,
    notes: input.notes ?? null,
    dueOn: input.dueOn ?? null,
    appointmentId: input.appointmentId ?? null,
    purchaseId: input.purchaseId ?? null,
    treatmentPlanItemId: input.treatmentPlanItemId ?? null,
  };
}
type Columns = ReturnType<typeof columnsOf>;

/** The lab, the seating appointment (the patient's) and the invoice (a purchase of the lab). */
async function checkReferences(ctx: RequestContext, patientId: string, columns: Columns) {
  if (!(await providerExists(ctx, columns.providerId))) throw new AppError('provider_not_found');
  if (columns.appointmentId) await checkAppointment(ctx, patientId, columns.appointmentId);
  if (columns.purchaseId) {
    const provider = await purchaseProvider(ctx, columns.purchaseId);
    if (provider === undefined) throw new AppError('purchase_not_found');
    if (provider !== columns.providerId) throw new AppError('lab_case_purchase_other_provider');
  }
  if (columns.treatmentPlanItemId) {
    const [item] = await acceptedPlanItems(ctx, patientId, columns.treatmentPlanItemId);
    if (!item) throw new AppError('lab_case_plan_item_invalid');
  }
}

async function checkAppointment(ctx: RequestContext, patientId: string, appointmentId: string) {
  const owner = await appointmentPatient(ctx, appointmentId);
  if (owner === null) throw new AppError('appointment_not_found');
  if (owner !== patientId) throw new AppError('lab_case_appointment_other_patient');
}

async function detail(ctx: RequestContext, id: string): Promise<LabCaseDetail> {
  const today = clinicToday(ctx.timeZone);
  const row = await findCase(ctx, today, id);
  if (!row) throw new AppError('lab_case_not_found');
  const events = await caseEvents(ctx, id);
  return {
    ...present(row, today),
    events: events.map(({ event, byName }) => ({
      id: event.id,
      action: event.action as LabCaseEventAction,
      fromStatus: event.fromStatus as LabCaseStatus | null,
      toStatus: event.toStatus as LabCaseStatus,
      onDate: event.onDate,
      dueOn: event.dueOn,
      reason: event.reason,
      at: event.createdAt.toISOString(),
      byName,
    })),
  };
}

/** The case locked for a write, at the version read (404, 409 version_conflict). */
async function lockAt(ctx: RequestContext, id: string, version: number): Promise<StoredCase> {
  const current = await repository.findForUpdate(ctx, {}, id);
  if (!current) throw new AppError('lab_case_not_found');
  if (current.version !== version) throw new AppError('version_conflict', { current: await detail(ctx, id) });
  return current;
}

type StepInputs = { [Step in LabCaseStep]: z.output<(typeof labCaseStepSchemas)[Step]> };

/** What a step writes on the case, the event it appends and its state after. */
async function applyStep<Step extends LabCaseStep>(
  ctx: RequestContext,
  current: StoredCase,
  step: Step,
  input: StepInputs[Step],
): Promise<{
  change: Partial<StoredCase>;
  event: { action: LabCaseEventAction; onDate?: string | null; dueOn?: string | null; reason?: string | null };
}> {
  const dateError = (path: string, onDate: string, after: string | null) => {
    if (after && onDate < after) throw invalidFields([{ path, code: 'date_before_order' }]);
  };
  switch (step) {
    case 'send': {
      const { sentOn, dueOn } = input as StepInputs['send'];
      return {
        change: { status: 'sent', sentOn, dueOn, receivedOn: null, checkedOn: null },
        event: { action: 'sent', onDate: sentOn, dueOn },
      };
    }
    case 'receive': {
      const { receivedOn } = input as StepInputs['receive'];
      dateError('receivedOn', receivedOn, current.sentOn);
      return { change: { status: 'received', receivedOn }, event: { action: 'received', onDate: receivedOn } };
    }
    case 'check': {
      const { checkedOn, note } = input as StepInputs['check'];
      dateError('checkedOn', checkedOn, current.receivedOn);
      return {
        change: { status: 'checked', checkedOn },
        event: { action: 'checked', onDate: checkedOn, reason: note },
      };
    }
    case 'return': {
      const { returnedOn, reason } = input as StepInputs['return'];
      dateError('returnedOn', returnedOn, current.receivedOn);
      return {
        change: { status: 'returned', returnReason: reason, remakeCount: current.remakeCount + 1 },
        event: { action: 'returned', onDate: returnedOn, reason },
      };
    }
    case 'seat': {
      const { seatedOn, appointmentId } = input as StepInputs['seat'];
      dateError('seatedOn', seatedOn, current.receivedOn);
      const appointment = appointmentId ?? current.appointmentId;
      if (appointment) await checkAppointment(ctx, current.patientId, appointment);
      return {
        change: { status: 'seated', seatedOn, appointmentId: appointment },
        event: { action: 'seated', onDate: seatedOn },
      };
    }
    default: {
      const { reason } = input as StepInputs['cancel'];
      return {
        change: { status: 'cancelled', cancelReason: reason },
        event: { action: 'cancelled', onDate: clinicToday(ctx.timeZone), reason },
      };
    }
  }
}

export const labCasesService = {
  async list({ ctx, query }: { ctx: RequestContext; query: z.output<typeof labCasesQuerySchema> }) {
    const today = clinicToday(ctx.timeZone);
    const { rows, total } = await pageCases(
      ctx,
      today,
      {
        status: query.status,
        overdue: query.overdue === 'true',
        providerId: query.providerId,
        patientId: query.patientId,
        appointmentId: query.appointmentId,
        purchaseId: query.purchaseId,
      },
      query,
    );
    return { data: rows.map((row) => present(row, today)), total, page: query.page, pageSize: query.pageSize };
  },

  get: ({ ctx, id }: { ctx: RequestContext; id: string }) => detail(ctx, id),

  /** What a case of the patient may be for: the items of the patient's accepted plans. */
  async planItems({ ctx, patientId }: { ctx: RequestContext; patientId: string }) {
    await requirePatient(ctx, patientId);
    return acceptedPlanItems(ctx, patientId);
  },

  async create({ ctx, input }: { ctx: RequestContext; input: LabCaseInput }): Promise<LabCaseDetail> {
    await requirePatient(ctx, input.patientId, { lock: true });
    const columns = columnsOf(input);
    await checkReferences(ctx, input.patientId, columns);
    const id = newId();
    await repository.insert(ctx, { id, patientId: input.patientId, status: 'draft', ...columns });
    await insertEvent(ctx, { caseId: id, action: 'created', fromStatus: null, toStatus: 'draft' });
    await audit(ctx, id, 'created', { patientId: input.patientId, after: columns });
    return detail(ctx, id);
  },

  async update({ ctx, id, input }: { ctx: RequestContext; id: string; input: LabCaseEdit }): Promise<LabCaseDetail> {
    const current = await lockAt(ctx, id, input.version);
    if (current.status === 'seated' || current.status === 'cancelled') throw new AppError('lab_case_closed');
    const next = columnsOf(input);
    await checkReferences(ctx, current.patientId, next);
    if (next.dueOn && current.sentOn && next.dueOn < current.sentOn) {
      throw invalidFields([{ path: 'dueOn', code: 'due_before_date' }]);
    }
    const { before, after } = changedFields(columnsOf(current), next);
    await repository.update(ctx, id, next);
    await audit(ctx, id, 'updated', { patientId: current.patientId, before, after });
    return detail(ctx, id);
  },

  /** A step of the case's life (send, receive, check, return for a remake, seat, cancel). */
  async step<Step extends LabCaseStep>({
    ctx,
    id,
    step,
    input,
  }: {
    ctx: RequestContext;
    id: string;
    step: Step;
    input: StepInputs[Step];
  }): Promise<LabCaseDetail> {
    const current = await lockAt(ctx, id, input.version);
    const from = current.status as LabCaseStatus;
    if (!labCaseTransitions[from].includes(step)) {
      throw new AppError('lab_case_transition_invalid', { status: from, step });
    }
    const { change, event } = await applyStep(ctx, current, step, input);
    await repository.update(ctx, id, change);
    const to = change.status as LabCaseStatus;
    await insertEvent(ctx, { caseId: id, fromStatus: from, toStatus: to, ...event });
    await audit(ctx, id, event.action, {
      patientId: current.patientId,
      before: { status: from, version: current.version },
      after: { ...change },
    });
    return detail(ctx, id);
  },
};
