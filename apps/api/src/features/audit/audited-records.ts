import type { ErrorCode } from '@odontia/shared/errors';
import type { Page } from '@odontia/shared/schemas/common';
import type { PageQuery, RecordChange } from '@odontia/shared/schemas/records';
import type { SQL } from 'drizzle-orm';
import type { RequestContext } from '../../context.ts';
import type { PageRequest, RecordRepository, RowWithNames } from '../../db/records.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { type AuditActor, recordAudit } from './audit.repository.ts';
import { changedFields, listRecordChanges } from './record-changes.ts';

/**
 * The audited life of a versioned, soft-deleted record (docs/adding-a-domain.md, ARCHITECTURE §4):
 * read (404 `<entity>_not_found`, also for another clinic's or patient's id), create, edit under
 * lock with its version (409 `version_conflict` with the current record when stale), soft delete,
 * and its history of changes. Each write records `<entity>_created|updated|deleted` in the same
 * transaction with what changed. A domain service adds only its own rules around these steps.
 */

// biome-ignore lint/suspicious/noExplicitAny: the repository's table type is checked where it is built
export type AnyRecordRepository = RecordRepository<any, any, any>;
type ScopeOf<TRepository extends AnyRecordRepository> = Parameters<TRepository['find']>[1];
type StoredRow<TRepository extends AnyRecordRepository> = NonNullable<
  Awaited<ReturnType<TRepository['findForUpdate']>>
>;
type NamedRow<TRepository extends AnyRecordRepository> = NonNullable<Awaited<ReturnType<TRepository['find']>>>;
type InsertOf<TRepository extends AnyRecordRepository> = Parameters<TRepository['insert']>[1];

export interface AuditedRecordOptions<TRepository extends AnyRecordRepository, TRecord, TColumns> {
  repository: TRepository;
  /** The audit entity and the prefix of its actions: 'diagnosis' → diagnosis_created … */
  entity: string;
  notFound: ErrorCode;
  /** The record as the API answers it. */
  present: (row: NamedRow<TRepository>) => TRecord;
  /** The audited (editable) columns of a stored row, to compare with an edit's. */
  columnsOf: (row: StoredRow<TRepository>) => TColumns;
  /** The patient an event belongs to (default: the scope's `patientId`). */
  patientOf?: (scope: ScopeOf<TRepository>, id: string) => string | null;
}

export function auditedRecords<
  TRepository extends AnyRecordRepository,
  TRecord,
  TColumns extends Record<string, unknown>,
