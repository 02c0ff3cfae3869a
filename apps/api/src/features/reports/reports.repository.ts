import type { ReportColumn, ReportFilter, ReportId, ReportRequest, ReportRow } from '@odontia/shared/schemas/reports';
import Big from 'big.js';
import { type SQL, sql } from 'drizzle-orm';
import type { RequestContext } from '../../plugins/routes.ts';
import { accountsQuery as providerAccountsQuery } from '../current-accounts/current-accounts.repository.ts';
import { accountsQuery as customerAccountsQuery } from '../current-accounts/customer-accounts.repository.ts';
import { dayFigureRows } from '../figures/day-figures.repository.ts';

/**
 * The reports' reads (issue 19). Each report is one SELECT (`base`) whose columns are named as the
 * report's column keys; a page is that SELECT ordered and cut, its row count and its totals are
 * the same SELECT counted and summed, so the totals are the sum of every row by construction.
 * What the kept day figures hold (collections by method, treatments invoiced, appointments by kind
 * and professional, new patients) is read from them — a few rows a day whatever the clinic's size;
 * the VAT books list documents, read through `commercial_documents_list_idx` (clinic, side, date).
 * Every statement names the clinic; RLS checks it again.
 */

type Ctx = Pick<RequestContext, 'tx' | 'accountId'>;

export interface ReportDefinition {
  id: ReportId;
  /** false: as of the clinic's today (`request.asOf`); the period is not used. */
  period: boolean;
  filters: ReportFilter[];
  columns: ReportColumn[];
  /** The report's rows for a request (columns named as the column keys), unordered. */
  base(ctx: Ctx, request: ReportRequest): SQL;
  /** The rows' order: unique, so pages never overlap. */
  order: SQL;
}

const text = (key: string): ReportColumn => ({ key, kind: 'text', summed: false });
const day = (key: string): ReportColumn => ({ key, kind: 'date', summed: false });
const money = (key: string): ReportColumn => ({ key, kind: 'money', summed: true });
const integer = (key: string): ReportColumn => ({ key, kind: 'integer', summed: true });
const rate = (key: string): ReportColumn => ({ key, kind: 'rate', summed: false });
/** A level (the stock after a movement): a whole number, never summed. */
const level = (key: string): ReportColumn => ({ key, kind: 'integer', summed: false });
/** An amount per unit: shown as money, never summed. */
const price = (key: string): ReportColumn => ({ key, kind: 'money', summed: false });

/** Sales and purchases that count in a VAT book: what was issued (registered), credit notes negative. */
const vatBookTypes = ['invoice', 'debit_note', 'credit_note'];

/** One row per document and VAT rate (a document without a breakdown: one row of its totals). */
function vatBook(side: 'sale' | 'purchase') {
  return (ctx: Ctx, request: ReportRequest) => {
    const party =
      side === 'sale'
        ? sql`d.counterparty_snapshot ->> 'name'`
        : sql`coalesce(d.issuer_snapshot ->> 'name', p.fantasy_name)`;
    const taxId =
      side === 'sale' ? sql`d.counterparty_snapshot ->> 'taxId'` : sql`coalesce(d.issuer_snapshot ->> 'taxId', p.nif)`;
    return sql`
      select d.date::text as "date", d.document_type as "documentType",
        case when d.point_of_service is not null and d.document_number is not null
          then d.point_of_service || '-' || d.document_number else coalesce(d.document_number, '') end as "number",
        ${party} as "party", ${taxId} as "taxId",
        (s.share ->> 'rate')::numeric as "vatRate",
        (case d.document_type when 'credit_note' then -1 else 1 end) * (s.share ->> 'base')::numeric as "net",
        (case d.document_type when 'credit_note' then -1 else 1 end) * (s.share ->> 'vat')::numeric as "vat",
        (case d.document_type when 'credit_note' then -1 else 1 end)
          * ((s.share ->> 'base')::numeric + (s.share ->> 'vat')::numeric) as "total",
        d.id as "_id"
      from commercial_documents d
      ${side === 'purchase' ? sql`left join providers p on p.account_id = d.account_id and p.id = d.provider_id` : sql``}
      cross join lateral jsonb_array_elements(
        case when jsonb_array_length(d.vat_breakdown) = 0
          then jsonb_build_array(jsonb_build_object('rate', null, 'base', (d.total - d.vat_total)::text, 'vat', d.vat_total::text))
          else d.vat_breakdown end) as s(share)
      where d.account_id = ${ctx.accountId}::uuid and d.side = ${side} and d.deleted_at is null
        and d.status = ${side === 'sale' ? 'issued' : 'registered'}
        and d.document_type in ${vatBookTypes}
        and d.date >= ${request.from}::date and d.date <= ${request.to}::date`;
  };
}

