import type {
  AuthorizationTemplate,
  AuthorizationTemplateInput,
  AuthorizationTemplatesQuery,
} from '@odontia/shared/schemas/authorizations';
import type { PageQuery } from '@odontia/shared/schemas/records';
import type { Database } from '../../db/client.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { AuthSession } from '../../plugins/auth.ts';
import { recordAuditEvent } from '../audit/audit.repository.ts';
import { changedFields, listRecordChanges } from '../audit/record-changes.ts';
import * as repository from './templates.repository.ts';

/**
 * The clinic's informed-consent templates (issue 6). Administrators write them (settings.manage);
 * every clinician reads them to write an authorization. Audited (entity 'authorization_template');
 * delete is soft, and authorizations already written from a template keep their text.
 */

type Columns = Pick<AuthorizationTemplateInput, 'title' | 'body' | 'active'>;
const columnsOf = (input: Columns): Columns => ({ title: input.title, body: input.body, active: input.active });

export function toTemplate(row: repository.TemplateRowWithNames): AuthorizationTemplate {
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    createdByName: row.createdByName,
    updatedAt: row.updatedAt.toISOString(),
    updatedByName: row.updatedByName,
    version: row.version,
  };
}

export function createTemplatesService({ db }: { db: Database }) {
  async function getTemplate(tx: TenantTx, accountId: string, id: string): Promise<AuthorizationTemplate> {
    const row = await repository.findTemplate(tx, accountId, id);
    if (!row) throw new AppError('authorization_template_not_found');
    return toTemplate(row);
  }

  return {
    async list(session: AuthSession, query: AuthorizationTemplatesQuery) {
      return db.withTenant(session.accountId, async (tx) => {
        const { rows, total } = await repository.listTemplates(tx, session.accountId, {
          ...(query.q ? { q: query.q } : {}),
          ...(query.active ? { active: query.active === 'true' } : {}),
          page: query.page,
          pageSize: query.pageSize,
        });
        return { data: rows.map(toTemplate), total, page: query.page, pageSize: query.pageSize };
      });
    },

    async get(session: AuthSession, id: string): Promise<AuthorizationTemplate> {
      return db.withTenant(session.accountId, (tx) => getTemplate(tx, session.accountId, id));
    },

    async create(session: AuthSession, input: AuthorizationTemplateInput, ip: string): Promise<AuthorizationTemplate> {
      return db.withTenant(session.accountId, async (tx) => {
        const id = newId();
        const columns = columnsOf(input);
        await repository.insertTemplates(tx, [
          { ...columns, accountId: session.accountId, id, createdBy: session.userId, updatedBy: session.userId },
        ]);
        await recordAuditEvent(tx, {
          accountId: session.accountId,
          userId: session.userId,
          action: 'authorization_template_created',
          entity: 'authorization_template',
          entityId: id,
          ip,
          after: columns,
        });
        return getTemplate(tx, session.accountId, id);
      });
    },

    async update(
      session: AuthSession,
      id: string,
      input: AuthorizationTemplateInput & { version: number },
      ip: string,
    ): Promise<AuthorizationTemplate> {
      return db.withTenant(session.accountId, async (tx) => {
        const current = await repository.findTemplateForUpdate(tx, session.accountId, id);
        if (!current) throw new AppError('authorization_template_not_found');
        if (current.version !== input.version) {
          throw new AppError('version_conflict', { current: await getTemplate(tx, session.accountId, id) });
        }
        const next = columnsOf(input);
        const { before, after } = changedFields(columnsOf(current), next);
        await repository.updateTemplate(tx, session.accountId, id, { ...next, updatedBy: session.userId });
        await recordAuditEvent(tx, {
          accountId: session.accountId,
          userId: session.userId,
          action: 'authorization_template_updated',
          entity: 'authorization_template',
          entityId: id,
          ip,
          before,
          after,
        });
        return getTemplate(tx, session.accountId, id);
      });
    },

    async remove(session: AuthSession, id: string, ip: string): Promise<void> {
      await db.withTenant(session.accountId, async (tx) => {
        const current = await repository.findTemplateForUpdate(tx, session.accountId, id);
        if (!current) throw new AppError('authorization_template_not_found');
        await repository.softDeleteTemplate(tx, session.accountId, id, session.userId);
        await recordAuditEvent(tx, {
          accountId: session.accountId,
          userId: session.userId,
          action: 'authorization_template_deleted',
          entity: 'authorization_template',
          entityId: id,
          ip,
          before: { ...columnsOf(current), version: current.version },
          after: { deleted: true },
        });
      });
    },

    async changes(session: AuthSession, id: string, page: PageQuery) {
      return db.withTenant(session.accountId, async (tx) => {
        await getTemplate(tx, session.accountId, id);
        return listRecordChanges(tx, session.accountId, { entity: 'authorization_template', entityId: id }, page);
      });
    },
  };
}

export type TemplatesService = ReturnType<typeof createTemplatesService>;
