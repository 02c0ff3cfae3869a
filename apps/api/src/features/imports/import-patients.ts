import { createHash } from 'node:crypto';
import { clinicToday } from '@odontia/shared/clinic-time';
import type { DateFormat, Language } from '@odontia/shared/enums';
import type { ImportMapping, ImportPhase, ImportReason } from '@odontia/shared/schemas/imports';
import { importFields } from '@odontia/shared/schemas/imports';
import { patientRequestSchemas } from '@odontia/shared/schemas/patients';
import { isFieldCode } from '@odontia/shared/validation';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { accountCounters, patients } from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { canonicalJson } from '../../lib/canonical-json.ts';
import { newId } from '../../lib/ids.ts';
import { type AuditEventInput, recordAuditEvents } from '../audit/audit.repository.ts';
import { changedFields } from '../audit/record-changes.ts';
import { formatSkuPatient } from '../patients/patients.service.ts';
import { parseClinicDate, parseSex } from './import-columns.ts';
import * as repository from './imports.repository.ts';

/**
 * One chunk of a patients' file (issue 42): each row read with the mapping, checked with the
 * patient's create contract (the clinic's date format, its today), then decided against the links
 * of earlier imports — created, updated (the mapped values changed), unchanged or refused with a
 * reason per field. The dry run stops there; the import writes the chunk in a few statements
 * (multi-row inserts, one counter reservation, one batch of audit events).
 */

export interface ChunkContext {
  tx: TenantTx;
  accountId: string;
  userId: string;
  ip: string;
}

export interface ChunkRun {
  id: string;
  sourceKey: string;
  mapping: ImportMapping;
}

export interface SourceRow {
  line: number;
  cells: string[];
}

type Counts = { created: number; updated: number; unchanged: number; refused: number };

/** The clinic's settings a chunk reads its rows with. */
export interface ChunkClinic {
  timeZone: string;
  dateFormat: string;
  language: string;
}

/** How every kind reads a chunk: decide each row, write it in the import phase, record the outcomes. */
export type ChunkImporter = (
  ctx: ChunkContext,
  run: ChunkRun,
  phase: ImportPhase,
  rows: readonly SourceRow[],
  clinic: ChunkClinic,
) => Promise<Counts>;

const textFields = importFields.patients.filter(
  (field) => field !== 'externalId' && field !== 'birthdate' && field !== 'sex',
);

/** The columns a patient's import writes (the create contract's, language aside). */
type PatientValues = Record<string, unknown> & { firstName: string; lastName: string; ssn: string | null };

function issuesOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]): ImportReason[] {
  const reasons: ImportReason[] = [];
  const seen = new Set<string>();
  for (const issue of issues) {
    const field = String(issue.path[0] ?? 'row');
    if (seen.has(field)) continue;
    seen.add(field);
    reasons.push({ field, code: isFieldCode(issue.message) ? issue.message : 'invalid_value' });
  }
  return reasons;
}

