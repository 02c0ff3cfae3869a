import { createHash } from 'node:crypto';
import { clinicToday } from '@odontia/shared/clinic-time';
import type { DateFormat } from '@odontia/shared/enums';
import type { ImportReason } from '@odontia/shared/schemas/imports';
import Big from 'big.js';
import { eq } from 'drizzle-orm';
import { accounts, commercialDocuments } from '../../db/schema/index.ts';
import { canonicalJson } from '../../lib/canonical-json.ts';
import { newId } from '../../lib/ids.ts';
import { type AuditEventInput, recordAuditEvents } from '../audit/audit.repository.ts';
import { postLedgerEntries } from '../commercial/ledger.ts';
import { customerOfPatient, customerSnapshot } from '../customers/customer-parties.ts';
import { clinicDecimalSeparator, parseAmount } from './import-amounts.ts';
import { parseClinicDate } from './import-columns.ts';
import { type ChunkImporter, type SourceRow, storable } from './import-patients.ts';
import * as repository from './imports.repository.ts';

/**
 * One chunk of an opening balances' file (issue 42; docs/decisions.md "Importar datos"): each row
 * names its patient by the same source's patient id (linked by the patients' import), an amount
 * (positive: the patient owes; negative: a credit in their favour), a date and a concept. Imported,
 * a balance is a registered sale-side document of type `opening_balance` of the patient's customer
 * ("Saldo inicial importado S-1001", in the clinic's currency, never issued nor numbered in a
 * fiscal series) and its ledger entry: the current account's balance, aging and ledger show it,
 * and a collection can settle it like any open document. Money is never edited: the same amount
 * again is unchanged, another amount for an imported balance is refused `balance_already_imported`.
 */

/** What the ledger and the document say of an imported balance (the clinic reads Spanish first). */
export const openingBalanceLabel = 'Saldo inicial importado';

interface Decided {
  line: number;
  cells: string[];
  externalId: string | null;
  label: string | null;
  reasons: ImportReason[];
  patientExternalId: string;
  amount?: string;
  date?: string;
  concept?: string | null;
  patientId?: string;
  hash?: string;
}

