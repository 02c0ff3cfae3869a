import type { RoundingRule } from '@odontia/shared/payer-split';
import type { SplitLine } from '@odontia/shared/schemas/payers';
import { type SQL, sql } from 'drizzle-orm';
import type { TxContext } from '../../context.ts';

/**
 * The split lines as the API answers them (with the patient's name and the line's rejection), by
 * ids or a presentation's page, in one query each (a presentation's lines through the index of
 * payer_presentation_lines, by date).
 */

type Row = {
  id: string;
  source_kind: 'attendance_fee' | 'attendance_line' | 'budget_line';
  source_id: string;
  attendance_id: string | null;
  date: string | Date;
  description: string;
  treatment_code: string | null;
  member_number: string;
  patient_id: string;
  patient_name: string;
  quantity: string;
  covered_quantity: string;
  line_total: string;
  payer_amount: string;
  patient_amount: string;
  rounding: RoundingRule;
  authorization_number: string | null;
  patient_document_id: string | null;
  payer_document_id: string | null;
  presentation_id: string | null;
  rejection_id: string | null;
  rejection_amount: string | null;
  rejection_reason: string | null;
  rejection_destination: 'patient' | 'loss' | null;
  rejection_credit_note_id: string | null;
  rejection_patient_document_id: string | null;
};

const dayText = (value: string | Date) => (typeof value === 'string' ? value : value.toISOString().slice(0, 10));

function present(row: Row): SplitLine {
  return {
    id: row.id,
    sourceKind: row.source_kind,
    sourceId: row.source_id,
    attendanceId: row.attendance_id,
    date: dayText(row.date),
    description: row.description,
    treatmentCode: row.treatment_code,
    memberNumber: row.member_number,
    patientId: row.patient_id,
    patientName: row.patient_name,
    quantity: row.quantity,
    coveredQuantity: row.covered_quantity,
    lineTotal: row.line_total,
    payerAmount: row.payer_amount,
    patientAmount: row.patient_amount,
    rounding: row.rounding,
    authorizationNumber: row.authorization_number,
    patientDocumentId: row.patient_document_id,
    payerDocumentId: row.payer_document_id,
    presentationId: row.presentation_id,
    rejection: row.rejection_id
      ? {
          id: row.rejection_id,
          amount: row.rejection_amount as string,
          reason: row.rejection_reason as string,
          destination: row.rejection_destination as 'patient' | 'loss',
          creditNoteId: row.rejection_credit_note_id as string,
          patientDocumentId: row.rejection_patient_document_id,
        }
      : null,
  };
}

function select(ctx: TxContext, where: SQL, tail: SQL = sql``) {
  return ctx.tx.execute<Row>(sql`
    select s.id, s.source_kind, s.source_id, s.attendance_id, s.date::text as date, s.description, s.treatment_code,
           s.member_number, s.patient_id, concat_ws(', ', p.last_name, p.first_name) as patient_name,
           s.quantity::text as quantity, s.covered_quantity::text as covered_quantity,
           s.line_total::text as line_total, s.payer_amount::text as payer_amount, s.patient_amount::text as patient_amount,
           s.rounding, s.authorization_number, s.patient_document_id, s.payer_document_id, pl.presentation_id,
           r.id as rejection_id, r.amount::text as rejection_amount, r.reason as rejection_reason,
           r.destination as rejection_destination, r.credit_note_id as rejection_credit_note_id,
           r.patient_document_id as rejection_patient_document_id
    from payer_split_lines s
    join patients p on p.account_id = s.account_id and p.id = s.patient_id
    left join payer_rejections r on r.account_id = s.account_id and r.split_line_id = s.id
    left join payer_presentation_lines pl on pl.account_id = s.account_id and pl.date = s.date and pl.split_line_id = s.id
    where s.account_id = ${ctx.accountId}::uuid and ${where}
    ${tail}`);
}

export async function splitLinesOf(ctx: TxContext, ids: string[]): Promise<SplitLine[]> {
  if (ids.length === 0) return [];
  const { rows } = await select(
    ctx,
    sql`s.id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
    sql`order by s.date, s.description, s.id`,
  );
  return rows.map(present);
}

/** A page of a presentation's lines, by date. */
export async function presentationLines(
  ctx: TxContext,
  presentationId: string,
  page: { page: number; pageSize: number },
): Promise<SplitLine[]> {
  const { rows } = await select(
    ctx,
    sql`pl.presentation_id = ${presentationId}::uuid`,
    sql`order by pl.date, pl.split_line_id limit ${page.pageSize} offset ${(page.page - 1) * page.pageSize}`,
  );
  return rows.map(present);
}

/** Every line of a presentation, for its PDF and XLSX (by date). */
export async function allPresentationLines(ctx: TxContext, presentationId: string): Promise<SplitLine[]> {
  const { rows } = await select(
    ctx,
    sql`pl.presentation_id = ${presentationId}::uuid`,
    sql`order by pl.date, pl.split_line_id`,
  );
  return rows.map(present);
}
