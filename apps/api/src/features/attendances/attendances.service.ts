import { formatSaleNumber } from '@odontia/shared/commercial';
import { type AttendanceGroup, type AttendanceType, attendanceGroupOf } from '@odontia/shared/enums';
import type { FieldError } from '@odontia/shared/errors';
import { lineTotal, sumMoney } from '@odontia/shared/money';
import type {
  Attendance,
  AttendanceInput,
  AttendanceSummary,
  PendingBudgetLine,
  RecentAttendance,
} from '@odontia/shared/schemas/attendances';
import type { PageQuery } from '@odontia/shared/schemas/records';
import Big from 'big.js';
import type { RequestContext } from '../../context.ts';
import { presentStamps } from '../../db/records.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { appointmentsService } from '../appointments/appointments.service.ts';
import { audit, recordAudit } from '../audit/audit.repository.ts';
import { auditedRecords } from '../audit/audited-records.ts';
import { changedFields } from '../audit/record-changes.ts';
import { findCatalogueItems } from '../clinical/clinical.repository.ts';
import {
  invalidFields,
  releaseFilesOfRecord,
  requirePatient,
  requireProfessional,
} from '../clinical/clinical.service.ts';
import { recallsService } from '../recalls/recalls.service.ts';
import { applyStockMovements, type StockMovementInput } from '../stock/stock.service.ts';
import { treatmentPlansService } from '../treatment-plans/treatment-plans.service.ts';
import * as repository from './attendances.repository.ts';

/**
 * Attendances of a patient's medical history (issue 5, spec §3 "Attendance").
 *
 * - Billing: each line's total is price × quantity and totalBillable = attendanceFee + Σ line
 *   totals, computed here with decimals (big.js) and stored, so the list needs no lines.
 * - Stock: the supplies and medicines used move through `applyStockMovements` in the SAME
 *   transaction as the attendance (kind 'consumption', referenceType 'attendance'). An edit
 *   moves only the difference per item (more → consumption, fewer → 'return'); a delete returns
 *   everything; a short item refuses the whole save with 409 insufficient_stock (nothing written).
 * - Items: a supply must be a supply, a medicine a medicine; an item whose used quantity grows
 *   must be active, and a medicine approved (else 400 validation_error on that line).
 * - A finished attendance is read-only (409 attendance_finished on edit and delete); dated
 *   addenda correct it, and only it (409 attendance_not_finished on an open one).
 * - Every write audits (entity 'attendance', with the patient) in the same transaction.
 * - Lines (issue 18) keep their ids: an edit that sends a line unchanged with its `id` keeps its
 *   row (position apart); a changed or dropped line is retired and a new one written. An issued
 *   invoice that bills a line (billed_sources 'attendance_line') forbids changing or dropping it,
 *   and one that bills the fee forbids any change of the fee, the billable flag or the lines:
 *   409 attendance_line_invoiced (details.lineId, null for the fee). A delete of an attendance
 *   with anything invoiced answers the same.
 * - Finishing it leaves the recalls of its treatments that have a rule (issue 38, recalls.service).
 * - A line's treatment must be a live treatment of the price list, its budget line a line of an
 *   accepted budget of the same patient (else 400 on the field).
 */

type Scope = { ctx: RequestContext; patientId: string };
type UsedItem = { kind: 'supply' | 'medication'; itemId: string; quantity: number };
/** An item used as stored (its kind a plain string). */
type StoredItem = { kind: string; itemId: string; quantity: number };
type Row = NonNullable<Awaited<ReturnType<typeof repository.attendancesRepository.find>>>;

const auditedKeys = [
  'date',
  'attendanceType',
  'specialization',
  'professionalId',
  'titleResume',
  'resume',
  'detail',
  'nextAppointment',
  'finished',
  'resultDate',
  'result',
  'billable',
  'attendanceFee',
  'totalBillable',
] as const;

/** The stored columns and lines of an input, totals computed with decimals. */
function compute(input: AttendanceInput) {
  const lines = input.lines.map((line) => ({
    id: line.id ?? null,
    description: line.description,
    itemId: line.itemId ?? null,
    treatmentId: line.treatmentId ?? null,
    tooth: line.tooth ?? null,
    budgetLineId: line.budgetLineId ?? null,
    quantity: line.quantity,
    price: line.price,
    total: lineTotal(line.price, line.quantity),
  }));
  const columns = {
    date: new Date(input.date),
    attendanceType: input.attendanceType,
    attendanceGroup: attendanceGroupOf[input.attendanceType],
    specialization: input.specialization ?? null,
    professionalId: input.professionalId,
    titleResume: input.titleResume,
    resume: input.resume ?? null,
    detail: input.detail ?? null,
    nextAppointment: input.nextAppointment ?? null,
    finished: input.finished,
    resultDate: input.resultDate ?? null,
    result: input.result ?? null,
    billable: input.billable,
    attendanceFee: input.attendanceFee,
    totalBillable: sumMoney([input.attendanceFee, ...lines.map((line) => line.total)]),
  };
  return { columns, lines, items: usedItems(input) };
}
type Computed = ReturnType<typeof compute>;

