import { asc, desc } from 'drizzle-orm';
import { recordRepository } from '../../db/records.ts';
import { settlementRules } from '../../db/schema/index.ts';

/** The professionals' settlement rules (issue 40), by professional, newest validity first. */
export const settlementRulesRepository = recordRepository({
  table: settlementRules,
  scope: [],
  people: { professionalName: settlementRules.professionalId },
  order: [asc(settlementRules.professionalId), desc(settlementRules.validFrom), asc(settlementRules.id)],
});