export const importBalancesChunk: ChunkImporter = async (ctx, run, phase, rows, clinic) => {
  const today = clinicToday(clinic.timeZone);
  const separator = clinicDecimalSeparator(clinic);
  const cell = (cells: string[], field: string) => {
    const index = run.mapping[field];
    return index === undefined ? '' : (cells[index] ?? '').trim();
  };

  const decided: Decided[] = rows.map(({ line, cells }: SourceRow) => {
    const reasons: ImportReason[] = [];
    const patientExternalId = cell(cells, 'patientExternalId');
    // Without an id of its own, a balance is its patient's: one opening balance per patient.
    const externalId = cell(cells, 'externalId') || patientExternalId;
    if (patientExternalId === '') reasons.push({ field: 'patientExternalId', code: 'required' });
    if (externalId.length > 100) reasons.push({ field: 'externalId', code: 'too_long' });
    const amountText = cell(cells, 'amount');
    const amount: { value?: string; code?: string } =
      amountText === '' ? { code: 'required' } : parseAmount(amountText, separator);
    if (amount.code) reasons.push({ field: 'amount', code: amount.code });
    const dateText = cell(cells, 'date');
    let date = today;
    if (dateText !== '') {
      const parsed = parseClinicDate(dateText, clinic.dateFormat as DateFormat);
      if (!parsed) reasons.push({ field: 'date', code: 'invalid_date' });
      else if (parsed > today) reasons.push({ field: 'date', code: 'date_in_future' });
      else if (parsed < '1900-01-01') reasons.push({ field: 'date', code: 'date_too_early' });
      else date = parsed;
    }
    const concept = cell(cells, 'concept');
    if (concept.length > 200) reasons.push({ field: 'concept', code: 'too_long' });
    return {
      line,
      cells: cells.map(storable),
      externalId: externalId === '' ? null : storable(externalId.slice(0, 100)),
      label: patientExternalId === '' ? null : storable(patientExternalId.slice(0, 200)),
      reasons,
      patientExternalId,
      ...(amount.value !== undefined ? { amount: amount.value } : {}),
      date,
      concept: concept === '' ? null : storable(concept),
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

  // The patients, through the same source's patients' links.
  const patientIds = [...new Set(decided.flatMap((row) => (row.reasons.length === 0 ? [row.patientExternalId] : [])))];
  const patients = await repository.patientLinks(ctx, run.sourceKey, patientIds);
  const links = await repository.kindLinks(ctx, 'balances', run.sourceKey, ids);

  const results: repository.RowResult[] = [];
  const toCreate: (Decided & { id: string })[] = [];
  const counts = { created: 0, updated: 0, unchanged: 0, refused: 0 };
  for (const row of decided) {
    if (row.reasons.length === 0) {
      const patient = patients.get(row.patientExternalId);
      if (!patient) row.reasons = [{ field: 'patientExternalId', code: 'patient_not_imported' }];
      else if (patient.deleted) row.reasons = [{ field: 'patientExternalId', code: 'record_deleted' }];
      else {
        row.patientId = patient.recordId;
        // The money decides: the patient and the amount (a new date or concept alone changes nothing).
        row.hash = createHash('sha256')
          .update(canonicalJson({ patientId: patient.recordId, amount: row.amount }))
          .digest('hex');
      }
    }
    const link = row.externalId ? links.get(row.externalId) : undefined;
    if (row.reasons.length === 0 && link && link.rowHash !== row.hash) {
      row.reasons = [{ field: 'amount', code: 'balance_already_imported' }];
    }
    if (row.reasons.length > 0 || !row.externalId || !row.amount || !row.patientId) {
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
    // Nothing owed either way: nothing enters the account (and nothing is linked, so a later amount is new).
    const outcome = link || new Big(row.amount).eq(0) ? 'unchanged' : 'created';
    counts[outcome] += 1;
    if (outcome === 'created') toCreate.push({ ...row, id: newId() });
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

  if (phase === 'import' && toCreate.length > 0) {
    await createBalances(ctx, run, toCreate);
    const created = new Map(toCreate.map((row) => [row.line, row.id]));
    for (const result of results) if (result.outcome === 'created') result.recordId = created.get(result.line) ?? null;
  }
  await repository.insertResults(ctx, run.id, phase, results);
  return counts;
};

/**
 * Each balance a registered `opening_balance` document of the patient's customer (made on first
 * billing, as a sale makes it) with its ledger entry: a debit for what the patient owes, a credit
 * for what is in their favour (a negative open amount, as an unapplied credit note's).
 */
async function createBalances(
  ctx: Parameters<ChunkImporter>[0],
  run: Parameters<ChunkImporter>[1],
  rows: readonly (Decided & { id: string })[],
): Promise<void> {
  const [clinic] = await ctx.tx
    .select({ currency: accounts.systemCurrency })
    .from(accounts)
    .where(eq(accounts.id, ctx.accountId));
  if (!clinic) throw new Error('clinic not found');
  const now = new Date();
  const events: AuditEventInput[] = [];
  for (const row of rows) {
    const customer = await customerOfPatient(ctx, row.patientId as string);
    const amount = new Big(row.amount as string);
    const total = amount.abs().toFixed(2);
    const number = row.externalId as string;
    await ctx.tx.insert(commercialDocuments).values({
      accountId: ctx.accountId,
      id: row.id,
      side: 'sale',
      status: 'registered',
      documentType: 'opening_balance',
      customerId: customer.id,
      patientId: row.patientId as string,
      documentNumber: number,
      date: row.date as string,
      currency: clinic.currency,
      conditionSale: 'current_account',
      notes: row.concept ?? null,
      subtotal1: total,
      subtotal2: total,
      total,
      openAmount: amount.toFixed(2),
      counterpartySnapshot: customerSnapshot(customer),
      registeredAt: now,
      registeredBy: ctx.userId,
      createdBy: ctx.userId,
      updatedBy: ctx.userId,
    });
    const description = [`${openingBalanceLabel} ${number}`, row.concept].filter(Boolean).join(' — ').slice(0, 300);
    await postLedgerEntries(ctx, [
      {
        partyKind: 'customer',
        partyId: customer.id,
        date: row.date as string,
        kind: 'document',
        documentId: row.id,
        description,
        ...(amount.gt(0) ? { debit: total } : { credit: total }),
      },
    ]);
    events.push({
      accountId: ctx.accountId,
      userId: ctx.userId,
      ip: ctx.ip,
      patientId: row.patientId as string,
      action: 'opening_balance_imported',
      entity: 'sale',
      entityId: row.id,
      after: {
        documentType: 'opening_balance',
        customerId: customer.id,
        number,
        date: row.date,
        currency: clinic.currency,
        amount: amount.toFixed(2),
        concept: row.concept ?? null,
        externalId: row.externalId,
        importRunId: run.id,
      },
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
    'balances',
  );
}
