import { type AnyColumn, and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { TxContext as Scope } from '../../context.ts';
import { liveWhere, sameClinicRow } from '../../db/records.ts';
import {
  attendanceLines,
  attendances,
  budgetDecisions,
  commercialDocuments,
  customers,
  documentLines,
  treatments,
  users,
} from '../../db/schema/index.ts';

/** The SQL of budgets and of invoicing attendances (issue 18); see budgets.service.ts. */

export type DocumentRow = typeof commercialDocuments.$inferSelect;
export type DecisionRow = typeof budgetDecisions.$inferSelect & { createdByName: string | null };

const liveSale = (scope: Scope) =>
  and(
    eq(commercialDocuments.accountId, scope.accountId),
    eq(commercialDocuments.side, 'sale'),
    isNull(commercialDocuments.deletedAt),
  );

/** A live sale of the clinic, locked for the transaction when asked. */
export async function findSale(scope: Scope, id: string, { lock = false } = {}): Promise<DocumentRow | undefined> {
  const query = scope.tx
    .select()
    .from(commercialDocuments)
    .where(and(liveSale(scope), eq(commercialDocuments.id, id)));
  const [row] = lock ? await query.for('no key update') : await query;
  return row;
}

/** A document's lines in order, with the price list's code of their treatment. */
export function linesOf(scope: Scope, documentId: string) {
  return scope.tx
    .select({ line: documentLines, treatmentCode: treatments.code })
    .from(documentLines)
    .leftJoin(treatments, sameClinicRow(treatments, documentLines, documentLines.treatmentId))
    .where(and(eq(documentLines.accountId, scope.accountId), eq(documentLines.documentId, documentId)))
    .orderBy(asc(documentLines.position));
}
export type LineWithCode = Awaited<ReturnType<typeof linesOf>>[number];

export async function decisionOf(scope: Scope, documentId: string): Promise<DecisionRow | undefined> {
  const [row] = await scope.tx
    .select({ decision: budgetDecisions, createdByName: users.completeName })
    .from(budgetDecisions)
    .leftJoin(users, sameClinicRow(users, budgetDecisions, budgetDecisions.createdBy))
    .where(and(eq(budgetDecisions.accountId, scope.accountId), eq(budgetDecisions.documentId, documentId)));
  return row ? { ...row.decision, createdByName: row.createdByName } : undefined;
}

export async function insertDecision(scope: Scope, row: typeof budgetDecisions.$inferInsert): Promise<void> {
  await scope.tx.insert(budgetDecisions).values(row);
}

/** Whether `billed_sources` holds this source of the row's clinic (an invoice issued bills it). */
function isBilled(row: { accountId: AnyColumn }, kind: 'attendance_line' | 'attendance_fee', sourceId: AnyColumn) {
  return sql<boolean>`exists (select 1 from billed_sources b where b.account_id = ${row.accountId}
    and b.source_kind = ${kind} and b.source_id = ${sourceId})`;
}

/**
 * The live attendance lines that carry out these budget lines (of live attendances), with whether
 * each is invoiced (billed_sources attendance_line, or its attendance's fee… no: the line itself).
 */
export function attendanceLinesOfBudgetLines(scope: Scope, budgetLineIds: string[]) {
  if (budgetLineIds.length === 0) return Promise.resolve([]);
  return scope.tx
    .select({
      budgetLineId: attendanceLines.budgetLineId,
      attendanceLineId: attendanceLines.id,
      attendanceId: attendances.id,
      date: attendances.date,
      titleResume: attendances.titleResume,
      quantity: attendanceLines.quantity,
      billed: isBilled(attendanceLines, 'attendance_line', attendanceLines.id),
    })
    .from(attendanceLines)
    .innerJoin(
      attendances,
      and(sameClinicRow(attendances, attendanceLines, attendanceLines.attendanceId), isNull(attendances.deletedAt)),
    )
    .where(liveWhere(attendanceLines, scope.accountId, attendanceLines.budgetLineId, budgetLineIds))
    .orderBy(asc(attendances.date), asc(attendanceLines.position));
}

/** Which of these budget lines are in billed_sources. */
export async function billedBudgetLines(scope: Scope, budgetLineIds: string[]): Promise<Set<string>> {
  if (budgetLineIds.length === 0) return new Set();
  const { rows } = await scope.tx.execute<{ source_id: string }>(sql`
    select source_id from billed_sources
    where account_id = ${scope.accountId}::uuid and source_kind = 'budget_line'
      and source_id in (${sql.join(
        budgetLineIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`);
  return new Set(rows.map((row) => row.source_id));
}

/** The live documents made from this one (related_document_id), newest first. */
export function documentsFrom(scope: Scope, documentId: string) {
  return scope.tx
    .select({
      id: commercialDocuments.id,
      documentType: commercialDocuments.documentType,
      status: commercialDocuments.status,
      pointOfService: commercialDocuments.pointOfService,
      documentNumber: commercialDocuments.documentNumber,
      date: commercialDocuments.date,
      total: commercialDocuments.total,
    })
    .from(commercialDocuments)
    .where(and(liveSale(scope), eq(commercialDocuments.relatedDocumentId, documentId)))
    .orderBy(desc(commercialDocuments.createdAt), desc(commercialDocuments.id));
}

/**
 * The patient's live billable attendances (all, or these) with their fee, professional and each
 * live line — its treatment's VAT rate and whether it (or the budget line it carries out) is
 * already invoiced — oldest first.
 */
export async function billableAttendances(scope: Scope, patientId: string, attendanceIds: string[] | null) {
  const rows = await scope.tx
    .select({
      id: attendances.id,
      date: attendances.date,
      titleResume: attendances.titleResume,
      professionalId: attendances.professionalId,
      professionalName: users.completeName,
      finished: attendances.finished,
      billable: attendances.billable,
      attendanceFee: attendances.attendanceFee,
      feeBilled: isBilled(attendances, 'attendance_fee', attendances.id),
    })
    .from(attendances)
    .leftJoin(users, sameClinicRow(users, attendances, attendances.professionalId))
    .where(
      and(
        eq(attendances.accountId, scope.accountId),
        eq(attendances.patientId, patientId),
        isNull(attendances.deletedAt),
        attendanceIds ? inArray(attendances.id, attendanceIds) : eq(attendances.billable, true),
      ),
    )
    .orderBy(asc(attendances.date), asc(attendances.id));
  const ids = rows.map((row) => row.id);
  const lines =
    ids.length === 0
      ? []
      : await scope.tx
          .select({
            id: attendanceLines.id,
            attendanceId: attendanceLines.attendanceId,
            position: attendanceLines.position,
            description: attendanceLines.description,
            itemId: attendanceLines.itemId,
            treatmentId: attendanceLines.treatmentId,
            tooth: attendanceLines.tooth,
            budgetLineId: attendanceLines.budgetLineId,
            quantity: attendanceLines.quantity,
            price: attendanceLines.price,
            vatRate: treatments.vatRate,
            billed: sql<boolean>`exists (select 1 from billed_sources b where b.account_id = ${attendanceLines.accountId}
              and ((b.source_kind = 'attendance_line' and b.source_id = ${attendanceLines.id})
                or (b.source_kind = 'budget_line' and b.source_id = ${attendanceLines.budgetLineId})))`,
          })
          .from(attendanceLines)
          .leftJoin(treatments, sameClinicRow(treatments, attendanceLines, attendanceLines.treatmentId))
          .where(liveWhere(attendanceLines, scope.accountId, attendanceLines.attendanceId, ids))
          .orderBy(asc(attendanceLines.attendanceId), asc(attendanceLines.position));
  return rows.map((row) => ({ ...row, lines: lines.filter((line) => line.attendanceId === row.id) }));
}
export type BillableAttendanceRow = Awaited<ReturnType<typeof billableAttendances>>[number];

/** The patient's issued budgets with an accepted answer, oldest first. */
export function acceptedBudgetsOf(scope: Scope, patientId: string) {
  return scope.tx
    .select({ document: commercialDocuments })
    .from(commercialDocuments)
    .innerJoin(
      budgetDecisions,
      and(
        eq(budgetDecisions.accountId, commercialDocuments.accountId),
        eq(budgetDecisions.documentId, commercialDocuments.id),
        eq(budgetDecisions.decision, 'accepted'),
      ),
    )
    .where(
      and(
        liveSale(scope),
        eq(commercialDocuments.patientId, patientId),
        eq(commercialDocuments.documentType, 'budget'),
        eq(commercialDocuments.status, 'issued'),
      ),
    )
    .orderBy(asc(commercialDocuments.date), asc(commercialDocuments.id));
}

/** The patient's customer row when it exists (a GET never makes it). */
export async function customerIdOfPatient(scope: Scope, patientId: string): Promise<string | null> {
  const [row] = await scope.tx
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.accountId, scope.accountId), eq(customers.patientId, patientId)));
  return row?.id ?? null;
}