const vatBookColumns = [
  day('date'),
  text('documentType'),
  text('number'),
  text('party'),
  text('taxId'),
  rate('vatRate'),
  money('net'),
  money('vat'),
  money('total'),
];

/**
 * The current accounts' own statement (features/current-accounts: the same aging, balance and
 * on-account figures as their lists and CSV), the accounts with a balance, as of the clinic's today.
 */
function aging(side: 'customer' | 'provider') {
  return (ctx: Ctx, request: ReportRequest) => sql`
    select a.name as "name", ${side === 'customer' ? sql`a.tax_id` : sql`a.nif`} as "taxId",
      a.balance as "balance", a.current as "current", a.days_0_30 as "days0to30", a.days_31_60 as "days31to60",
      a.days_61_90 as "days61to90", a.days_over_90 as "daysOver90",
      a.credit_on_account + a.unallocated as "onAccount",
      a.${sql.raw(side === 'customer' ? 'customer_id' : 'provider_id')} as "_id"
    from (${
      side === 'customer'
        ? customerAccountsQuery(ctx, request.asOf, { withBalance: true })
        : providerAccountsQuery(ctx, request.asOf, { withBalance: true })
    }) a`;
}

const agingColumns = [
  text('name'),
  text('taxId'),
  money('balance'),
  money('current'),
  money('days0to30'),
  money('days31to60'),
  money('days61to90'),
  money('daysOver90'),
  money('onAccount'),
];

