import { createHash } from 'node:crypto';
import type { ImportKind, ImportReason } from '@odontia/shared/schemas/imports';
import type { z } from 'zod';
import { canonicalJson } from '../../lib/canonical-json.ts';
import { newId } from '../../lib/ids.ts';
import { type AuditEventInput, recordAuditEvents } from '../audit/audit.repository.ts';
import { changedFields } from '../audit/record-changes.ts';
import { parseAmount, parsePercent } from './import-amounts.ts';
import {
  type ChunkClinic,
  type ChunkContext,
  type ChunkImporter,
  type ChunkRun,
  issuesOf,
  storable,
} from './import-patients.ts';
import * as repository from './imports.repository.ts';

/**
 * What every catalogue kind of import does the same way (issue 42: providers, the price list,
 * inventory): read each row into the feature's own create contract, refuse duplicated external
 * ids of the file, decide against the links of earlier imports (created, updated when the mapped
 * values changed, unchanged, refused with a reason per field — a unique value of the table held
 * by another record too), and in the import phase let the kind write its creates and updates
 * (multi-row inserts, audit events as its feature writes them) before the links and the outcomes
 * are recorded. Patients keep their own reader (import-patients.ts): numbers and ID checks of theirs.
 */

/** A row as read: the input of the kind's contract (reasons for what could not be read at all). */
export interface ReadRow {
  input: Record<string, unknown>;
  reasons: ImportReason[];
  label: string | null;
}

/** A value of the table that only one record may hold (a provider's tax id, an item's SKU). */
export interface UniqueValue<V> {
  field: string;
  /** The value's key as the unique index compares it, or null when the row has none. */
  key: (values: V) => string | null;
  /** The records holding these keys now: key → record id. */
  holders: (ctx: ChunkContext, keys: readonly string[]) => Promise<Map<string, string>>;
}

export interface Decided<V> {
  line: number;
  externalId: string;
  id: string;
  values: V;
}

export interface RecordKind<V extends Record<string, unknown>, Current> {
  kind: ImportKind;
  /** The row's cells into the contract's input (`cell` is the mapped column's trimmed text, '' when none). */
  read: (cell: (field: string) => string, clinic: ChunkClinic) => ReadRow;
  /** The contract the row must pass (the feature's create contract, maybe chosen by the row). */
  schema: (input: Record<string, unknown>) => z.ZodType;
  /** What is kept of the contract's output. */
  values: (parsed: unknown, input: Record<string, unknown>) => V;
  /** The import's field of a contract's field where their names differ. */
  contractFields?: Record<string, string>;
  /** What a change of is an update (default: all the values). */
  hashed?: (values: V) => unknown;
  uniques: readonly UniqueValue<V>[];
  /** The linked records still there (not deleted), by id. */
  current: (ctx: ChunkContext, ids: readonly string[], lock: boolean) => Promise<Map<string, Current>>;
  /** A reason a linked record cannot take the row (an item of another type), or null. */
  conflict?: (values: V, current: Current) => ImportReason | null;
  create: (ctx: ChunkContext, run: ChunkRun, rows: readonly Decided<V>[]) => Promise<void>;
  update: (
    ctx: ChunkContext,
    run: ChunkRun,
    rows: readonly Decided<V>[],
    current: Map<string, Current>,
  ) => Promise<void>;
}

type Counts = { created: number; updated: number; unchanged: number; refused: number };

interface Row<V> {
  line: number;
  cells: string[];
  externalId: string | null;
  label: string | null;
  reasons: ImportReason[];
  values?: V;
  hash?: string;
}