/** The audited shape of an attendance: its columns, lines and items (JSON-friendly). */
type AuditedLine = Omit<Computed['lines'][number], 'id'>;
function auditShape(columns: Record<string, unknown>, lines: AuditedLine[], items: StoredItem[]) {
  const shape: Record<string, unknown> = {};
  for (const key of auditedKeys) {
    const value = columns[key];
    shape[key] = value instanceof Date ? value.toISOString() : (value ?? null);
  }
  shape.lines = lines.map(({ description, itemId, treatmentId, tooth, budgetLineId, quantity, price, total }) => {
    return { description, itemId, treatmentId, tooth, budgetLineId, quantity, price, total };
  });
  const of = (kind: UsedItem['kind']) =>
    items.filter((item) => item.kind === kind).map(({ itemId, quantity }) => ({ itemId, quantity }));
  shape.supplies = of('supply');
  shape.medications = of('medication');
  return shape;
}

function usedItems(input: AttendanceInput): UsedItem[] {
  return [
    ...input.supplies.map((item) => ({ kind: 'supply' as const, itemId: item.itemId, quantity: item.quantity })),
    ...input.medications.map((item) => ({ kind: 'medication' as const, itemId: item.itemId, quantity: item.quantity })),
  ];
}

const quantities = (items: { itemId: string; quantity: number }[]) =>
  new Map(items.map((item) => [item.itemId, item.quantity] as const));

/**
 * Checks the items against the catalogue. `previous` is what the attendance used before the
 * edit: only an item whose quantity grows must still be active (and a medicine approved).
 */
async function checkItems(ctx: RequestContext, input: AttendanceInput, previous: Map<string, number>) {
  const ids = [
    ...new Set([
      ...input.supplies.map((item) => item.itemId),
      ...input.medications.map((item) => item.itemId),
      ...input.lines.flatMap((line) => (line.itemId ? [line.itemId] : [])),
    ]),
  ];
  const catalogue = new Map((await findCatalogueItems(ctx, ids)).map((item) => [item.id, item] as const));
  const fields: FieldError[] = [];
  const check = (list: 'supplies' | 'medications', kind: 'supply' | 'medication') => {
    input[list].forEach((used, index) => {
      const item = catalogue.get(used.itemId);
      const grows = used.quantity > (previous.get(used.itemId) ?? 0);
      const usable =
        item?.kind === kind &&
        (!grows || (item.productStatus === 'active' && (kind === 'supply' || item.approvalStatus === 'approved')));
      if (!usable) fields.push({ path: `${list}.${index}.itemId`, code: 'invalid_value' });
    });
  };
  check('supplies', 'supply');
  check('medications', 'medication');
  input.lines.forEach((line, index) => {
    if (line.itemId && !catalogue.has(line.itemId))
      fields.push({ path: `lines.${index}.itemId`, code: 'invalid_value' });
  });
  if (fields.length > 0) throw invalidFields(fields);
}

/** Moves stock from `previous` to `next` (per item: the difference only), in the request's transaction. */
function moveStock(
  ctx: RequestContext,
  attendanceId: string,
  change: { previous: Map<string, number>; next: Map<string, number>; reason: string },
) {
  const movements: StockMovementInput[] = [];
  for (const itemId of new Set([...change.previous.keys(), ...change.next.keys()])) {
    const difference = (change.next.get(itemId) ?? 0) - (change.previous.get(itemId) ?? 0);
    if (difference === 0) continue;
    movements.push({
      itemId,
      kind: difference > 0 ? 'consumption' : 'return',
      quantity: -difference,
      reason: change.reason,
      referenceType: 'attendance',
      referenceId: attendanceId,
    });
  }
  return applyStockMovements(ctx.tx, ctx, movements);
}

function summary(row: Row): AttendanceSummary {
  return {
    id: row.id,
    patientId: row.patientId,
    date: row.date.toISOString(),
    attendanceType: row.attendanceType as AttendanceType,
    attendanceGroup: row.attendanceGroup as AttendanceGroup,
    specialization: row.specialization,
    professionalId: row.professionalId,
    professionalName: row.professionalName,
    titleResume: row.titleResume,
    nextAppointment: row.nextAppointment,
    finished: row.finished,
    billable: row.billable,
    attendanceFee: row.attendanceFee,
    totalBillable: row.totalBillable,
    ...presentStamps(row),
  };
}