export const reportDefinitions: Record<ReportId, ReportDefinition> = {
  'receivables-aging': {
    id: 'receivables-aging',
    period: false,
    filters: [],
    columns: agingColumns,
    base: aging('customer'),
    order: sql`"balance" desc, lower("name"), "_id"`,
  },
  payables: {
    id: 'payables',
    period: false,
    filters: [],
    columns: agingColumns,
    base: aging('provider'),
    order: sql`"balance" desc, lower("name"), "_id"`,
  },
  'stock-valuation': {
    id: 'stock-valuation',
    period: false,
    filters: [],
    columns: [text('kind'), text('sku'), text('item'), integer('stock'), price('unitCost'), money('value')],
    // The stock kept on the item (the sum of its movements) at its average cost, else its last, else its list cost.
    base: (ctx) => sql`
      select i.kind as "kind", i.sku as "sku", i.name as "item", i.total_stock as "stock",
        coalesce(i.average_cost, i.last_cost, i.cost_price) as "unitCost",
        round(i.total_stock * coalesce(i.average_cost, i.last_cost, i.cost_price), 2) as "value",
        i.id as "_id"
      from inventory_items i
      where i.account_id = ${ctx.accountId}::uuid and i.total_stock <> 0`,
    order: sql`"kind", lower("item"), "_id"`,
  },
  'stock-movements': {
    id: 'stock-movements',
    period: true,
    filters: [],
    columns: [
      day('date'),
      text('kind'),
      text('item'),
      text('movement'),
      integer('quantity'),
      level('stockAfter'),
      price('unitCost'),
      text('reason'),
    ],
    // The period's movements through `stock_movements_recent_idx`, the days the clinic's.
    base: (ctx, request) => sql`
      select (m.created_at at time zone z.tz)::date::text as "date", i.kind as "kind", i.name as "item",
        m.kind as "movement", m.quantity as "quantity", m.stock_after as "stockAfter", m.unit_cost as "unitCost",
        m.reason as "reason", m.created_at as "_at", m.id as "_id"
      from (select a.time_zone as tz from accounts a where a.id = ${ctx.accountId}::uuid) z
      join stock_movements m on m.account_id = ${ctx.accountId}::uuid
        and m.created_at >= (${request.from}::date::timestamp at time zone z.tz)
        and m.created_at < ((${request.to}::date + 1)::timestamp at time zone z.tz)
      join inventory_items i on i.account_id = m.account_id and i.id = m.item_id`,
    order: sql`"_at", "_id"`,
  },
  'daily-cash': {
    id: 'daily-cash',
    period: true,
    filters: ['method'],
    columns: [day('day'), text('method'), integer('count'), money('amount')],
    base: (ctx, request) => sql`
      select r.day::text as "day", r.key as "method", r.count as "count", r.amount as "amount"
      from (${dayFigureRows(ctx, {
        figures: ['collected'],
        ...(request.method ? { keys: [request.method] } : {}),
        from: request.from,
        to: request.to,
      })}) r
      where r.count <> 0 or r.amount <> 0`,
    order: sql`"day", "method"`,
  },
  'production-by-treatment': {
    id: 'production-by-treatment',
    period: true,
    filters: [],
    columns: [text('code'), text('treatment'), integer('count'), money('net')],
    base: (ctx, request) => sql`
      select t.code as "code", t.name as "treatment", sold.count as "count", sold.amount as "net", sold.key as "_id"
      from (
        select r.key, sum(r.count)::int as count, sum(r.amount) as amount
        from (${dayFigureRows(ctx, { figures: ['treatments_sold'], from: request.from, to: request.to })}) r
        group by r.key
      ) sold
      join treatments t on t.account_id = ${ctx.accountId}::uuid and t.id::text = sold.key
      where sold.count <> 0 or sold.amount <> 0`,
    order: sql`"net" desc, "code", "_id"`,
  },
  'production-by-professional': {
    id: 'production-by-professional',
    period: true,
    filters: ['professionalId'],
    columns: [text('professional'), integer('attendances'), money('net')],
    // Lines billed from an attendance count for its professional; the others (a treatment sold at
    // the desk) in a row without professional. Attendances: those billed by invoices and debit notes.
    base: (ctx, request) => sql`
      select u.complete_name as "professional",
        count(distinct l.attendance_id) filter (where d.document_type <> 'credit_note')::int as "attendances",
        sum(case d.document_type when 'credit_note' then -l.subtotal else l.subtotal end) as "net",
        a.professional_id as "_id"
      from commercial_documents d
      join document_lines l on l.account_id = d.account_id and l.document_id = d.id
      left join attendances a on a.account_id = l.account_id and a.id = l.attendance_id
      left join users u on u.account_id = a.account_id and u.id = a.professional_id
      where d.account_id = ${ctx.accountId}::uuid and d.side = 'sale' and d.deleted_at is null
        and d.status = 'issued' and d.document_type in ${vatBookTypes}
        and d.date >= ${request.from}::date and d.date <= ${request.to}::date
        ${request.professionalId ? sql`and a.professional_id = ${request.professionalId}::uuid` : sql``}
      group by a.professional_id, u.complete_name`,
    order: sql`"professional" nulls last, "_id"`,
  },
  'sales-vat-book': {
    id: 'sales-vat-book',
    period: true,
    filters: [],
    columns: vatBookColumns,
    base: vatBook('sale'),
    order: sql`"date", "number", "_id", "vatRate"`,
  },
  'purchases-vat-book': {
    id: 'purchases-vat-book',
    period: true,
    filters: [],
    columns: vatBookColumns,
    base: vatBook('purchase'),
    order: sql`"date", "number", "_id", "vatRate"`,
  },
  'appointments-by-professional': {
    id: 'appointments-by-professional',
    period: true,
    filters: ['professionalId'],
    columns: [
      text('professional'),
      integer('total'),
      integer('scheduled'),
      integer('completed'),
      integer('cancelled'),
      integer('lateCancelled'),
      integer('noShow'),
    ],
    // key '<kind>:<professional>'; a rescheduled appointment lives on as its new one (not counted).
    base: (ctx, request) => sql`
      select u.complete_name as "professional",
        sum(k.count) filter (where k.kind <> 'rescheduled')::int as "total",
        coalesce(sum(k.count) filter (where k.kind = 'scheduled'), 0)::int as "scheduled",
        coalesce(sum(k.count) filter (where k.kind = 'completed'), 0)::int as "completed",
        coalesce(sum(k.count) filter (where k.kind = 'cancelled'), 0)::int as "cancelled",
        coalesce(sum(k.count) filter (where k.kind = 'late_cancelled'), 0)::int as "lateCancelled",
        coalesce(sum(k.count) filter (where k.kind = 'no_show'), 0)::int as "noShow",
        k.professional_id as "_id"
      from (
        select split_part(r.key, ':', 1) as kind, split_part(r.key, ':', 2) as professional_id, r.count
        from (${dayFigureRows(ctx, { figures: ['appointments'], from: request.from, to: request.to })}) r
      ) k
      join users u on u.account_id = ${ctx.accountId}::uuid and u.id::text = k.professional_id
      ${request.professionalId ? sql`where k.professional_id = ${request.professionalId}` : sql``}
      group by u.complete_name, k.professional_id
      having sum(k.count) filter (where k.kind <> 'rescheduled') <> 0`,
    order: sql`"professional", "_id"`,
  },
  'new-patients': {
    id: 'new-patients',
    period: true,
    filters: [],
    columns: [day('day'), integer('count')],
    base: (ctx, request) => sql`
      select r.day::text as "day", r.count as "count"
      from (${dayFigureRows(ctx, { figures: ['patients_new'], from: request.from, to: request.to })}) r
      where r.count <> 0`,
    order: sql`"day"`,
  },
  'active-patients': {
    id: 'active-patients',
    period: true,
    filters: [],
    columns: [text('patientCode'), text('patient'), integer('attendanceCount'), day('lastAttendance')],
    // Patients with at least one attendance in the period (the clinic's days), read through
    // `attendances_recent_idx` (clinic, date): the period's attendances, grouped by patient. No kept
    // figure holds distinct patients, and a period's attendances are what its own pages would list.
    base: (ctx, request) => sql`
      select p.sku_patient as "patientCode", p.last_name || ', ' || p.first_name as "patient",
        count(*)::int as "attendanceCount", max((a.date at time zone z.tz)::date)::text as "lastAttendance",
        a.patient_id as "_id"
      from (select c.time_zone as tz from accounts c where c.id = ${ctx.accountId}::uuid) z
      join attendances a on a.account_id = ${ctx.accountId}::uuid and a.deleted_at is null
        and a.date >= (${request.from}::date::timestamp at time zone z.tz)
        and a.date < ((${request.to}::date + 1)::timestamp at time zone z.tz)
      join patients p on p.account_id = a.account_id and p.id = a.patient_id and p.deleted_at is null
      group by a.patient_id, p.sku_patient, p.last_name, p.first_name`,
    order: sql`lower("patient"), "_id"`,
  },
};

