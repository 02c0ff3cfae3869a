import { createHash } from 'node:crypto';
import Big from 'big.js';
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { TxContext as Ctx } from '../../context.ts';
import { commercialDocuments, documentLines } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { canonicalJson } from '../../lib/canonical-json.ts';

/**
 * The numbering and the hash chain of issued sales (issue 18; docs/decisions.md "Sales:
 * numbering and the hash chain").
 *
 * Numbering. Each point of sale keeps the last number of each document type in `sale_sequences`
 * and the last link of its chain in `sale_chains`. Issuing upserts both rows in the issuing
 * transaction: the upsert locks them, so concurrent issues on one point of sale take turns, and a
 * rolled-back issue gives its number back with everything else — no gaps, no duplicates (the
 * unique indexes would refuse one anyway).
 *
 * Chain (as Spain's Verifactu). Every issued sale of a point of sale, whatever its type, is a link:
 * `content_hash` = SHA-256 over the canonical JSON of what it says (parties, dates, money, lines)
 * with its place (`chain_index`) and the previous link's hash (`previous_hash`). Changing one byte
 * of an issued document, or removing one, breaks the chain from there: `verifySaleChains` says
 * where. The hashed content is read back from the database (what `hashedContent` takes), so the
 * verification recomputes exactly what the issue hashed.
 */

type DocumentRow = typeof commercialDocuments.$inferSelect;
type LineRow = typeof documentLines.$inferSelect;

const money = (value: string | null) => (value === null ? null : new Big(value).toFixed(2));
const snapshotPart = (snapshot: unknown) => {
  const value = (snapshot ?? {}) as { name?: unknown; taxId?: unknown };
  return { name: value.name ?? null, taxId: value.taxId ?? null };
};

/** What an issued sale's hash covers: its place, its parties, its money and its lines. */
export function hashedContent(document: DocumentRow, lines: LineRow[]) {
  return {
    id: document.id,
    documentType: document.documentType,
    pointOfService: document.pointOfService,
    sequenceNumber: document.sequenceNumber,
    documentNumber: document.documentNumber,
    chainIndex: document.chainIndex,
    previousHash: document.previousHash,
    date: document.date,
    dueDate: document.dueDate,
    currency: document.currency,
    conditionSale: document.conditionSale,
    customerId: document.customerId,
    relatedDocumentId: document.relatedDocumentId,
    issuer: snapshotPart(document.issuerSnapshot),
    customer: snapshotPart(document.counterpartySnapshot),
    subtotal1: money(document.subtotal1),
    discountTotal: money(document.discountTotal),
    subtotal2: money(document.subtotal2),
    vatTotal: money(document.vatTotal),
    total: money(document.total),
    lines: [...lines]
      .sort((a, b) => a.position - b.position)
      .map((line) => ({
        position: line.position,
        description: line.description,
        itemId: line.itemId,
        treatmentId: line.treatmentId,
        tooth: line.tooth,
        quantity: money(line.quantity),
        unitPrice: money(line.unitPrice),
        discountRate: money(line.discountRate),
        vatRate: money(line.vatRate),
        total: money(line.total),
      })),
  };
}

export function contentHash(document: DocumentRow, lines: LineRow[]): string {
  return createHash('sha256')
    .update(canonicalJson(hashedContent(document, lines)))
    .digest('hex');
}

export interface AssignedNumber {
  sequenceNumber: number;
  documentNumber: string;
  chainIndex: number;
  previousHash: string | null;
  contentHash: string;
}

/**
 * Takes the sequence's row of this point of sale and type (made at 0 when missing) and holds it
 * until the transaction ends, as an issue does (`assignSaleNumber` upserts the same row): no
 * number is issued while the numbering settings set the next one. Answers its last number.
 */
export async function lockSaleSequence(ctx: Ctx, pointOfService: string, documentType: string): Promise<number> {
  const { rows } = await ctx.tx.execute<{ last_number: number }>(sql`
    insert into sale_sequences (account_id, point_of_service, document_type, last_number)
    values (${ctx.accountId}::uuid, ${pointOfService}, ${documentType}, 0)
    on conflict (account_id, point_of_service, document_type) do update set last_number = sale_sequences.last_number
    returning last_number`);
  return Number(rows[0]?.last_number ?? 0);
}