export function recordsImporter<V extends Record<string, unknown>, Current>(
  spec: RecordKind<V, Current>,
): ChunkImporter {
  return async (ctx, run, phase, rows, clinic) => {
    const decided: Row<V>[] = rows.map(({ line, cells }) => {
      const cell = (field: string) => {
        const index = run.mapping[field];
        return index === undefined ? '' : (cells[index] ?? '').trim();
      };
      const reasons: ImportReason[] = [];
      const externalId = cell('externalId');
      if (externalId === '') reasons.push({ field: 'externalId', code: 'required' });
      else if (externalId.length > 100) reasons.push({ field: 'externalId', code: 'too_long' });
      const read = spec.read(cell, clinic);
      reasons.push(...read.reasons);
      const parsed = spec.schema(read.input).safeParse(read.input);
      if (!parsed.success) {
        const known = new Set(reasons.map((reason) => reason.field));
        const renamed = issuesOf(parsed.error.issues).map((reason) => ({
          ...reason,
          field: spec.contractFields?.[reason.field] ?? reason.field,
        }));
        reasons.push(...renamed.filter((reason) => !known.has(reason.field)));
      }
      const base = {
        line,
        cells: cells.map(storable),
        externalId: externalId === '' ? null : storable(externalId.slice(0, 100)),
        label: read.label === null ? null : storable(read.label.slice(0, 200)),
        reasons,
      };
      if (reasons.length > 0 || !parsed.success) return base;
      const values = spec.values(parsed.data, read.input);
      const hashed = spec.hashed ? spec.hashed(values) : values;
      return { ...base, values, hash: createHash('sha256').update(canonicalJson(hashed)).digest('hex') };
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

    const links = await repository.kindLinks(ctx, spec.kind, run.sourceKey, ids);
    const current = await spec.current(
      ctx,
      [...new Set([...links.values()].map((link) => link.recordId))],
      phase === 'import',
    );
    const holders = await Promise.all(
      spec.uniques.map((unique) =>
        unique.holders(ctx, [
          ...new Set(
            decided.flatMap((row) => {
              const key = row.reasons.length === 0 && row.values ? unique.key(row.values) : null;
              return key ? [key] : [];
            }),
          ),
        ]),
      ),
    );
    const heldInChunk = spec.uniques.map(() => new Map<string, string>());

    const results: repository.RowResult[] = [];
    const toCreate: Decided<V>[] = [];
    const toUpdate: Decided<V>[] = [];
    const counts: Counts = { created: 0, updated: 0, unchanged: 0, refused: 0 };
    for (const row of decided) {
      const link = row.externalId ? links.get(row.externalId) : undefined;
      const record = link ? current.get(link.recordId) : undefined;
      if (row.reasons.length === 0 && link && !record) row.reasons = [{ field: 'externalId', code: 'record_deleted' }];
      if (row.reasons.length === 0 && row.values && record && spec.conflict) {
        const reason = spec.conflict(row.values, record);
        if (reason) row.reasons = [reason];
      }
      const id = link?.recordId ?? newId();
      if (row.reasons.length === 0 && row.values) {
        const values = row.values;
        spec.uniques.forEach((unique, index) => {
          const key = unique.key(values);
          if (!key || row.reasons.length > 0) return;
          const holder = holders[index]?.get(key) ?? heldInChunk[index]?.get(key);
          if (holder && holder !== id) row.reasons = [{ field: unique.field, code: 'already_exists' }];
        });
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
      const values = row.values;
      spec.uniques.forEach((unique, index) => {
        const key = unique.key(values);
        if (key) heldInChunk[index]?.set(key, id);
      });
      const outcome = !link ? 'created' : link.rowHash === row.hash ? 'unchanged' : 'updated';
      counts[outcome] += 1;
      if (outcome === 'created') toCreate.push({ line: row.line, externalId: row.externalId, id, values });
      if (outcome === 'updated') toUpdate.push({ line: row.line, externalId: row.externalId, id, values });
      results.push({
        line: row.line,
        externalId: row.externalId,
        outcome,
        recordId: outcome === 'created' && phase === 'import' ? id : (link?.recordId ?? null),
        label: row.label,
        reasons: [],
        cells: null,
      });
    }

    if (phase === 'import') {
      // Updates first: a value an updated record gives up (a SKU) may be taken by a new one.
      if (toUpdate.length > 0) await spec.update(ctx, run, toUpdate, current);
      if (toCreate.length > 0) await spec.create(ctx, run, toCreate);
      const hashes = new Map(decided.map((row) => [row.line, row.hash as string]));
      await repository.upsertLinks(
        ctx,
        [...toCreate, ...toUpdate].map((row) => ({
          sourceKey: run.sourceKey,
          externalId: row.externalId,
          recordId: row.id,
          rowHash: hashes.get(row.line) as string,
          runId: run.id,
        })),
        spec.kind,
      );
    }
    await repository.insertResults(ctx, run.id, phase, results);
    return counts;
  };
}

// ——— Reading cells ———

/** Sets `field` of `input` from an amount cell read with the clinic's separator (blank: left out). */
export function readAmount(
  input: Record<string, unknown>,
  reasons: ImportReason[],
  field: string,
  text: string,
  separator: ',' | '.',
  percent = false,
): void {
  if (text === '') return;
  const result = percent ? parsePercent(text, separator) : parseAmount(text, separator);
  if ('value' in result) input[field] = result.value;
  else reasons.push({ field, code: result.code });
}

/** Sets `field` of `input` from a count cell ("1.000" is a thousand where a point groups): a whole number. */
export function readWholeNumber(
  input: Record<string, unknown>,
  reasons: ImportReason[],
  field: string,
  text: string,
  separator: ',' | '.',
): void {
  if (text === '') return;
  const result = parseAmount(text, separator);
  if (!('value' in result)) reasons.push({ field, code: result.code });
  else if (!/\.00$/.test(result.value)) reasons.push({ field, code: 'invalid_number' });
  else input[field] = Number(result.value.slice(0, -3));
}

/** Sets the text fields given (blank: left out, the contract's default or null). */
export function readTexts(input: Record<string, unknown>, fields: readonly string[], cell: (field: string) => string) {
  for (const field of fields) {
    const text = cell(field);
    if (text !== '') input[field] = text;
  }
}

/** The values of `fields` in `data` (null when absent). */
export function pick(data: unknown, fields: readonly string[]): Record<string, unknown> {
  const record = data as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  for (const field of fields) values[field] = record[field] ?? null;
  return values;
}

/** Chunks of `size` for multi-row statements. */
export function* batches<T>(rows: readonly T[], size = 400): Generator<T[]> {
  for (let start = 0; start < rows.length; start += size) yield rows.slice(start, start + size);
}

export type { ChunkClinic, ChunkContext, ChunkRun };

// ——— Audit events as the features write them (with the run they came from) ———

/** `<entity>_created` with the stored columns. */
export function createdEvent(
  ctx: ChunkContext,
  run: ChunkRun,
  entity: string,
  id: string,
  after: Record<string, unknown>,
): AuditEventInput {
  return {
    accountId: ctx.accountId,
    userId: ctx.userId,
    ip: ctx.ip,
    action: `${entity}_created`,
    entity,
    entityId: id,
    after: { ...after, importRunId: run.id },
  };
}

/** `<entity>_updated` with only the fields that changed. */
export function updatedEvent(
  ctx: ChunkContext,
  run: ChunkRun,
  entity: string,
  id: string,
  current: Record<string, unknown>,
  next: Record<string, unknown>,
): AuditEventInput {
  const changed = changedFields(current, next);
  return {
    accountId: ctx.accountId,
    userId: ctx.userId,
    ip: ctx.ip,
    action: `${entity}_updated`,
    entity,
    entityId: id,
    before: changed.before,
    after: { ...changed.after, importRunId: run.id },
  };
}

/** The events chained in one statement per 1,000. */
export async function recordEvents(ctx: ChunkContext, events: readonly AuditEventInput[]): Promise<void> {
  for (const batch of batches(events, 1000)) await recordAuditEvents(ctx.tx, batch);
}