const records = auditedRecords({
  repository: repository.attendancesRepository,
  entity: 'attendance',
  notFound: 'attendance_not_found',
  present: summary,
  // The writes are this file's own (lines, items, stock): the helper reads, locks and lists changes.
  columnsOf: (row) => auditShape(row, [], []),
});

/** One attendance with its lines, items and addenda. */
async function get(ctx: RequestContext, patientId: string, id: string): Promise<Attendance> {
  const row = await repository.attendancesRepository.find(ctx, { patientId }, id);
  if (!row) throw new AppError('attendance_not_found');
  const lines = await repository.listLines(ctx, id);
  const billed = await repository.billedOf(
    ctx,
    id,
    lines.map((line) => line.id),
  );
  const items = await repository.listItems(ctx, id);
  const addenda = await repository.listAddenda(ctx, id);
  const itemsOf = (kind: UsedItem['kind']) =>
    items.filter((item) => item.kind === kind).map(({ itemId, name, quantity }) => ({ itemId, name, quantity }));
  return {
    ...summary(row),
    resume: row.resume,
    detail: row.detail,
    resultDate: row.resultDate,
    result: row.result,
    lines: lines.map((line) => ({
      id: line.id,
      description: line.description,
      itemId: line.itemId,
      treatmentId: line.treatmentId,
      treatmentCode: line.treatmentId ? line.treatmentCode : null,
      treatmentName: line.treatmentId ? line.treatmentName : null,
      tooth: line.tooth,
      budgetLineId: line.budgetLineId,
      quantity: line.quantity,
      price: line.price,
      total: line.total,
      invoiced: billed.lineIds.has(line.id),
    })),
    feeInvoiced: billed.fee,
    supplies: itemsOf('supply'),
    medications: itemsOf('medication'),
    addenda: addenda.map((addendum) => ({ ...addendum, createdAt: addendum.createdAt.toISOString() })),
  };
}

/**
 * Writes the computed lines (but those kept: `keep` maps an input position to the kept row, which
 * only moves) and the items used of the attendance.
 */
async function writeLinesAndItems(
  ctx: RequestContext,
  attendanceId: string,
  computed: Computed,
  keep: Map<number, { id: string; position: number }> = new Map(),
) {
  for (const [position, kept] of keep) {
    if (kept.position !== position) await repository.moveLine(ctx, kept.id, position);
  }
  return repository.insertLinesAndItems(
    ctx,
    computed.lines.flatMap(({ id: _id, ...line }, position) =>
      keep.has(position) ? [] : [{ ...line, id: newId(), attendanceId, position }],
    ),
    computed.items.map((item) => ({ ...item, id: newId(), attendanceId })),
  );
}

type StoredLine = Awaited<ReturnType<typeof repository.listLines>>[number];

/** Whether an input line is the stored one unchanged (same content; its position apart). */
function sameLine(stored: StoredLine, line: Computed['lines'][number]): boolean {
  return (
    stored.description === line.description &&
    stored.itemId === line.itemId &&
    stored.treatmentId === line.treatmentId &&
    stored.tooth === line.tooth &&
    stored.budgetLineId === line.budgetLineId &&
    stored.quantity === line.quantity &&
    new Big(stored.price).eq(line.price)
  );
}

/**
 * Which stored lines an edit keeps (input position → row) and retires, refusing with 409
 * attendance_line_invoiced what an issued invoice bills, and 400 an id that is not one of the
 * attendance's live lines.
 */
async function planLines(
  ctx: RequestContext,
  current: { id: string; billable: boolean; attendanceFee: string },
  stored: StoredLine[],
  computed: Computed,
) {
  const byId = new Map(stored.map((line) => [line.id, line] as const));
  const keep = new Map<number, { id: string; position: number }>();
  const fields: FieldError[] = [];
  computed.lines.forEach((line, index) => {
    if (!line.id) return;
    const row = byId.get(line.id);
    if (!row) fields.push({ path: `lines.${index}.id`, code: 'invalid_value' });
    else if (sameLine(row, line)) keep.set(index, { id: row.id, position: row.position });
  });
  if (fields.length > 0) throw invalidFields(fields);
  const keptIds = new Set([...keep.values()].map((kept) => kept.id));
  const retired = stored.filter((line) => !keptIds.has(line.id)).map((line) => line.id);
  const billed = await repository.billedOf(
    ctx,
    current.id,
    stored.map((line) => line.id),
  );
  const lockedLine = retired.find((id) => billed.lineIds.has(id));
  if (lockedLine) throw new AppError('attendance_line_invoiced', { lineId: lockedLine });
  if (billed.fee) {
    const linesChanged = retired.length > 0 || keep.size !== computed.lines.length;
    const feeChanged =
      !new Big(current.attendanceFee).eq(computed.columns.attendanceFee) ||
      current.billable !== computed.columns.billable;
    if (linesChanged || feeChanged) throw new AppError('attendance_line_invoiced', { lineId: null });
  }
  return { keep, retired };
}

