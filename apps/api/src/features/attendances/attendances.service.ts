import { type AttendanceGroup, type AttendanceType, attendanceGroupOf } from '@odontia/shared/enums';
import type { FieldError } from '@odontia/shared/errors';
import { lineTotal, sumMoney } from '@odontia/shared/money';
import type { Attendance, AttendanceInput, AttendanceSummary } from '@odontia/shared/schemas/attendances';
import type { PageQuery } from '@odontia/shared/schemas/records';
import type { Database } from '../../db/client.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { AuthSession } from '../../plugins/auth.ts';
import { recordAuditEvent } from '../audit/audit.repository.ts';
import { changedFields, listRecordChanges } from '../audit/record-changes.ts';
import { invalidFields, requirePatient, requireProfessional } from '../clinical/clinical.service.ts';
import { applyStockMovements, type StockMovementInput } from '../stock/stock.service.ts';
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
 */

type UpdateInput = AttendanceInput & { version: number };

const columnKeys = [
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
] as const;

interface Computed {
  columns: {
    date: Date;
    attendanceType: AttendanceType;
    attendanceGroup: AttendanceGroup;
    specialization: string | null;
    professionalId: string;
    titleResume: string;
    resume: string | null;
    detail: string | null;
    nextAppointment: string | null;
    finished: boolean;
    resultDate: string | null;
    result: string | null;
    billable: boolean;
    attendanceFee: string;
    totalBillable: string;
  };
  lines: { description: string; itemId: string | null; quantity: number; price: string; total: string }[];
}

function compute(input: AttendanceInput): Computed {
  const lines = input.lines.map((line) => ({
    description: line.description,
    itemId: line.itemId ?? null,
    quantity: line.quantity,
    price: line.price,
    total: lineTotal(line.price, line.quantity),
  }));
  return {
    columns: {
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
    },
    lines,
  };
}

/** The audited shape of an attendance: its columns, lines and items (JSON-friendly). */
function auditShape(
  columns: Record<string, unknown>,
  lines: Computed['lines'],
  items: { kind: string; itemId: string; quantity: number }[],
): Record<string, unknown> {
  const shape: Record<string, unknown> = {};
  for (const key of [...columnKeys, 'totalBillable']) {
    const value = columns[key];
    shape[key] = value instanceof Date ? value.toISOString() : (value ?? null);
  }
  shape.lines = lines.map((line) => ({
    description: line.description,
    itemId: line.itemId,
    quantity: line.quantity,
    price: line.price,
    total: line.total,
  }));
  shape.supplies = items.filter((i) => i.kind === 'supply').map((i) => ({ itemId: i.itemId, quantity: i.quantity }));
  shape.medications = items
    .filter((i) => i.kind === 'medication')
    .map((i) => ({ itemId: i.itemId, quantity: i.quantity }));
  return shape;
}

function usedItems(input: AttendanceInput): { kind: 'supply' | 'medication'; itemId: string; quantity: number }[] {
  return [
    ...input.supplies.map((item) => ({ kind: 'supply' as const, itemId: item.itemId, quantity: item.quantity })),
    ...input.medications.map((item) => ({ kind: 'medication' as const, itemId: item.itemId, quantity: item.quantity })),
  ];
}

/**
 * Checks the items against the catalogue. `previous` is what the attendance used before the
 * edit: only an item whose quantity grows must still be active (and a medicine approved).
 */
async function checkItems(
  tx: TenantTx,
  accountId: string,
  input: AttendanceInput,
  previous: Map<string, number>,
): Promise<void> {
  const ids = [
    ...new Set([
      ...input.supplies.map((item) => item.itemId),
      ...input.medications.map((item) => item.itemId),
      ...input.lines.flatMap((line) => (line.itemId ? [line.itemId] : [])),
    ]),
  ];
  const catalogue = new Map(
    (await repository.findCatalogueItems(tx, accountId, ids)).map((item) => [item.id, item] as const),
  );
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

/** The stock movements that take `next` from `previous` (per item: the difference only). */
function stockDifference(
  attendanceId: string,
  previous: Map<string, number>,
  next: Map<string, number>,
  reason: string,
): StockMovementInput[] {
  const movements: StockMovementInput[] = [];
  for (const itemId of new Set([...previous.keys(), ...next.keys()])) {
    const change = (next.get(itemId) ?? 0) - (previous.get(itemId) ?? 0);
    if (change === 0) continue;
    movements.push({
      itemId,
      kind: change > 0 ? 'consumption' : 'return',
      quantity: -change,
      reason,
      referenceType: 'attendance',
      referenceId: attendanceId,
    });
  }
  return movements;
}

const quantities = (items: { itemId: string; quantity: number }[]) =>
  new Map(items.map((item) => [item.itemId, item.quantity] as const));

export function toAttendanceSummary(row: repository.AttendanceRowWithNames): AttendanceSummary {
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
    createdAt: row.createdAt.toISOString(),
    createdByName: row.createdByName,
    updatedAt: row.updatedAt.toISOString(),
    updatedByName: row.updatedByName,
    version: row.version,
  };
}

