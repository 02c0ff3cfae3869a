import { and, eq, isNull } from 'drizzle-orm';
import type { TxContext } from '../../context.ts';
import { patients } from '../../db/schema/index.ts';

/** The patient an archive is asked for: their name (the file's), or null when not theirs to ask. */
export async function loadPatientRecordHead(ctx: TxContext, patientId: string) {
  const [row] = await ctx.tx
    .select({ firstName: patients.firstName, lastName: patients.lastName })
    .from(patients)
    .where(and(eq(patients.accountId, ctx.accountId), eq(patients.id, patientId), isNull(patients.deletedAt)));
  return row ?? null;
}