/** Text PostgreSQL can store (jsonb refuses NUL; no half surrogate pairs), for what is kept of a refused row. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what is replaced
const unstorable = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
export const storable = (text: string) => text.replace(unstorable, '\uFFFD').slice(0, 2000);

interface Decided {
  line: number;
  cells: string[];
  externalId: string | null;
  label: string | null;
  reasons: ImportReason[];
  values?: PatientValues;
  hash?: string;
}

export const importPatientsChunk: ChunkImporter = async (ctx, run, phase, rows, clinic) => {
  const today = clinicToday(clinic.timeZone);
  const schema = patientRequestSchemas(() => today).create;
  const language = clinic.language as Language;
  const cell = (cells: string[], field: string) => {
    const index = run.mapping[field];
    return index === undefined ? '' : (cells[index] ?? '').trim();
  };

  const decided: Decided[] = rows.map(({ line, cells }) => {
    const reasons: ImportReason[] = [];
    const externalId = cell(cells, 'externalId');
    if (externalId === '') reasons.push({ field: 'externalId', code: 'required' });
    else if (externalId.length > 100) reasons.push({ field: 'externalId', code: 'too_long' });
    const input: Record<string, unknown> = { language };
    for (const field of textFields) {
      const text = cell(cells, field);
      if (text !== '') input[field] = text;
    }
    const birthText = cell(cells, 'birthdate');
    if (birthText !== '') {
      const birthdate = parseClinicDate(birthText, clinic.dateFormat as DateFormat);
      if (birthdate) input.birthdate = birthdate;
      else reasons.push({ field: 'birthdate', code: 'invalid_date' });
    }
    const sexText = cell(cells, 'sex');
    if (sexText !== '') {
      const sex = parseSex(sexText, language);
      if (sex) input.sex = sex;
      else reasons.push({ field: 'sex', code: 'invalid_value' });
    }
    const parsed = schema.safeParse(input);
    if (!parsed.success) {
      const known = new Set(reasons.map((reason) => reason.field));
      reasons.push(...issuesOf(parsed.error.issues).filter((reason) => !known.has(reason.field)));
    }
    const label = [cell(cells, 'lastName'), cell(cells, 'firstName')].filter(Boolean).join(', ').slice(0, 200) || null;
    const base = {
      line,
      cells: cells.map(storable),
      externalId: externalId === '' ? null : storable(externalId.slice(0, 100)),
      label: label === null ? null : storable(label),
    };
    if (reasons.length > 0 || !parsed.success) return { ...base, reasons };
    const { language: _language, ...values } = parsed.data;
    return {
      ...base,
      reasons,
      values: values as PatientValues,
      hash: createHash('sha256').update(canonicalJson(values)).digest('hex'),
    };
  });

  // Duplicated external ids: refused on their second row, in this chunk or after an earlier one.
  const ids = [
    ...new Set(decided.flatMap((row) => (row.externalId && row.reasons.length === 0 ? [row.externalId] : []))),
  ];
  const earlier = await repository.seenExternalIds(ctx, run.id, phase, ids);
  const inChunk = new Set<string>();
  for (const row of decided) {
    if (!row.externalId) continue;
    if (earlier.has(row.externalId) || inChunk.has(row.externalId)) {
      row.reasons = [{ field: 'externalId', code: 'duplicate_in_file' }];
    }
    inChunk.add(row.externalId);
  }

  const links = await repository.patientLinks(ctx, run.sourceKey, ids);
  const ssns = [
    ...new Set(
      decided.flatMap((row) => (row.reasons.length === 0 && row.values?.ssn ? [row.values.ssn.toLowerCase()] : [])),
    ),
  ];
  const holders = await repository.ssnHolders(ctx, ssns);
  const ssnInChunk = new Map<string, string>();

  const results: repository.RowResult[] = [];
  const toCreate: (Decided & { id: string })[] = [];
  const toUpdate: (Decided & { id: string })[] = [];
  const counts: Counts = { created: 0, updated: 0, unchanged: 0, refused: 0 };
  for (const row of decided) {
    const link = row.externalId ? links.get(row.externalId) : undefined;
    if (row.reasons.length === 0 && link?.deleted) row.reasons = [{ field: 'externalId', code: 'record_deleted' }];
    const ssn = row.values?.ssn?.toLowerCase();
    if (row.reasons.length === 0 && ssn) {
      const holder = holders.get(ssn) ?? ssnInChunk.get(ssn);
      if (holder && holder !== link?.recordId) row.reasons = [{ field: 'ssn', code: 'already_exists' }];
    }
    if (row.reasons.length > 0 || !row.values || !row.hash || !row.externalId) {
      counts.refused += 1;
      results.push({
        line: row.line,
        externalId: row.externalId,
        outcome: 'refused',
        recordId: null,
        label: row.label,
        reasons: row.reasons,
        cells: row.cells,
      });
      continue;
    }
    const id = link?.recordId ?? newId();
    if (ssn) ssnInChunk.set(ssn, id);
    const outcome = !link ? 'created' : link.rowHash === row.hash ? 'unchanged' : 'updated';
    counts[outcome] += 1;
    if (outcome === 'created') toCreate.push({ ...row, id });
    if (outcome === 'updated') toUpdate.push({ ...row, id });
    results.push({
      line: row.line,
      externalId: row.externalId,
      outcome,
      recordId: link?.recordId ?? null,
      label: row.label,
      reasons: [],
      cells: null,
    });
  }

  if (phase === 'import') {
    await createPatients(ctx, run, toCreate, language);
    await updatePatients(ctx, run, toUpdate);
    const created = new Map(toCreate.map((row) => [row.line, row.id]));
    for (const result of results) if (result.outcome === 'created') result.recordId = created.get(result.line) ?? null;
  }
  await repository.insertResults(ctx, run.id, phase, results);
  return counts;
};

/** The clinic's next `count` numbers of a counter, under the counter row's lock: the last one answered. */
async function reserveNumbers({ tx, accountId }: ChunkContext, name: string, count: number): Promise<number> {
  const [row] = await tx
    .insert(accountCounters)
    .values({ accountId, name, value: count })
    .onConflictDoUpdate({
      target: [accountCounters.accountId, accountCounters.name],
      set: { value: sql`${accountCounters.value} + ${count}` },
    })
    .returning({ value: accountCounters.value });
  if (!row) throw new Error(`counter ${name} returned no value`);
  return row.value;
}

