import { sql } from 'drizzle-orm';
import type { TxContext as Ctx } from '../../context.ts';

/**
 * The next number of a series of the clinic's own that is no point of sale's and has no chain
 * (issue 35: purchase orders, series `OC`): the same `sale_sequences` row and upsert an issue
 * takes, locked until the transaction ends, so concurrent takers wait in turn and a rollback
 * gives the number back — gap-free as the sales' numbering.
 */
export async function takeSequenceNumber(ctx: Ctx, series: string, documentType: string): Promise<number> {
  const { rows } = await ctx.tx.execute<{ last_number: number }>(sql`
    insert into sale_sequences (account_id, point_of_service, document_type, last_number)
    values (${ctx.accountId}::uuid, ${series}, ${documentType}, 1)
    on conflict (account_id, point_of_service, document_type)
      do update set last_number = sale_sequences.last_number + 1
    returning last_number`);
  const taken = rows[0];
  if (!taken) throw new Error('sequence row not written');
  return Number(taken.last_number);
}
