import type { Chair, chairContracts } from '@odontia/shared/schemas/schedules';
import type { z } from 'zod';
import type { RequestContext } from '../../context.ts';
import { presentStamps } from '../../db/records.ts';
import { auditedRecords, clinicRecordService } from '../audit/audited-records.ts';
import { chairsRepository } from './schedules.repository.ts';

/**
 * The clinic's chairs (sillones) or boxes (issue 16): each active one is a column of the
 * calendar, in `sortOrder` then name. settings.manage writes them; audited (entity 'chair'); soft delete.
 */

type Input = z.output<typeof chairContracts.create>;
type Columns = { name: string; sortOrder: number; active: boolean };
const columnsOf = (input: Columns): Columns => ({
  name: input.name,
  sortOrder: input.sortOrder,
  active: input.active,
});

const records = auditedRecords({
  repository: chairsRepository,
  entity: 'chair',
  notFound: 'chair_not_found',
  columnsOf,
  present: (row): Chair => ({
    id: row.id,
    name: row.name,
    sortOrder: row.sortOrder,
    active: row.active,
    ...presentStamps(row),
  }),
});

export const chairsService = {
  list: ({ ctx, query }: { ctx: RequestContext; query: { page: number; pageSize: number } }) =>
    records.page(ctx, {}, query),
  ...clinicRecordService(records, (input: Input) => columnsOf(input)),
};