/** A written line's treatment must be in the price list, its budget line in the patient's accepted budgets. */
async function checkLineLinks(
  ctx: RequestContext,
  patientId: string,
  computed: Computed,
  keep: Map<number, unknown> = new Map(),
) {
  const written = computed.lines.map((line, index) => ({ line, index })).filter(({ index }) => !keep.has(index));
  const treatmentIds = [...new Set(written.flatMap(({ line }) => (line.treatmentId ? [line.treatmentId] : [])))];
  const budgetLineIds = [...new Set(written.flatMap(({ line }) => (line.budgetLineId ? [line.budgetLineId] : [])))];
  const treatments = await repository.existingTreatments(ctx, treatmentIds);
  const budgetLines = await repository.acceptedBudgetLineIds(ctx, patientId, budgetLineIds);
  const fields: FieldError[] = [];
  for (const { line, index } of written) {
    if (line.treatmentId && !treatments.has(line.treatmentId)) {
      fields.push({ path: `lines.${index}.treatmentId`, code: 'invalid_value' });
    }
    if (line.budgetLineId && !budgetLines.has(line.budgetLineId)) {
      fields.push({ path: `lines.${index}.budgetLineId`, code: 'invalid_value' });
    }
  }
  if (fields.length > 0) throw invalidFields(fields);
}

/** The attendance locked for a change, with what it has now; 409 attendance_finished once finished. */
async function lockOpen(ctx: RequestContext, patientId: string, id: string) {
  await requirePatient(ctx, patientId, { lock: true });
  const current = await records.lock(ctx, { patientId }, id);
  if (current.finished) throw new AppError('attendance_finished');
  return current;
}

const auditAttendance = recordAudit('attendance');