export function createAttendancesService({ db }: { db: Database }) {
  async function getAttendance(tx: TenantTx, accountId: string, patientId: string, id: string): Promise<Attendance> {
    const row = await repository.findAttendance(tx, accountId, patientId, id);
    if (!row) throw new AppError('attendance_not_found');
    const [lines, items, addenda] = [
      await repository.listLines(tx, accountId, id),
      await repository.listItems(tx, accountId, id),
      await repository.listAddenda(tx, accountId, id),
    ];
    const itemOf = (item: repository.AttendanceItemRow) => ({
      itemId: item.itemId,
      name: item.name,
      quantity: item.quantity,
    });
    return {
      ...toAttendanceSummary(row),
      resume: row.resume,
      detail: row.detail,
      resultDate: row.resultDate,
      result: row.result,
      lines: lines.map((line) => ({
        id: line.id,
        description: line.description,
        itemId: line.itemId,
        quantity: line.quantity,
        price: line.price,
        total: line.total,
      })),
      supplies: items.filter((item) => item.kind === 'supply').map(itemOf),
      medications: items.filter((item) => item.kind === 'medication').map(itemOf),
      addenda: addenda.map((addendum) => ({
        id: addendum.id,
        text: addendum.text,
        createdAt: addendum.createdAt.toISOString(),
        userName: addendum.userName,
      })),
    };
  }

  async function writeLinesAndItems(
    tx: TenantTx,
    session: AuthSession,
    attendanceId: string,
    computed: Computed,
    input: AttendanceInput,
  ): Promise<void> {
    await repository.insertLines(
      tx,
      computed.lines.map((line, position) => ({
        ...line,
        accountId: session.accountId,
        id: newId(),
        attendanceId,
        position,
        createdBy: session.userId,
      })),
    );
    await repository.insertItems(
      tx,
      usedItems(input).map((item) => ({
        ...item,
        accountId: session.accountId,
        id: newId(),
        attendanceId,
        createdBy: session.userId,
      })),
    );
  }

  /** An attendance (not deleted) locked for a change; 409 attendance_finished once finished. */
  async function lockOpen(tx: TenantTx, session: AuthSession, patientId: string, id: string) {
    await requirePatient({ tx: tx, accountId: session.accountId }, patientId, { lock: true });
    const current = await repository.findAttendanceForUpdate(tx, session.accountId, patientId, id);
    if (!current) throw new AppError('attendance_not_found');
    if (current.finished) throw new AppError('attendance_finished');
    return current;
  }

  return {
    async list(session: AuthSession, patientId: string, query: PageQuery) {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId);
        const { rows, total } = await repository.listAttendances(tx, session.accountId, patientId, query);
        return { data: rows.map(toAttendanceSummary), total, page: query.page, pageSize: query.pageSize };
      });
    },

    async get(session: AuthSession, patientId: string, id: string): Promise<Attendance> {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId);
        return getAttendance(tx, session.accountId, patientId, id);
      });
    },

    async create(session: AuthSession, patientId: string, input: AttendanceInput, ip: string): Promise<Attendance> {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId, { lock: true });
        await requireProfessional({ tx: tx, accountId: session.accountId }, input.professionalId);
        await checkItems(tx, session.accountId, input, new Map());
        const id = newId();
        const computed = compute(input);
        await repository.insertAttendance(tx, {
          ...computed.columns,
          finishedAt: computed.columns.finished ? new Date() : null,
          accountId: session.accountId,
          id,
          patientId,
          createdBy: session.userId,
          updatedBy: session.userId,
        });
        await writeLinesAndItems(tx, session, id, computed, input);
        await applyStockMovements(
          tx,
          { accountId: session.accountId, userId: session.userId },
          stockDifference(id, new Map(), quantities(usedItems(input)), computed.columns.titleResume),
        );
        await recordAuditEvent(tx, {
          accountId: session.accountId,
          userId: session.userId,
          patientId,
          action: 'attendance_created',
          entity: 'attendance',
          entityId: id,
          ip,
          after: auditShape(computed.columns, computed.lines, usedItems(input)),
        });
        return getAttendance(tx, session.accountId, patientId, id);
      });
    },

    async update(
      session: AuthSession,
      patientId: string,
      id: string,
      input: UpdateInput,
      ip: string,
    ): Promise<Attendance> {
      return db.withTenant(session.accountId, async (tx) => {
        const current = await lockOpen(tx, session, patientId, id);
        if (current.version !== input.version) {
          throw new AppError('version_conflict', {
            current: await getAttendance(tx, session.accountId, patientId, id),
          });
        }
        if (input.professionalId !== current.professionalId) {
          await requireProfessional({ tx: tx, accountId: session.accountId }, input.professionalId);
        }
        const [currentLines, currentItems] = [
          await repository.listLines(tx, session.accountId, id),
          await repository.listItems(tx, session.accountId, id),
        ];
        const previous = quantities(currentItems);
        await checkItems(tx, session.accountId, input, previous);
        const computed = compute(input);
        await repository.updateAttendance(tx, session.accountId, id, {
          ...computed.columns,
          finishedAt: computed.columns.finished ? new Date() : null,
          updatedBy: session.userId,
        });
        await repository.retireLinesAndItems(tx, session.accountId, id, session.userId);
        await writeLinesAndItems(tx, session, id, computed, input);
        await applyStockMovements(
          tx,
          { accountId: session.accountId, userId: session.userId },
          stockDifference(id, previous, quantities(usedItems(input)), computed.columns.titleResume),
        );
        const { before, after } = changedFields(
          auditShape(current, currentLines, currentItems),
          auditShape(computed.columns, computed.lines, usedItems(input)),
        );
        await recordAuditEvent(tx, {
          accountId: session.accountId,
          userId: session.userId,
          patientId,
          action: 'attendance_updated',
          entity: 'attendance',
          entityId: id,
          ip,
          before,
          after,
        });
        return getAttendance(tx, session.accountId, patientId, id);
      });
    },

    async remove(session: AuthSession, patientId: string, id: string, ip: string): Promise<void> {
      await db.withTenant(session.accountId, async (tx) => {
        const current = await lockOpen(tx, session, patientId, id);
        const [currentLines, currentItems] = [
          await repository.listLines(tx, session.accountId, id),
          await repository.listItems(tx, session.accountId, id),
        ];
        await repository.softDeleteAttendance(tx, session.accountId, id, session.userId);
        await applyStockMovements(
          tx,
          { accountId: session.accountId, userId: session.userId },
          stockDifference(id, quantities(currentItems), new Map(), current.titleResume),
        );
        await recordAuditEvent(tx, {
          accountId: session.accountId,
          userId: session.userId,
          patientId,
          action: 'attendance_deleted',
          entity: 'attendance',
          entityId: id,
          ip,
          before: { ...auditShape(current, currentLines, currentItems), version: current.version },
          after: { deleted: true },
        });
      });
    },

    async addAddendum(
      session: AuthSession,
      patientId: string,
      id: string,
      text: string,
      ip: string,
    ): Promise<Attendance> {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId, { lock: true });
        const current = await repository.findAttendanceForUpdate(tx, session.accountId, patientId, id);
        if (!current) throw new AppError('attendance_not_found');
        if (!current.finished) throw new AppError('attendance_not_finished');
        const addendumId = newId();
        await repository.insertAddendum(tx, {
          accountId: session.accountId,
          id: addendumId,
          attendanceId: id,
          text,
          createdBy: session.userId,
        });
        await recordAuditEvent(tx, {
          accountId: session.accountId,
          userId: session.userId,
          patientId,
          action: 'attendance_addendum_created',
          entity: 'attendance',
          entityId: id,
          ip,
          after: { addendumId, text },
        });
        return getAttendance(tx, session.accountId, patientId, id);
      });
    },

    async changes(session: AuthSession, patientId: string, id: string, page: PageQuery) {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId);
        if (!(await repository.findAttendance(tx, session.accountId, patientId, id))) {
          throw new AppError('attendance_not_found');
        }
        return listRecordChanges(tx, session.accountId, { entity: 'attendance', entityId: id }, page);
      });
    },
  };
}

export type AttendancesService = ReturnType<typeof createAttendancesService>;