/**
 * Takes the next number of the draft's type and point of sale and its link of the chain, and
 * answers the columns to write in the same UPDATE that issues it. `draft` and `lines` are the rows
 * as stored (read back after the last edit): the hash is computed over them with the new columns.
 */
export async function assignSaleNumber(ctx: Ctx, draft: DocumentRow, lines: LineRow[]): Promise<AssignedNumber> {
  const pointOfService = draft.pointOfService;
  if (!pointOfService) throw new Error(`sale ${draft.id} has no point of sale`);
  // One statement takes both rows, the chain's first (the same order for every issue of the
  // point of sale: no deadlock); the upserts lock them until the transaction ends.
  const { rows } = await ctx.tx.execute<{
    last_index: number;
    last_hash: string | null;
    last_number: number;
    last_date: string | null;
  }>(sql`
    with chain as (
      insert into sale_chains (account_id, point_of_service, last_index)
      values (${ctx.accountId}::uuid, ${pointOfService}, 0)
      on conflict (account_id, point_of_service) do update set last_index = sale_chains.last_index
      returning last_index, last_hash
    ), sequence as (
      insert into sale_sequences (account_id, point_of_service, document_type, last_number)
      select ${ctx.accountId}::uuid, ${pointOfService}, ${draft.documentType}, 1 from chain
      on conflict (account_id, point_of_service, document_type)
        do update set last_number = sale_sequences.last_number + 1
      returning last_number, last_date::text
    )
    select chain.last_index, chain.last_hash, sequence.last_number, sequence.last_date from chain, sequence`);
  const head = rows[0];
  if (!head) throw new Error('sale numbering rows not written');
  // Issue 35: an issued document is never dated before the last one issued on its series (the
  // point of sale and type, whose row this statement holds until the transaction ends); a draft
  // may keep an earlier date until it is issued. The whole issue rolls back: no number is taken.
  if (head.last_date && draft.date < head.last_date) {
    throw new AppError('sale_date_before_last', {
      date: draft.date,
      lastDate: head.last_date,
      pointOfService,
      documentType: draft.documentType,
    });
  }
  const sequenceNumber = Number(head.last_number);
  const chainIndex = Number(head.last_index) + 1;
  const assigned = {
    sequenceNumber,
    documentNumber: String(sequenceNumber).padStart(8, '0'),
    chainIndex,
    previousHash: head.last_hash,
  };
  const hash = contentHash({ ...draft, ...assigned, status: 'issued' }, lines);
  await ctx.tx.execute(sql`
    update sale_chains set last_index = ${chainIndex}, last_hash = ${hash}, last_document_id = ${draft.id}::uuid
    where account_id = ${ctx.accountId}::uuid and point_of_service = ${pointOfService}`);
  await ctx.tx.execute(sql`
    update sale_sequences set last_date = ${draft.date}::date
    where account_id = ${ctx.accountId}::uuid and point_of_service = ${pointOfService}
      and document_type = ${draft.documentType}`);
  return { ...assigned, contentHash: hash };
}

export interface ChainProblem {
  kind: 'content_changed' | 'link_broken' | 'index_gap' | 'chain_head_mismatch' | 'date_out_of_order';
  documentId: string | null;
  documentType: string | null;
  documentNumber: string | null;
  chainIndex: number | null;
}

export interface NumberingGap {
  documentType: string;
  /** The first and last missing number. */
  from: number;
  to: number;
}

export interface PointOfSaleReport {
  pointOfService: string;
  documents: number;
  lastNumbers: { documentType: string; lastNumber: number }[];
  gaps: NumberingGap[];
  /** Numbers jumped on purpose in the settings (issue 19: a starting number, a raised next number). */
  skipped: NumberingGap[];
  problems: ChainProblem[];
  lastHash: string | null;
}

export interface SaleChainReport {
  ok: boolean;
  pointsOfSale: PointOfSaleReport[];
}

const BATCH = 500;

/**
 * Recomputes every link of every point of sale's chain (or one point of sale's) and looks for
 * numbering gaps. Reads in batches of 500 documents by chain index, with their lines in one query
 * per batch; the report of a clinic with a million sales is a job, not a request (issue 19).
 */
