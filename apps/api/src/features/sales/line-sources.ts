import { sql } from 'drizzle-orm';
import type { TxContext as Ctx } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import type { CustomerRow } from '../customers/customer-parties.ts';

/**
 * What a sale line says it bills (issue 35): an attendance (its fee, or one of its lines) of the
 * customer's patient (any of the clinic's when the customer is a company or an insurer), or a line of the customer's accepted budget not yet invoiced. Checked on
 * every draft write, so no invoice can claim another patient's line (and make the real one answer
 * nothing_to_invoice) and an unknown or another clinic's id answers 404, never a 500. The database
 * says the same (the keys on attendance_id and source_line_id, the 0028 trigger, billed_sources).
 */

interface SourcedLine {
  attendanceId?: string | null;
  attendanceLineId?: string | null;
  sourceLineId?: string | null;
}

const unique = (values: (string | null | undefined)[]) => [...new Set(values.filter((v): v is string => !!v))];
const uuidList = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

export async function checkLineSources(ctx: Ctx, lines: readonly SourcedLine[], customer: CustomerRow): Promise<void> {
  const attendanceIds = unique(lines.map((line) => line.attendanceId));
  if (attendanceIds.length > 0) {
    const { rows } = await ctx.tx.execute<{ id: string }>(sql`
      select id from attendances
      where account_id = ${ctx.accountId}::uuid and id in (${uuidList(attendanceIds)}) and deleted_at is null
        ${customer.patientId ? sql`and patient_id = ${customer.patientId}::uuid` : sql``}`);
    const found = new Set(rows.map((row) => row.id));
    const missing = attendanceIds.find((id) => !found.has(id));
    if (missing) throw new AppError('attendance_not_found', { attendanceId: missing });
  }
  const withLine = lines.filter((line) => line.attendanceLineId);
  if (withLine.length > 0) {
    const { rows } = await ctx.tx.execute<{ id: string; attendance_id: string }>(sql`
      select id, attendance_id from attendance_lines
      where account_id = ${ctx.accountId}::uuid and id in (${uuidList(unique(withLine.map((line) => line.attendanceLineId)))})`);
    const owner = new Map(rows.map((row) => [row.id, row.attendance_id]));
    const wrong = withLine.find((line) => owner.get(line.attendanceLineId as string) !== line.attendanceId);
    if (wrong) throw new AppError('attendance_not_found', { attendanceLineId: wrong.attendanceLineId });
  }
  const sourceLineIds = unique(lines.map((line) => line.sourceLineId));
  if (sourceLineIds.length === 0) return;
  const { rows } = await ctx.tx.execute<{
    id: string;
    decision: string | null;
    billed_id: string | null;
    billed_point: string | null;
    billed_number: string | null;
  }>(sql`
    select s.id, a.decision, d.id as billed_id, d.point_of_service as billed_point, d.document_number as billed_number
    from document_lines s
    join commercial_documents b on b.account_id = s.account_id and b.id = s.document_id
    left join budget_decisions a on a.account_id = b.account_id and a.document_id = b.id
    left join billed_sources x on x.account_id = s.account_id and x.source_kind = 'budget_line' and x.source_id = s.id
    left join commercial_documents d on d.account_id = x.account_id and d.id = x.document_id
    where s.account_id = ${ctx.accountId}::uuid and s.id in (${uuidList(sourceLineIds)})
      and b.side = 'sale' and b.document_type = 'budget' and b.status = 'issued' and b.deleted_at is null
      and b.customer_id = ${customer.id}::uuid`);
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const id of sourceLineIds) {
    const row = byId.get(id);
    if (!row) throw new AppError('budget_line_not_found', { sourceLineId: id });
    if (row.decision !== 'accepted') throw new AppError('budget_not_accepted', { decision: null });
    if (row.billed_id) {
      throw new AppError('already_invoiced', {
        document: { id: row.billed_id, pointOfService: row.billed_point, documentNumber: row.billed_number },
      });
    }
  }
}

interface ProfessionalLine extends SourcedLine {
  /** Undefined: the source's; null: none. */
  professionalId?: string | null;
}

/**
 * Each line's professional (issue 35): the one chosen, else the professional of what it bills —
 * the attendance (its fee or one of its lines), or the budget line it comes from. A chosen one
 * must be a user of the clinic who is not a customer (active or not: a draft keeps the one who
 * did the work after they leave); another clinic's id or an unknown one answers 400 on the line's
 * field, as the clinical records' professional does. The key on the column says "of this clinic".
 * Run after checkLineSources, which has checked the sources.
 */
export async function lineProfessionals<Line extends ProfessionalLine>(
  ctx: Ctx,
  lines: readonly Line[],
): Promise<(Line & { professionalId: string | null })[]> {
  const chosen = unique(lines.map((line) => line.professionalId));
  if (chosen.length > 0) {
    const { rows } = await ctx.tx.execute<{ id: string }>(sql`
      select id from users
      where account_id = ${ctx.accountId}::uuid and id in (${uuidList(chosen)}) and level <> 'customer'`);
    const found = new Set(rows.map((row) => row.id));
    const wrong = lines.findIndex((line) => line.professionalId && !found.has(line.professionalId));
    if (wrong >= 0) {
      throw new AppError('validation_error', {
        fields: [{ path: `lines.${wrong}.professionalId`, code: 'invalid_value' }],
      });
    }
  }
  const open = lines.filter((line) => line.professionalId === undefined);
  const attendanceIds = unique(open.map((line) => line.attendanceId));
  const budgetLineIds = unique(open.filter((line) => !line.attendanceId).map((line) => line.sourceLineId));
  const ofAttendance = new Map<string, string>();
  const ofBudgetLine = new Map<string, string | null>();
  if (attendanceIds.length > 0) {
    const { rows } = await ctx.tx.execute<{ id: string; professional_id: string }>(sql`
      select id, professional_id from attendances
      where account_id = ${ctx.accountId}::uuid and id in (${uuidList(attendanceIds)})`);
    for (const row of rows) ofAttendance.set(row.id, row.professional_id);
  }
  if (budgetLineIds.length > 0) {
    const { rows } = await ctx.tx.execute<{ id: string; professional_id: string | null }>(sql`
      select id, professional_id from document_lines
      where account_id = ${ctx.accountId}::uuid and id in (${uuidList(budgetLineIds)})`);
    for (const row of rows) ofBudgetLine.set(row.id, row.professional_id);
  }
  return lines.map((line) => ({
    ...line,
    professionalId:
      line.professionalId !== undefined
        ? line.professionalId
        : line.attendanceId
          ? (ofAttendance.get(line.attendanceId) ?? null)
          : line.sourceLineId
            ? (ofBudgetLine.get(line.sourceLineId) ?? null)
            : null,
  }));
}