async function createPatients(
  ctx: ChunkContext,
  run: ChunkRun,
  rows: readonly (Decided & { id: string })[],
  language: Language,
): Promise<void> {
  if (rows.length === 0) return;
  const last = await reserveNumbers(ctx, 'patient', rows.length);
  let next = last - rows.length + 1;
  const inserted = rows.map((row) => {
    const values = row.values as PatientValues;
    const columns: Record<string, unknown> = { language };
    for (const field of importFields.patients) if (field !== 'externalId') columns[field] = values[field] ?? null;
    return { ...columns, id: row.id, skuPatient: formatSkuPatient(next++) };
  });
  for (let start = 0; start < inserted.length; start += 400) {
    await ctx.tx.insert(patients).values(
      inserted.slice(start, start + 400).map(
        (row) =>
          ({
            ...row,
            accountId: ctx.accountId,
            createdBy: ctx.userId,
            updatedBy: ctx.userId,
          }) as typeof patients.$inferInsert,
      ),
    );
  }
  await repository.upsertLinks(
    ctx,
    rows.map((row) => ({
      sourceKey: run.sourceKey,
      externalId: row.externalId as string,
      recordId: row.id,
      rowHash: row.hash as string,
      runId: run.id,
    })),
  );
  // One audit event per patient, as the patients' service writes them, chained in one statement per 1,000.
  const events: AuditEventInput[] = inserted.map(({ id, ...after }) => ({
    accountId: ctx.accountId,
    userId: ctx.userId,
    ip: ctx.ip,
    patientId: id,
    action: 'patient_created',
    entity: 'patient',
    entityId: id,
    after: { ...after, importRunId: run.id },
  }));
  for (let start = 0; start < events.length; start += 1000) {
    await recordAuditEvents(ctx.tx, events.slice(start, start + 1000));
  }
}

/** The changed rows, each updated (a new version) and audited with the fields that changed. */
async function updatePatients(
  ctx: ChunkContext,
  run: ChunkRun,
  rows: readonly (Decided & { id: string })[],
): Promise<void> {
  if (rows.length === 0) return;
  const current = await ctx.tx
    .select()
    .from(patients)
    .where(
      and(
        eq(patients.accountId, ctx.accountId),
        inArray(
          patients.id,
          rows.map((row) => row.id),
        ),
      ),
    )
    .for('update');
  const byId = new Map(current.map((row) => [row.id, row]));
  const events: AuditEventInput[] = [];
  for (const row of rows) {
    const before = byId.get(row.id);
    if (!before) continue;
    const values = row.values as PatientValues;
    const next: Record<string, unknown> = {};
    for (const field of importFields.patients) if (field !== 'externalId') next[field] = values[field] ?? null;
    const changed = changedFields(before as unknown as Record<string, unknown>, next);
    await ctx.tx
      .update(patients)
      .set({
        ...(next as Partial<typeof patients.$inferInsert>),
        version: sql`${patients.version} + 1`,
        updatedBy: ctx.userId,
        updatedAt: sql`now()`,
      })
      .where(and(eq(patients.accountId, ctx.accountId), eq(patients.id, row.id)));
    events.push({
      accountId: ctx.accountId,
      userId: ctx.userId,
      ip: ctx.ip,
      patientId: row.id,
      action: 'patient_updated',
      entity: 'patient',
      entityId: row.id,
      before: changed.before,
      after: { ...changed.after, importRunId: run.id },
    });
  }
  await recordAuditEvents(ctx.tx, events);
  await repository.upsertLinks(
    ctx,
    rows.map((row) => ({
      sourceKey: run.sourceKey,
      externalId: row.externalId as string,
      recordId: row.id,
      rowHash: row.hash as string,
      runId: run.id,
    })),
  );
}
