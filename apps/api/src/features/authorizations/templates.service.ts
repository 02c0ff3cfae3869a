import type {
  AuthorizationTemplate,
  AuthorizationTemplateInput,
  AuthorizationTemplatesQuery,
} from '@odontia/shared/schemas/authorizations';
import type { RequestContext } from '../../context.ts';
import { presentStamps } from '../../db/records.ts';
import { auditedRecords, clinicRecordService } from '../audit/audited-records.ts';
import { templatesFilter, templatesRepository } from './templates.repository.ts';

/**
 * The clinic's templates (issue 6): informed-consent ones and, by `kind`, health certificate ones
 * (issue 24). Administrators write them (settings.manage); every clinician reads them to write an
 * authorization or a certificate. Audited (entity 'authorization_template');
 * delete is soft, and authorizations already written from a template keep their text.
 */

// A stored row's kind reads as text (the column's check keeps it one of `templateKinds`).
type Columns = Pick<AuthorizationTemplateInput, 'title' | 'body' | 'active'> & { kind: string };
const columnsOf = (input: Columns): Columns => ({
  kind: input.kind,
  title: input.title,
  body: input.body,
  active: input.active,
});

const records = auditedRecords({
  repository: templatesRepository,
  entity: 'authorization_template',
  notFound: 'authorization_template_not_found',
  columnsOf,
  present: (row): AuthorizationTemplate => ({
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    active: row.active,
    ...presentStamps(row),
  }),
});

export const templatesService = {
  list({ ctx, query }: { ctx: RequestContext; query: AuthorizationTemplatesQuery }) {
    const filter = templatesFilter({
      kind: query.kind,
      q: query.q,
      active: query.active ? query.active === 'true' : undefined,
    });
    return records.page(ctx, {}, query, filter);
  },

  ...clinicRecordService(records, (input: AuthorizationTemplateInput) => columnsOf(input)),
};