export const attendancesService = {
  /** The clinic's latest attendances across patients (the dashboard's "patients seen recently"). */
  async recent({ ctx, limit }: { ctx: RequestContext; limit: number }): Promise<RecentAttendance[]> {
    const rows = await repository.listRecent(ctx, limit);
    return rows.map((row) => ({
      ...row,
      date: row.date.toISOString(),
      attendanceType: row.attendanceType as AttendanceType,
    }));
  },

  async list({ ctx, patientId, query }: Scope & { query: PageQuery }) {
    await requirePatient(ctx, patientId);
    return records.page(ctx, { patientId }, query);
  },

  async get({ ctx, patientId, id }: Scope & { id: string }): Promise<Attendance> {
    await requirePatient(ctx, patientId);
    return get(ctx, patientId, id);
  },

  async create({ ctx, patientId, input }: Scope & { input: AttendanceInput }): Promise<Attendance> {
    await requirePatient(ctx, patientId, { lock: true });
    await requireProfessional(ctx, input.professionalId);
    await checkItems(ctx, input, new Map());
    const id = newId();
    const computed = compute(input);
    if (computed.lines.some((line) => line.id)) {
      throw invalidFields(
        computed.lines.flatMap((line, index) =>
          line.id ? [{ path: `lines.${index}.id`, code: 'invalid_value' }] : [],
        ),
      );
    }
    await checkLineLinks(ctx, patientId, computed);
    const finishedAt = computed.columns.finished ? new Date() : null;
    await repository.attendancesRepository.insert(ctx, { ...computed.columns, finishedAt, id, patientId });
    await writeLinesAndItems(ctx, id, computed);
    // Issue 41: an item of a treatment plan carried out in full charts its result on the odontogram.
    await treatmentPlansService.chartCarriedOut(ctx, patientId, id);
    await moveStock(ctx, id, {
      previous: new Map(),
      next: quantities(computed.items),
      reason: computed.columns.titleResume,
    });
    await auditAttendance(ctx, id, 'created', {
      patientId,
      after: auditShape(computed.columns, computed.lines, computed.items),
    });
    if (input.appointmentId) {
      await appointmentsService.completeForAttendance(ctx, {
        appointmentId: input.appointmentId,
        patientId,
        attendanceId: id,
      });
    }
    if (computed.columns.finished) await recallsService.fromFinishedAttendance(ctx, id);
    return get(ctx, patientId, id);
  },

  async update({ ctx, patientId, id, input }: Scope & { id: string; input: AttendanceInput & { version: number } }) {
    const current = await lockOpen(ctx, patientId, id);
    if (current.version !== input.version) {
      throw new AppError('version_conflict', { current: await get(ctx, patientId, id) });
    }
    if (input.professionalId !== current.professionalId) await requireProfessional(ctx, input.professionalId);
    const currentLines = await repository.listLines(ctx, id);
    const currentItems = await repository.listItems(ctx, id);
    const previous = quantities(currentItems);
    await checkItems(ctx, input, previous);
    const computed = compute(input);
    const { keep, retired } = await planLines(ctx, current, currentLines, computed);
    await checkLineLinks(ctx, patientId, computed, keep);
    const finishedAt = computed.columns.finished ? new Date() : null;
    await repository.attendancesRepository.update(ctx, id, { ...computed.columns, finishedAt });
    await repository.retireLinesAndItems(ctx, id, retired);
    await writeLinesAndItems(ctx, id, computed, keep);
    await treatmentPlansService.chartCarriedOut(ctx, patientId, id);
    await moveStock(ctx, id, { previous, next: quantities(computed.items), reason: computed.columns.titleResume });
    const { before, after } = changedFields(
      auditShape(current, currentLines, currentItems),
      auditShape(computed.columns, computed.lines, computed.items),
    );
    await audit(ctx, { patientId, action: 'attendance_updated', entity: 'attendance', entityId: id, before, after });
    if (computed.columns.finished) await recallsService.fromFinishedAttendance(ctx, id);
    return get(ctx, patientId, id);
  },

  async remove({ ctx, patientId, id }: Scope & { id: string }): Promise<void> {
    const current = await lockOpen(ctx, patientId, id);
    const currentLines = await repository.listLines(ctx, id);
    const currentItems = await repository.listItems(ctx, id);
    const billed = await repository.billedOf(
      ctx,
      id,
      currentLines.map((line) => line.id),
    );
    if (billed.fee || billed.lineIds.size > 0) {
      throw new AppError('attendance_line_invoiced', { lineId: billed.fee ? null : [...billed.lineIds][0] });
    }
    await repository.attendancesRepository.softDelete(ctx, id);
    await moveStock(ctx, id, { previous: quantities(currentItems), next: new Map(), reason: current.titleResume });
    await releaseFilesOfRecord(ctx, patientId, 'attendance', id);
    await auditAttendance(ctx, id, 'deleted', {
      patientId,
      before: { ...auditShape(current, currentLines, currentItems), version: current.version },
      after: { deleted: true },
    });
  },

  /** A dated correction of a finished attendance (409 attendance_not_finished on an open one). */
  async addAddendum({ ctx, patientId, id, text }: Scope & { id: string; text: string }): Promise<Attendance> {
    await requirePatient(ctx, patientId, { lock: true });
    const current = await records.lock(ctx, { patientId }, id);
    if (!current.finished) throw new AppError('attendance_not_finished');
    const addendumId = newId();
    await repository.insertAddendum(ctx, { id: addendumId, attendanceId: id, text });
    await auditAttendance(ctx, id, 'addendum_created', {
      patientId,
      after: { addendumId, text },
    });
    return get(ctx, patientId, id);
  },

  /** Lines of the patient's accepted budgets still to carry out (the attendance line's select). */
  async budgetLines({
    ctx,
    patientId,
    attendanceId,
  }: Scope & { attendanceId: string | null }): Promise<PendingBudgetLine[]> {
    await requirePatient(ctx, patientId);
    const rows = await repository.pendingBudgetLines(ctx, patientId, attendanceId);
    return rows.map((row) => ({
      id: row.id,
      budgetId: row.budget_id,
      budgetNumber:
        row.point_of_service && row.sequence_number != null
          ? formatSaleNumber(row.point_of_service, Number(row.sequence_number))
          : null,
      budgetDate: row.budget_date,
      description: row.description,
      treatmentId: row.treatment_id,
      treatmentCode: row.treatment_code,
      tooth: row.tooth,
      quantity: row.quantity,
      done: row.done,
      unitPrice: row.unit_price,
    }));
  },

  async changes({ ctx, patientId, id, query }: Scope & { id: string; query: PageQuery }) {
    await requirePatient(ctx, patientId);
    return records.changes(ctx, { patientId }, id, query);
  },
};
