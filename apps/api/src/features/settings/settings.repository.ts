import { eq, sql } from 'drizzle-orm';
import { accounts } from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';

/** The clinic's system settings (columns of `accounts`) and its sales' numbering (issue 19; tenant context). */

interface Scope {
  readonly tx: TenantTx;
  readonly accountId: string;
}

/** The editable settings, as stored. */
export interface SettingsColumns {
  systemCurrency: string;
  dateFormat: string;
  defaultLanguage: string;
  timeZone: string;
  lockAfterMinutes: number;
  remindersEnabled: boolean;
  reminderLeadMinutes: number;
  uploadMaxMb: number | null;
  portalPaymentInstructions: string | null;
  recallMessageDays: number;
  instalmentReminderDays: number;
  brandColor: string | null;
}

export const settingsColumnNames = [
  'systemCurrency',
  'dateFormat',
  'defaultLanguage',
  'timeZone',
  'lockAfterMinutes',
  'remindersEnabled',
  'reminderLeadMinutes',
  'uploadMaxMb',
  'portalPaymentInstructions',
  'recallMessageDays',
  'instalmentReminderDays',
  'brandColor',
] as const satisfies readonly (keyof SettingsColumns)[];

/** The clinic's settings; its row locked for an edit when `lock`. */
export async function findSettings({ tx, accountId }: Scope, { lock = false } = {}) {
  const query = tx
    .select({
      systemCurrency: accounts.systemCurrency,
      dateFormat: accounts.dateFormat,
      defaultLanguage: accounts.defaultLanguage,
      timeZone: accounts.timeZone,
      lockAfterMinutes: accounts.lockAfterMinutes,
      remindersEnabled: accounts.remindersEnabled,
      reminderLeadMinutes: accounts.reminderLeadMinutes,
      uploadMaxMb: accounts.uploadMaxMb,
      portalPaymentInstructions: accounts.portalPaymentInstructions,
      recallMessageDays: accounts.recallMessageDays,
      instalmentReminderDays: accounts.instalmentReminderDays,
      brandColor: accounts.brandColor,
      updatedAt: accounts.updatedAt,
      version: accounts.version,
    })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  const [row] = lock ? await query.for('no key update') : await query;
  if (!row) throw new Error(`clinic ${accountId} not found`);
  return row;
}
export type SettingsRow = Awaited<ReturnType<typeof findSettings>>;

/** Writes the settings: a new version of the clinic's row. */
export async function updateSettings({ tx, accountId }: Scope, values: SettingsColumns): Promise<void> {
  await tx
    .update(accounts)
    .set({ ...values, updatedAt: new Date(), version: sql`${accounts.version} + 1` })
    .where(eq(accounts.id, accountId));
}

/** The clinic's upload limit in MB (null: the installation's). */
export async function findUploadMaxMb({ tx, accountId }: Scope): Promise<number | null> {
  const [row] = await tx.select({ uploadMaxMb: accounts.uploadMaxMb }).from(accounts).where(eq(accounts.id, accountId));
  return row?.uploadMaxMb ?? null;
}

// ———————————————————————————————————————————— numbering

export interface NumberingRowData {
  pointOfSaleId: string;
  code: string;
  name: string;
  documentType: string;
  lastNumber: number;
  lastIssued: number;
}

/**
 * Every active point of sale × the given document types: the sequence's last number (what the
 * next issue adds one to) and the highest number issued (over the sales' unique number index).
 */
export async function listNumbering({ tx, accountId }: Scope, documentTypes: readonly string[]) {
  const { rows } = await tx.execute<{
    point_of_sale_id: string;
    code: string;
    name: string;
    document_type: string;
    last_number: number;
    last_issued: number;
  }>(sql`
    select p.id as point_of_sale_id, p.code, p.name, t.document_type,
      coalesce(s.last_number, 0) as last_number,
      coalesce((
        select max(d.sequence_number) from commercial_documents d
        where d.account_id = p.account_id and d.side = 'sale' and d.point_of_service = p.code
          and d.document_type = t.document_type and d.sequence_number is not null
      ), 0) as last_issued
    from points_of_sale p
    cross join unnest(array[${sql.join(
      documentTypes.map((type) => sql`${type}`),
      sql`, `,
    )}]::text[])
      with ordinality as t(document_type, position)
    left join sale_sequences s
      on s.account_id = p.account_id and s.point_of_service = p.code and s.document_type = t.document_type
    where p.account_id = ${accountId}::uuid and p.active and p.deleted_at is null
    order by p.code, t.position`);
  return rows.map(
    (row): NumberingRowData => ({
      pointOfSaleId: row.point_of_sale_id,
      code: row.code,
      name: row.name,
      documentType: row.document_type,
      lastNumber: Number(row.last_number),
      lastIssued: Number(row.last_issued),
    }),
  );
}

/** The highest number issued of this point of sale and type (0: none). */
export async function lastIssuedNumber({ tx, accountId }: Scope, pointOfService: string, documentType: string) {
  const { rows } = await tx.execute<{ last_issued: number | null }>(sql`
    select max(sequence_number) as last_issued from commercial_documents
    where account_id = ${accountId}::uuid and side = 'sale' and point_of_service = ${pointOfService}
      and document_type = ${documentType} and sequence_number is not null`);
  return Number(rows[0]?.last_issued ?? 0);
}

export async function setLastNumber(
  { tx, accountId }: Scope,
  pointOfService: string,
  documentType: string,
  lastNumber: number,
): Promise<void> {
  await tx.execute(sql`
    update sale_sequences set last_number = ${lastNumber}
    where account_id = ${accountId}::uuid and point_of_service = ${pointOfService} and document_type = ${documentType}`);
}