export async function verifySaleChains(ctx: Ctx, options: { pointOfService?: string } = {}): Promise<SaleChainReport> {
  const { rows: heads } = await ctx.tx.execute<{
    point_of_service: string;
    last_index: number;
    last_hash: string | null;
  }>(sql`
    select point_of_service, last_index, last_hash from sale_chains
    where account_id = ${ctx.accountId}::uuid
      ${options.pointOfService ? sql`and point_of_service = ${options.pointOfService}` : sql``}
    order by point_of_service`);
  const reports: PointOfSaleReport[] = [];
  for (const head of heads) {
    const problems: ChainProblem[] = [];
    let previousHash: string | null = null;
    let expectedIndex = 1;
    let documents = 0;
    let after = 0;
    for (;;) {
      const batch = await ctx.tx
        .select()
        .from(commercialDocuments)
        .where(
          and(
            eq(commercialDocuments.accountId, ctx.accountId),
            eq(commercialDocuments.side, 'sale'),
            eq(commercialDocuments.pointOfService, head.point_of_service),
            gt(commercialDocuments.chainIndex, after),
          ),
        )
        .orderBy(asc(commercialDocuments.chainIndex))
        .limit(BATCH);
      if (batch.length === 0) break;
      const lines = await ctx.tx
        .select()
        .from(documentLines)
        .where(
          and(
            eq(documentLines.accountId, ctx.accountId),
            inArray(
              documentLines.documentId,
              batch.map((document) => document.id),
            ),
          ),
        );
      const linesOf = new Map<string, LineRow[]>();
      for (const line of lines) linesOf.set(line.documentId, [...(linesOf.get(line.documentId) ?? []), line]);
      for (const document of batch) {
        documents += 1;
        const where = {
          documentId: document.id,
          documentType: document.documentType,
          documentNumber: document.documentNumber,
          chainIndex: document.chainIndex,
        };
        if (document.chainIndex !== expectedIndex) problems.push({ kind: 'index_gap', ...where });
        if (document.previousHash !== previousHash) problems.push({ kind: 'link_broken', ...where });
        if (contentHash(document, linesOf.get(document.id) ?? []) !== document.contentHash) {
          problems.push({ kind: 'content_changed', ...where });
        }
        previousHash = document.contentHash;
        expectedIndex = (document.chainIndex ?? expectedIndex) + 1;
      }
      after = batch.at(-1)?.chainIndex ?? after;
      if (batch.length < BATCH) break;
    }
    if (expectedIndex - 1 !== Number(head.last_index) || previousHash !== head.last_hash) {
      problems.push({
        kind: 'chain_head_mismatch',
        documentId: null,
        documentType: null,
        documentNumber: null,
        chainIndex: Number(head.last_index),
      });
    }
    problems.push(...(await datesOutOfOrder(ctx, head.point_of_service)));
    const numbering = await numberingOf(ctx, head.point_of_service);
    reports.push({
      pointOfService: head.point_of_service,
      documents,
      lastNumbers: numbering.lastNumbers,
      gaps: numbering.gaps,
      skipped: numbering.skipped,
      problems,
      lastHash: head.last_hash,
    });
  }
  return {
    ok: reports.every((report) => report.gaps.length === 0 && report.problems.length === 0),
    pointsOfSale: reports,
  };
}

/**
 * Issued documents dated before the one issued before them on the same series (point of sale and
 * type): numbers and dates must agree (issue 35). One problem per document found, in SQL.
 */
async function datesOutOfOrder(ctx: Ctx, pointOfService: string): Promise<ChainProblem[]> {
  const { rows } = await ctx.tx.execute<{
    id: string;
    document_type: string;
    document_number: string | null;
    chain_index: number | null;
  }>(sql`
    select id, document_type, document_number, chain_index from (
      select id, document_type, document_number, chain_index, date,
             max(date) over (partition by document_type order by sequence_number
                             rows between unbounded preceding and 1 preceding) as latest_before
      from commercial_documents
      where account_id = ${ctx.accountId}::uuid and side = 'sale' and point_of_service = ${pointOfService}
        and status = 'issued' and sequence_number is not null
    ) d
    where d.date < d.latest_before
    order by document_type, document_number`);
  return rows.map((row) => ({
    kind: 'date_out_of_order' as const,
    documentId: row.id,
    documentType: row.document_type,
    documentNumber: row.document_number,
    chainIndex: row.chain_index === null ? null : Number(row.chain_index),
  }));
}

