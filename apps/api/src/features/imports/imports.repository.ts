import type {
  ImportKind,
  ImportOutcome,
  ImportPhase,
  ImportReason,
  ImportRowsQuery,
} from '@odontia/shared/schemas/imports';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  accounts,
  importLinks,
  importMappings,
  importRows,
  importRuns,
  patients,
  users,
} from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { newId } from '../../lib/ids.ts';

/** The import tables (issue 42), in the clinic's transaction; every statement names the clinic first. */

type Clinic = { tx: TenantTx; accountId: string };

export type ImportRunRow = typeof importRuns.$inferSelect;

export async function findRun({ tx, accountId }: Clinic, id: string, lock = false): Promise<ImportRunRow | undefined> {
  const query = tx
    .select()
    .from(importRuns)
    .where(and(eq(importRuns.accountId, accountId), eq(importRuns.id, id)));
  const [row] = lock ? await query.for('no key update') : await query;
  return row;
}

/** The clinic's imports, newest first, with their uploader's name (import_runs_recent_idx). */
export async function listRuns({ tx, accountId }: Clinic, page: number, pageSize: number) {
  const rows = await tx
    .select({ row: importRuns, createdByName: users.completeName })
    .from(importRuns)
    .leftJoin(users, and(eq(users.accountId, importRuns.accountId), eq(users.id, importRuns.createdBy)))
    .where(eq(importRuns.accountId, accountId))
    .orderBy(desc(importRuns.createdAt), desc(importRuns.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const [total] = await tx.select({ value: count() }).from(importRuns).where(eq(importRuns.accountId, accountId));
  return { rows, total: total?.value ?? 0 };
}

export async function updateRun({ tx, accountId }: Clinic, id: string, values: Partial<ImportRunRow>): Promise<void> {
  await tx
    .update(importRuns)
    .set(values)
    .where(and(eq(importRuns.accountId, accountId), eq(importRuns.id, id)));
}

export async function insertRun({ tx, accountId }: Clinic, values: Omit<typeof importRuns.$inferInsert, 'accountId'>) {
  await tx.insert(importRuns).values({ ...values, accountId });
}

/** The clinic's settings an import reads: its today, its date format, its patients' language, its country and currency (amounts). */
export async function clinicOf({ tx, accountId }: Clinic) {
  const [row] = await tx
    .select({
      timeZone: accounts.timeZone,
      dateFormat: accounts.dateFormat,
      language: accounts.defaultLanguage,
      country: accounts.country,
      currency: accounts.systemCurrency,
    })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  if (!row) throw new Error('clinic not found');
  return row;
}

export async function findSavedMapping({ tx, accountId }: Clinic, sourceKey: string, kind: string) {
  const [row] = await tx
    .select({ columns: importMappings.columns })
    .from(importMappings)
    .where(
      and(
        eq(importMappings.accountId, accountId),
        eq(importMappings.sourceKey, sourceKey),
        eq(importMappings.kind, kind),
      ),
    );
  return row?.columns ?? null;
}

export async function saveMapping(
  { tx, accountId, userId }: Clinic & { userId: string },
  sourceKey: string,
  kind: string,
  columns: Record<string, string>,
): Promise<void> {
  await tx
    .insert(importMappings)
    .values({ accountId, id: newId(), sourceKey, kind, columns, updatedBy: userId })
    .onConflictDoUpdate({
      target: [importMappings.accountId, importMappings.sourceKey, importMappings.kind],
      set: { columns, updatedBy: userId, updatedAt: sql`now()` },
    });
}

/** The external ids of `ids` already met in earlier chunks of the same pass. */
export async function seenExternalIds(
  { tx, accountId }: Clinic,
  runId: string,
  phase: ImportPhase,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx
    .select({ externalId: importRows.externalId })
    .from(importRows)
    .where(
      and(
        eq(importRows.accountId, accountId),
        eq(importRows.runId, runId),
        eq(importRows.phase, phase),
        inArray(importRows.externalId, [...ids]),
      ),
    );
  return new Set(rows.map((row) => row.externalId ?? ''));
}

export interface LinkRow {
  externalId: string;
  recordId: string;
  rowHash: string;
  deleted: boolean;
}

/** The links of these external ids with whether their patient was deleted since. */
export async function patientLinks(
  { tx, accountId }: Clinic,
  sourceKey: string,
  ids: readonly string[],
): Promise<Map<string, LinkRow>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({
      externalId: importLinks.externalId,
      recordId: importLinks.recordId,
      rowHash: importLinks.rowHash,
      deleted: sql<boolean>`(${patients.id} is null or ${patients.deletedAt} is not null)`,
    })
    .from(importLinks)
    .leftJoin(patients, and(eq(patients.accountId, importLinks.accountId), eq(patients.id, importLinks.recordId)))
    .where(
      and(
        eq(importLinks.accountId, accountId),
        eq(importLinks.sourceKey, sourceKey),
        eq(importLinks.kind, 'patients'),
        inArray(importLinks.externalId, [...ids]),
      ),
    );
  return new Map(rows.map((row) => [row.externalId, row]));
}

/** The links of these external ids of a kind (whether their record still lives is the kind's to say). */
export async function kindLinks(
  { tx, accountId }: Clinic,
  kind: ImportKind,
  sourceKey: string,
  ids: readonly string[],
): Promise<Map<string, Omit<LinkRow, 'deleted'>>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({ externalId: importLinks.externalId, recordId: importLinks.recordId, rowHash: importLinks.rowHash })
    .from(importLinks)
    .where(
      and(
        eq(importLinks.accountId, accountId),
        eq(importLinks.sourceKey, sourceKey),
        eq(importLinks.kind, kind),
        inArray(importLinks.externalId, [...ids]),
      ),
    );
  return new Map(rows.map((row) => [row.externalId, row]));
}