/** The report's rows from `offset`, at most `limit`, in the report's order. */
export async function reportRows(
  ctx: Ctx,
  definition: ReportDefinition,
  request: ReportRequest,
  offset: number,
  limit: number,
): Promise<ReportRow[]> {
  const { rows } = await ctx.tx.execute<Record<string, unknown>>(sql`
    select * from (${definition.base(ctx, request)}) report
    order by ${definition.order}
    limit ${limit} offset ${offset}`);
  return rows.map((row) => presentRow(definition, row));
}

/** How many rows the report has and its summed columns over all of them. */
export async function reportTotals(
  ctx: Ctx,
  definition: ReportDefinition,
  request: ReportRequest,
): Promise<{ count: number; totals: ReportRow }> {
  const summed = definition.columns.filter((column) => column.summed);
  const sums = summed.map(
    (column) => sql`coalesce(sum(report.${sql.identifier(column.key)}), 0) as ${sql.identifier(column.key)}`,
  );
  const { rows } = await ctx.tx.execute<Record<string, unknown>>(sql`
    select count(*)::int as "_rows" ${sums.length > 0 ? sql`, ${sql.join(sums, sql`, `)}` : sql``}
    from (${definition.base(ctx, request)}) report`);
  const row = rows[0] ?? {};
  return { count: Number(row._rows ?? 0), totals: presentRow({ ...definition, columns: summed }, row) };
}

/** Money as a decimal string with two places, counts as numbers, rates as '21.00', the rest as text. */
function presentRow(definition: Pick<ReportDefinition, 'columns'>, row: Record<string, unknown>): ReportRow {
  const out: ReportRow = {};
  for (const column of definition.columns) {
    const value = row[column.key];
    if (value === null || value === undefined) {
      out[column.key] = column.kind === 'money' ? '0.00' : column.kind === 'integer' ? 0 : null;
    } else if (column.kind === 'integer') out[column.key] = Number(value);
    else if (column.kind === 'money' || column.kind === 'rate') out[column.key] = new Big(String(value)).toFixed(2);
    else out[column.key] = String(value);
  }
  return out;
}