>(options: AuditedRecordOptions<TRepository, TRecord, TColumns>) {
  const { repository, entity, notFound, present, columnsOf } = options;
  const auditRecord = recordAudit(entity);
  type Scope = ScopeOf<TRepository>;
  const patientOf =
    options.patientOf ?? ((scope: Scope) => ((scope as { patientId?: string }).patientId ?? null) as string | null);

  async function get(ctx: AuditActor, scope: Scope, id: string): Promise<TRecord> {
    const row = (await repository.find(ctx, scope, id)) as NamedRow<TRepository> | undefined;
    if (!row) throw new AppError(notFound);
    return present(row);
  }

  /** The live row locked for a write; 404 when there is none. */
  async function lock(ctx: AuditActor, scope: Scope, id: string): Promise<StoredRow<TRepository>> {
    const current = (await repository.findForUpdate(ctx, scope, id)) as StoredRow<TRepository> | undefined;
    if (!current) throw new AppError(notFound);
    return current;
  }

  return {
    get,
    lock,

    async page(ctx: AuditActor, scope: Scope, query: PageRequest, filter?: SQL): Promise<Page<TRecord>> {
      const { rows, total } = await repository.page(ctx, scope, query, filter);
      return {
        data: (rows as RowWithNames<never>[]).map((row) => present(row as NamedRow<TRepository>)),
        total,
        page: query.page,
        pageSize: query.pageSize,
      };
    },

    /** Inserts the record (`columns` audited, `extra` stored too) and answers it as read back. */
    async create(
      ctx: AuditActor,
      scope: Scope,
      columns: TColumns,
      extra: Partial<InsertOf<TRepository>> = {},
    ): Promise<TRecord> {
      const id = (extra as { id?: string }).id ?? newId();
      await repository.insert(ctx, { ...scope, ...extra, ...columns, id });
      await auditRecord(ctx, id, 'created', {
        patientId: patientOf(scope, id),
        after: columns,
      });
      return get(ctx, scope, id);
    },

    /**
     * Writes `next` over the locked current version when `version` is still current (409 with
     * the current record otherwise); `check` applies the domain's rules to the current row
     * first. `next` may be worked out from the current row (a partial edit keeps what it omits).
     * The audit event holds only the fields that changed.
     */
    async update(
      ctx: AuditActor,
      scope: Scope,
      id: string,
      change: {
        version: number;
        next: TColumns | ((current: StoredRow<TRepository>) => TColumns);
        extra?: Partial<InsertOf<TRepository>>;
      },
      check?: (current: StoredRow<TRepository>) => Promise<void> | void,
    ): Promise<TRecord> {
      const current = await lock(ctx, scope, id);
      if (current.version !== change.version) {
        throw new AppError('version_conflict', { current: await get(ctx, scope, id) });
      }
      await check?.(current);
      const next = typeof change.next === 'function' ? change.next(current) : change.next;
      const { before, after } = changedFields(columnsOf(current), next);
      await repository.update(ctx, id, { ...change.extra, ...next });
      await auditRecord(ctx, id, 'updated', {
        patientId: patientOf(scope, id),
        before,
        after,
      });
      return get(ctx, scope, id);
    },

    /** Soft delete: hidden from now on; the audit keeps the last version. */
    async remove(
      ctx: AuditActor,
      scope: Scope,
      id: string,
      check?: (current: StoredRow<TRepository>) => Promise<void> | void,
    ): Promise<void> {
      const current = await lock(ctx, scope, id);
      await check?.(current);
      await repository.softDelete(ctx, id);
      await auditRecord(ctx, id, 'deleted', {
        patientId: patientOf(scope, id),
        before: { ...columnsOf(current), version: current.version },
        after: { deleted: true },
      });
    },

    /** The record's history of changes (its audit events), newest first. */
    async changes(ctx: AuditActor, scope: Scope, id: string, query: PageQuery): Promise<Page<RecordChange>> {
      if (!(await repository.find(ctx, scope, id))) throw new AppError(notFound);
      return listRecordChanges(ctx.tx, ctx.accountId, { entity, entityId: id }, query);
    },
  };
}

/** A clinic's audited records (`auditedRecords()` with no scope besides the clinic), as the service below uses them. */
interface ClinicRecords<TRecord, TColumns> {
  get(ctx: AuditActor, scope: Record<string, never>, id: string): Promise<TRecord>;
  create(ctx: AuditActor, scope: Record<string, never>, columns: TColumns): Promise<TRecord>;
  update(
    ctx: AuditActor,
    scope: Record<string, never>,
    id: string,
    change: { version: number; next: TColumns },
  ): Promise<TRecord>;
  remove(ctx: AuditActor, scope: Record<string, never>, id: string): Promise<void>;
  changes(ctx: AuditActor, scope: Record<string, never>, id: string, query: PageQuery): Promise<Page<RecordChange>>;
}

/**
 * The one, create, edit, delete and history of a clinic's record whose only rule is its columns
 * (chairs, points of sale, authorization templates): the input's columns by `columnsOf`; `guard`
 * wraps each write when it has one (a unique code's 409). The list is the domain's (its filters).
 */
export function clinicRecordService<TRecord, TInput, TColumns>(
  records: ClinicRecords<TRecord, TColumns>,
  columnsOf: (input: TInput) => TColumns,
  guard: (ctx: RequestContext, input: TInput, write: () => Promise<TRecord>) => Promise<TRecord> = (
    _ctx,
    _input,
    write,
  ) => write(),
) {
  type One = { ctx: RequestContext; id: string };
  return {
    get: ({ ctx, id }: One) => records.get(ctx, {}, id),
    create: ({ ctx, input }: { ctx: RequestContext; input: TInput }) =>
      guard(ctx, input, () => records.create(ctx, {}, columnsOf(input))),
    update: ({ ctx, id, input }: One & { input: TInput & { version: number } }) =>
      guard(ctx, input, () => records.update(ctx, {}, id, { version: input.version, next: columnsOf(input) })),
    remove: ({ ctx, id }: One) => records.remove(ctx, {}, id),
    changes: ({ ctx, id, query }: One & { query: PageQuery }) => records.changes(ctx, {}, id, query),
  };
}
