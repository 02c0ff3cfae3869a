import type { PageQuery } from '@odontia/shared/schemas/records';
import type { Treatment, treatmentContracts, treatmentsQuerySchema } from '@odontia/shared/schemas/schedules';
import type { z } from 'zod';
import { guardUnique } from '../../db/errors.ts';
import { AppError } from '../../lib/app-error.ts';
import type { RequestContext } from '../../plugins/routes.ts';
import { auditedRecords } from '../audit/audited-records.ts';
import { treatmentsFilter, treatmentsRepository } from './schedules.repository.ts';

/**
 * What the clinic does and how long it usually takes (issue 16): the reason of an appointment
 * and its default duration. settings.manage writes them; audited (entity 'treatment'); soft delete
 * (appointments already booked keep theirs).
 */

type Input = z.output<typeof treatmentContracts.create>;
type Columns = Pick<Input, 'code' | 'name' | 'durationMinutes' | 'color' | 'active'>;
const columnsOf = (input: {
  code: string | null;
  name: string;
  durationMinutes: number;
  color: string | null;
  active: boolean;
}): Columns => ({
  code: input.code ?? null,
  name: input.name,
  durationMinutes: input.durationMinutes,
  color: input.color ?? null,
  active: input.active,
});

const records = auditedRecords({
  repository: treatmentsRepository,
  entity: 'treatment',
  notFound: 'treatment_not_found',
  columnsOf,
  present: (row): Treatment => ({
    id: row.id,
    code: row.code,
    name: row.name,
    durationMinutes: row.durationMinutes,
    color: row.color,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    createdByName: row.createdByName,
    updatedAt: row.updatedAt.toISOString(),
    updatedByName: row.updatedByName,
    version: row.version,
  }),
});

type One = { ctx: RequestContext; id: string };

/** The only unique index of a treatment is its code's (issue 18). */
async function codeTaken(): Promise<never> {
  throw new AppError('treatment_code_exists', { fields: [{ path: 'code', code: 'treatment_code_exists' }] });
}

export const treatmentsService = {
  list: ({ ctx, query }: { ctx: RequestContext; query: z.output<typeof treatmentsQuerySchema> }) =>
    records.page(
      ctx,
      {},
      query,
      treatmentsFilter({ q: query.q, active: query.active ? query.active === 'true' : undefined }),
    ),
  get: ({ ctx, id }: One) => records.get(ctx, {}, id),
  create: ({ ctx, input }: { ctx: RequestContext; input: Input }) =>
    guardUnique(ctx.tx, () => records.create(ctx, {}, columnsOf(input)), codeTaken),
  update: ({ ctx, id, input }: One & { input: Input & { version: number } }) =>
    guardUnique(
      ctx.tx,
      () => records.update(ctx, {}, id, { version: input.version, next: columnsOf(input) }),
      codeTaken,
    ),
  remove: ({ ctx, id }: One) => records.remove(ctx, {}, id),
  changes: ({ ctx, id, query }: One & { query: PageQuery }) => records.changes(ctx, {}, id, query),
};