/** The live patients holding these ID numbers (lower case). */
export async function ssnHolders({ tx, accountId }: Clinic, ssns: readonly string[]): Promise<Map<string, string>> {
  if (ssns.length === 0) return new Map();
  const rows = await tx
    .select({ id: patients.id, ssn: sql<string>`lower(${patients.ssn})` })
    .from(patients)
    .where(
      and(
        eq(patients.accountId, accountId),
        sql`lower(${patients.ssn}) in (${sql.join(
          ssns.map((ssn) => sql`${ssn}`),
          sql`, `,
        )})`,
        sql`${patients.deletedAt} is null`,
      ),
    );
  return new Map(rows.map((row) => [row.ssn, row.id]));
}

export async function upsertLinks(
  { tx, accountId }: Clinic,
  links: readonly { sourceKey: string; externalId: string; recordId: string; rowHash: string; runId: string }[],
  kind: ImportKind = 'patients',
): Promise<void> {
  for (let start = 0; start < links.length; start += 1000) {
    await tx
      .insert(importLinks)
      .values(links.slice(start, start + 1000).map((link) => ({ ...link, accountId, kind })))
      .onConflictDoUpdate({
        target: [importLinks.accountId, importLinks.sourceKey, importLinks.kind, importLinks.externalId],
        set: {
          recordId: sql`excluded.record_id`,
          rowHash: sql`excluded.row_hash`,
          runId: sql`excluded.run_id`,
          updatedAt: sql`now()`,
        },
      });
  }
}

export interface RowResult {
  line: number;
  externalId: string | null;
  outcome: ImportOutcome;
  recordId: string | null;
  label: string | null;
  reasons: ImportReason[];
  cells: string[] | null;
}

export async function insertResults(
  { tx, accountId }: Clinic,
  runId: string,
  phase: ImportPhase,
  results: readonly RowResult[],
): Promise<void> {
  for (let start = 0; start < results.length; start += 1000) {
    await tx
      .insert(importRows)
      .values(results.slice(start, start + 1000).map((row) => ({ ...row, accountId, runId, phase })))
      .onConflictDoNothing();
  }
}

export async function clearResults({ tx, accountId }: Clinic, runId: string, phase: ImportPhase): Promise<void> {
  await tx
    .delete(importRows)
    .where(and(eq(importRows.accountId, accountId), eq(importRows.runId, runId), eq(importRows.phase, phase)));
}

export async function resultsPage(
  { tx, accountId }: Clinic,
  runId: string,
  phase: ImportPhase,
  query: ImportRowsQuery,
) {
  const where = and(
    eq(importRows.accountId, accountId),
    eq(importRows.runId, runId),
    eq(importRows.phase, phase),
    query.outcome ? eq(importRows.outcome, query.outcome) : undefined,
  );
  const rows = await tx
    .select({
      line: importRows.line,
      externalId: importRows.externalId,
      outcome: importRows.outcome,
      recordId: importRows.recordId,
      label: importRows.label,
      reasons: importRows.reasons,
    })
    .from(importRows)
    .where(where)
    .orderBy(asc(importRows.line))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const [total] = await tx.select({ value: count() }).from(importRows).where(where);
  return { rows, total: total?.value ?? 0 };
}

/** The cells of the rows a pass decided to create so far (the appointments' dry run reads their slots again). */
export async function createdCells({ tx, accountId }: Clinic, runId: string, phase: ImportPhase) {
  const rows = await tx
    .select({ line: importRows.line, cells: importRows.cells })
    .from(importRows)
    .where(
      and(
        eq(importRows.accountId, accountId),
        eq(importRows.runId, runId),
        eq(importRows.phase, phase),
        eq(importRows.outcome, 'created'),
        sql`${importRows.cells} is not null`,
      ),
    )
    .orderBy(asc(importRows.line));
  return rows.map((row) => ({ line: row.line, cells: row.cells ?? [] }));
}

/** The refused rows of a pass in line order, a page at a time (for the CSV). */
export async function refusedRows({ tx, accountId }: Clinic, runId: string, phase: ImportPhase, afterLine: number) {
  return tx
    .select({ line: importRows.line, reasons: importRows.reasons, cells: importRows.cells })
    .from(importRows)
    .where(
      and(
        eq(importRows.accountId, accountId),
        eq(importRows.runId, runId),
        eq(importRows.phase, phase),
        eq(importRows.outcome, 'refused'),
        sql`${importRows.line} > ${afterLine}`,
      ),
    )
    .orderBy(asc(importRows.line))
    .limit(2000);
}
