import { sql } from 'drizzle-orm';
import type { TxContext as Ctx } from '../../context.ts';
import { guardUnique } from '../../db/errors.ts';
import { billedSources, type documentLines } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';

/**
 * "Invoiced once" (issue 18): when an invoice is issued, what its lines came from — an
 * attendance's fee, an attendance line, a budget line — is written to `billed_sources`, whose
 * primary key refuses a second invoice of the same source whatever races (409 already_invoiced,
 * naming the invoice that has it). Drafts hold nothing: two drafts may propose the same line, the
 * first issued wins.
 */

type LineRow = typeof documentLines.$inferSelect;
type SourceKind = (typeof billedSources.$inferInsert)['sourceKind'];

export function sourcesOf(lines: LineRow[]): { sourceKind: SourceKind; sourceId: string }[] {
  const sources = new Map<string, { sourceKind: SourceKind; sourceId: string }>();
  for (const line of lines) {
    if (line.attendanceLineId) {
      sources.set(`l:${line.attendanceLineId}`, { sourceKind: 'attendance_line', sourceId: line.attendanceLineId });
    } else if (line.attendanceId) {
      sources.set(`f:${line.attendanceId}`, { sourceKind: 'attendance_fee', sourceId: line.attendanceId });
    }
    if (line.sourceLineId) {
      sources.set(`b:${line.sourceLineId}`, { sourceKind: 'budget_line', sourceId: line.sourceLineId });
    }
  }
  return [...sources.values()];
}

export async function markBilled(ctx: Ctx, documentId: string, lines: LineRow[]): Promise<void> {
  const sources = sourcesOf(lines);
  if (sources.length === 0) return;
  await guardUnique(
    ctx.tx,
    () =>
      ctx.tx
        .insert(billedSources)
        .values(sources.map((source) => ({ accountId: ctx.accountId, documentId, ...source }))),
    async () => {
      const { rows } = await ctx.tx.execute<{ id: string; point_of_service: string; document_number: string }>(sql`
        select d.id, d.point_of_service, d.document_number
        from billed_sources b join commercial_documents d on d.account_id = b.account_id and d.id = b.document_id
        where b.account_id = ${ctx.accountId}::uuid
          and (b.source_kind, b.source_id) in (${sql.join(
            sources.map((source) => sql`(${source.sourceKind}, ${source.sourceId}::uuid)`),
            sql`, `,
          )})
        limit 1`);
      const holder = rows[0];
      throw new AppError('already_invoiced', {
        document: holder
          ? { id: holder.id, pointOfService: holder.point_of_service, documentNumber: holder.document_number }
          : null,
      });
    },
  );
}