/**
 * Each type's last number, the numbers missing between 1 and it (in SQL, over the unique index)
 * and, apart, those jumped on purpose: a gap the settings made is not a missing document.
 */
async function numberingOf(ctx: Ctx, pointOfService: string) {
  const { rows: lastNumbers } = await ctx.tx.execute<{ document_type: string; last_number: number }>(sql`
    select document_type, last_number from sale_sequences
    where account_id = ${ctx.accountId}::uuid and point_of_service = ${pointOfService}
    order by document_type`);
  const { rows: gaps } = await ctx.tx.execute<{ document_type: string; gap_from: number; gap_to: number }>(sql`
    with numbers as (
      select document_type, sequence_number,
             lag(sequence_number, 1, 0) over (partition by document_type order by sequence_number) as previous
      from commercial_documents
      where account_id = ${ctx.accountId}::uuid and side = 'sale' and point_of_service = ${pointOfService}
        and sequence_number is not null
    ), issued as (
      select document_type, max(sequence_number) as last from numbers group by document_type
    )
    select document_type, previous + 1 as gap_from, sequence_number - 1 as gap_to
    from numbers where sequence_number > previous + 1
    union all
    select s.document_type, coalesce(i.last, 0) + 1, s.last_number
    from sale_sequences s left join issued i on i.document_type = s.document_type
    where s.account_id = ${ctx.accountId}::uuid and s.point_of_service = ${pointOfService}
      and s.last_number > coalesce(i.last, 0)
    order by 1, 2`);
  const skipped = await skippedNumbers(ctx, pointOfService);
  const found = gaps.map((row) => ({
    documentType: row.document_type,
    from: Number(row.gap_from),
    to: Number(row.gap_to),
  }));
  return {
    lastNumbers: lastNumbers.map((row) => ({ documentType: row.document_type, lastNumber: Number(row.last_number) })),
    gaps: found.flatMap((gap) => subtractRanges(gap, skipped)),
    skipped,
  };
}

/**
 * The ranges the settings jumped (`sale_numbering_updated` events, in the clinic's tamper-evident
 * audit chain): raising the next number from a to b skips a…b−1; lowering it again from b to c
 * gives c…b−1 back to be issued.
 */
async function skippedNumbers(ctx: Ctx, pointOfService: string): Promise<NumberingGap[]> {
  const { rows } = await ctx.tx.execute<{
    before: { nextNumber?: number } | null;
    after: { documentType?: string; nextNumber?: number } | null;
  }>(sql`
    select e.before, e.after from audit_events e
    join points_of_sale p on p.account_id = e.account_id and p.id = e.entity_id
    where e.account_id = ${ctx.accountId}::uuid and e.action = 'sale_numbering_updated'
      and p.code = ${pointOfService}
    order by e.seq`);
  let skipped: NumberingGap[] = [];
  for (const { before, after } of rows) {
    const documentType = after?.documentType;
    const from = Number(before?.nextNumber);
    const to = Number(after?.nextNumber);
    if (!documentType || !Number.isInteger(from) || !Number.isInteger(to) || from === to) continue;
    if (to > from) skipped.push({ documentType, from, to: to - 1 });
    else skipped = skipped.flatMap((range) => subtractRanges(range, [{ documentType, from: to, to: from - 1 }]));
  }
  return skipped.sort((a, b) => a.documentType.localeCompare(b.documentType) || a.from - b.from);
}

/** `range` without the parts of it that `holes` of the same document type cover. */
function subtractRanges(range: NumberingGap, holes: NumberingGap[]): NumberingGap[] {
  let left: NumberingGap[] = [range];
  for (const hole of holes) {
    if (hole.documentType !== range.documentType) continue;
    left = left.flatMap((part) => {
      if (hole.to < part.from || hole.from > part.to) return [part];
      return [
        ...(hole.from > part.from ? [{ ...part, to: hole.from - 1 }] : []),
        ...(hole.to < part.to ? [{ ...part, from: hole.to + 1 }] : []),
      ];
    });
  }
  return left;
}
