import { clinicDayRange } from '@odontia/shared/clinic-time';
import type { ReportColumn, ReportFilter, ReportId, ReportRequest, ReportRow } from '@odontia/shared/schemas/reports';
import Big from 'big.js';
import { type SQL, sql } from 'drizzle-orm';
import type { TxContext } from '../../context.ts';
import {
  listAccounts as listProviderAccounts,
  accountsQuery as providerAccountsQuery,
} from '../current-accounts/current-accounts.repository.ts';
import {
  accountsQuery as customerAccountsQuery,
  listCustomerAccounts,
} from '../current-accounts/customer-accounts.repository.ts';
import { type DayFigureFilter, dayFigureRows } from '../figures/day-figures.repository.ts';

/**
 * The reports' reads (issue 19). Each report is one SELECT (`base`) whose columns are named as the
 * report's column keys; a page is that SELECT ordered and cut, its row count and its totals are
 * the same SELECT counted and summed, so the totals are the sum of every row by construction.
 * What the kept day figures hold (collections by method, treatments invoiced, appointments by kind
 * and professional, new patients) is read from them — a few rows a day whatever the clinic's size;
 * the VAT books list documents, read through `commercial_documents_list_idx` (clinic, side, date).
 * Every statement names the clinic; RLS checks it again.
 */

export interface ReportDefinition {
  id: ReportId;
  /** false: as of the clinic's today (`request.asOf`); the period is not used. */
  period: boolean;
  filters: ReportFilter[];
  columns: ReportColumn[];
  /** The report's rows for a request (columns named as the column keys), unordered. */
  base(ctx: TxContext, request: ReportRequest): SQL;
  /** The rows' order: unique, so pages never overlap. */
  order: SQL;
  /**
   * For the big reports: the order as hidden columns (ascending, never null) with their types, so
   * an export reads its next chunk after the last row's key instead of counting rows again.
   * `order` is then these keys in this order (`keyed`).
   */
  keyset?: KeysetKey[];
  /**
   * The totals from kept figures instead of summing `base`: one row, `"_rows"` and the summed
   * columns' keys — what summing every row of `base` would answer (the tests check it).
   */
  totals?(ctx: TxContext, request: ReportRequest): SQL;
  /**
   * A page read another way than cutting `base` (the current accounts' kept balances), in `order`;
   * its totals too. `base` stays the report's definition (the tests compare both).
   */
  pageWithTotals?(
    ctx: TxContext,
    request: ReportRequest,
    page: { page: number; pageSize: number },
  ): Promise<{ rows: Record<string, unknown>[]; count: number; totals: Record<string, unknown> }>;
}

interface KeysetKey {
  key: string;
  type: 'date' | 'text' | 'uuid' | 'numeric' | 'timestamptz';
}

/**
 * The period's first and last instants (the clinic's days), as constants when the request carries
 * the clinic's time zone — the planner then sees how much of an index they cover — else from the
 * clinic's row.
 */
function periodInstants(ctx: TxContext, request: ReportRequest): { start: SQL; end: SQL } {
  if (request.timeZone) {
    return {
      start: sql`${clinicDayRange(request.timeZone, request.from).start.toISOString()}::timestamptz`,
      end: sql`${clinicDayRange(request.timeZone, request.to).end.toISOString()}::timestamptz`,
    };
  }
  const zone = sql`(select c.time_zone from accounts c where c.id = ${ctx.accountId}::uuid)`;
  return {
    start: sql`(${request.from}::date::timestamp at time zone ${zone})`,
    end: sql`((${request.to}::date + 1)::timestamp at time zone ${zone})`,
  };
}

/** The day figures of the request's period: these figures, of one key only when the request names it. */
function periodFigures(
  ctx: TxContext,
  request: Pick<ReportRequest, 'from' | 'to'>,
  figures: DayFigureFilter['figures'],
  key?: string | null,
): SQL {
  return dayFigureRows(ctx, { figures, ...(key ? { keys: [key] } : {}), from: request.from, to: request.to });
}

/** A keyset and the order it makes. */
function keyed(...keys: KeysetKey[]): { keyset: KeysetKey[]; order: SQL } {
  return {
    keyset: keys,
    order: sql.join(
      keys.map((k) => sql.identifier(k.key)),
      sql`, `,
    ),
  };
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
  return (ctx: TxContext, request: ReportRequest) => {
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
        d.date as "_date", coalesce(d.point_of_service, '') as "_pos", coalesce(d.document_number, '') as "_num",
        d.id as "_id", coalesce((s.share ->> 'rate')::numeric, -1) as "_rate"
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

/**
 * The VAT book's totals from the kept figures (`<side>_vat_base` and `<side>_vat` per day and rate,
 * one count per row: migration 0025), not from summing the period's documents.
 */
function vatBookTotals(side: 'sale' | 'purchase') {
  const figure = side === 'sale' ? 'sales_vat' : 'purchases_vat';
  return (ctx: TxContext, request: ReportRequest) => sql`
    select coalesce(sum(r.count) filter (where r.figure = ${`${figure}_base`}), 0)::int as "_rows",
      coalesce(sum(r.amount) filter (where r.figure = ${`${figure}_base`}), 0) as "net",
      coalesce(sum(r.amount) filter (where r.figure = ${figure}), 0) as "vat",
      coalesce(sum(r.amount), 0) as "total"
    from (${periodFigures(ctx, request, [`${figure}_base`, figure])}) r`;
}

/** The VAT books' order, that of `commercial_documents_vat_book_idx`, then the rate. */
const vatBookOrder = keyed(
  { key: '_date', type: 'date' },
  { key: '_pos', type: 'text' },
  { key: '_num', type: 'text' },
  { key: '_id', type: 'uuid' },
  { key: '_rate', type: 'numeric' },
);

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
  return (ctx: TxContext, request: ReportRequest) => sql`
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

/**
 * The aging's page as the current accounts' list reads it (sorted by balance, the page's accounts
 * aged, the totals from the kept balances and the open amounts per due date), not by aging every
 * account: what `aging` answers, in its order.
 */
function agingPage(side: 'customer' | 'provider'): NonNullable<ReportDefinition['pageWithTotals']> {
  return async (ctx, request, { page, pageSize }) => {
    const query = { sort: '-balance', withBalance: true, page, pageSize };
    const { rows, totals } =
      side === 'customer'
        ? await listCustomerAccounts(ctx, request.asOf, query)
        : await listProviderAccounts(ctx, request.asOf, query);
    return {
      rows: rows.map((row) => ({
        name: row.name,
        taxId: 'tax_id' in row ? row.tax_id : row.nif,
        balance: row.balance,
        current: row.current,
        days0to30: row.days_0_30,
        days31to60: row.days_31_60,
        days61to90: row.days_61_90,
        daysOver90: row.days_over_90,
        onAccount: new Big(row.credit_on_account).plus(row.unallocated).toString(),
      })),
      count: totals.total,
      totals: {
        balance: totals.balance,
        current: totals.current,
        days0to30: totals.days_0_30,
        days31to60: totals.days_31_60,
        days61to90: totals.days_61_90,
        daysOver90: totals.days_over_90,
        onAccount: totals.on_account,
      },
    };
  };
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
  // Issue 40: the presentations to the payers of the period (by their month), and their rejections.
  'payer-presentations': {
    id: 'payer-presentations',
    period: true,
    filters: [],
    columns: [
      day('date'),
      level('number'),
      text('party'),
      text('presentationStatus'),
      integer('count'),
      money('total'),
      money('rejected'),
    ],
    base: (ctx, request) => sql`
      select pr.period::text as "date", pr.number as "number", p.name as "party", pr.status as "presentationStatus",
        pr.line_count as "count", pr.total as "total", pr.rejected_total as "rejected", pr.id as "_id"
      from payer_presentations pr
      join payers p on p.account_id = pr.account_id and p.id = pr.payer_id
      where pr.account_id = ${ctx.accountId}::uuid and pr.deleted_at is null
        and pr.period >= date_trunc('month', ${request.from}::date)::date and pr.period <= ${request.to}::date`,
    order: sql`"date", "number", "_id"`,
  },
  'payer-rejections': {
    id: 'payer-rejections',
    period: true,
    filters: [],
    columns: [
      day('date'),
      text('party'),
      level('number'),
      text('patient'),
      text('member'),
      text('treatment'),
      money('amount'),
      text('destination'),
      text('reason'),
    ],
    base: (ctx, request) => sql`
      select (r.created_at at time zone coalesce(${request.timeZone ?? null}, a.time_zone))::date::text as "date",
        p.name as "party", pr.number as "number", concat_ws(', ', pa.last_name, pa.first_name) as "patient",
        s.member_number as "member", s.description as "treatment", r.amount as "amount",
        r.destination as "destination", r.reason as "reason", r.created_at as "_at", r.id as "_id"
      from payer_rejections r
      join accounts a on a.id = r.account_id
      join payer_presentations pr on pr.account_id = r.account_id and pr.id = r.presentation_id
      join payers p on p.account_id = pr.account_id and p.id = pr.payer_id
      join payer_split_lines s on s.account_id = r.account_id and s.id = r.split_line_id
      join patients pa on pa.account_id = s.account_id and pa.id = s.patient_id
      where r.account_id = ${ctx.accountId}::uuid
        and (r.created_at at time zone coalesce(${request.timeZone ?? null}, a.time_zone))::date between ${request.from}::date and ${request.to}::date`,
    order: sql`"_at", "_id"`,
  },
  // Issue 40: the settlements whose period ends in the report's period, with what is paid and what is
  // still owed of each (its payable's open amount), newest period first.
  'professional-settlements': {
    id: 'professional-settlements',
    period: true,
    filters: ['professionalId'],
    columns: [
      text('number'),
      text('professional'),
      day('periodFrom'),
      day('periodTo'),
      money('total'),
      money('paid'),
      money('pending'),
    ],
    base: (ctx, request) => sql`
      select s.number as "number", s.professional_name as "professional", s.period_from as "periodFrom",
        s.period_to as "periodTo", s.total as "total", s.total - coalesce(d.open_amount, 0) as "paid",
        coalesce(d.open_amount, 0) as "pending", s.id as "_id"
      from settlements s
      left join commercial_documents d on d.account_id = s.account_id and d.id = s.document_id
      where s.account_id = ${ctx.accountId}::uuid
        and s.period_to between ${request.from}::date and ${request.to}::date
        ${request.professionalId ? sql`and s.professional_id = ${request.professionalId}::uuid` : sql``}`,
    order: sql`"periodTo" desc, "number" desc, "_id"`,
  },
  'receivables-aging': {
    id: 'receivables-aging',
    period: false,
    filters: [],
    columns: agingColumns,
    base: aging('customer'),
    order: sql`"balance" desc, odontia_sort_key("name") collate "C", "_id"`,
    pageWithTotals: agingPage('customer'),
  },
  payables: {
    id: 'payables',
    period: false,
    filters: [],
    columns: agingColumns,
    base: aging('provider'),
    order: sql`"balance" desc, odontia_sort_key("name") collate "C", "_id"`,
    pageWithTotals: agingPage('provider'),
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
    order: sql`"kind", odontia_sort_key("item") collate "C", "_id"`,
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
    ...keyed({ key: '_at', type: 'timestamptz' }, { key: '_id', type: 'uuid' }),
  },
  'daily-cash': {
    id: 'daily-cash',
    period: true,
    filters: ['method'],
    columns: [day('day'), text('method'), integer('count'), money('amount')],
    base: (ctx, request) => sql`
      select r.day::text as "day", r.key as "method", r.count as "count", r.amount as "amount"
      from (${periodFigures(ctx, request, ['collected'], request.method)}) r
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
        from (${periodFigures(ctx, request, ['treatments_sold'])}) r
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
    // the desk) in a row without professional. Attendances: those each invoice or debit note bills.
    // From the kept figure `production_professional` (key: the professional, '' for none).
    base: (ctx, request) => sql`
      select u.complete_name as "professional", sum(r.count)::int as "attendances", sum(r.amount) as "net",
        nullif(r.key, '') as "_id"
      from (${periodFigures(ctx, request, ['production_professional'], request.professionalId)}) r
      left join users u on u.account_id = ${ctx.accountId}::uuid and u.id::text = r.key
      group by r.key, u.complete_name
      having sum(r.count) <> 0 or sum(r.amount) <> 0`,
    order: sql`odontia_sort_key("professional") collate "C" nulls last, "_id"`,
  },
  'sales-vat-book': {
    id: 'sales-vat-book',
    period: true,
    filters: [],
    columns: vatBookColumns,
    base: vatBook('sale'),
    ...vatBookOrder,
    totals: vatBookTotals('sale'),
  },
  'purchases-vat-book': {
    id: 'purchases-vat-book',
    period: true,
    filters: [],
    columns: vatBookColumns,
    base: vatBook('purchase'),
    ...vatBookOrder,
    totals: vatBookTotals('purchase'),
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
        from (${periodFigures(ctx, request, ['appointments'])}) r
      ) k
      join users u on u.account_id = ${ctx.accountId}::uuid and u.id::text = k.professional_id
      ${request.professionalId ? sql`where k.professional_id = ${request.professionalId}` : sql``}
      group by u.complete_name, k.professional_id
      having sum(k.count) filter (where k.kind <> 'rescheduled') <> 0`,
    order: sql`odontia_sort_key("professional") collate "C", "_id"`,
  },
  'new-patients': {
    id: 'new-patients',
    period: true,
    filters: [],
    columns: [day('day'), integer('count')],
    base: (ctx, request) => sql`
      select r.day::text as "day", r.count as "count"
      from (${periodFigures(ctx, request, ['patients_new'])}) r
      where r.count <> 0`,
    order: sql`"day"`,
  },
  // Payment plans (issue 40): the unpaid instalments of active plans due in the period, oldest
  // first; overdue (due before the clinic's today, `asOf`), partly paid or pending, with what is
  // owed of each. Read through `payment_plan_instalments_due_idx` (clinic, due date).
  'payment-plan-instalments': {
    id: 'payment-plan-instalments',
    period: true,
    filters: [],
    columns: [
      day('dueOn'),
      text('customer'),
      text('number'),
      text('instalment'),
      money('amount'),
      money('paid'),
      money('owed'),
      text('instalmentState'),
    ],
    base: (ctx, request) => sql`
      select r.due_on::text as "dueOn", r.customer as "customer", r.number as "number",
        r.instalment as "instalment", r.amount as "amount",
        greatest(0, r.amount - (r.cumulative - r.paid)) as "paid",
        least(r.amount, r.cumulative - r.paid) as "owed",
        case when r.due_on < ${request.asOf}::date then 'overdue'
          when r.cumulative - r.amount < r.paid then 'partly_paid' else 'pending' end as "instalmentState",
        r.id as "_id"
      from (
        select i.id, i.due_on, i.amount, i.cumulative, c.name as customer,
          d.point_of_service || '-' || d.document_number as number,
          i.number || '/' || p.instalment_count as instalment,
          -- A budget's plan (issue 40) is paid by the collections made against it; an invoice's by the invoice.
          case when d.document_type = 'budget' then (
            select coalesce(sum(pm.amount), 0) from payment_plan_collections pc
            join payments pm on pm.account_id = pc.account_id and pm.id = pc.payment_id
            where pc.account_id = p.account_id and pc.plan_id = p.id and pm.reversed_at is null)
          else greatest(0, (d.total - d.open_amount) - p.start_paid + coalesce(n.total - n.open_amount, 0)) end as paid
        from payment_plan_instalments i
        join payment_plans p on p.account_id = i.account_id and p.id = i.plan_id
        join commercial_documents d on d.account_id = p.account_id and d.id = p.document_id
        left join commercial_documents n on n.account_id = p.account_id and n.id = p.interest_document_id
        join customers c on c.account_id = p.account_id and c.id = p.customer_id
        where i.account_id = ${ctx.accountId}::uuid and p.status = 'active'
          and i.due_on between ${request.from}::date and ${request.to}::date
      ) r
      where r.paid < r.cumulative`,
    order: sql`"dueOn", "_id"`,
  },
  'active-patients': {
    id: 'active-patients',
    period: true,
    filters: [],
    columns: [text('patientCode'), text('patient'), integer('attendanceCount'), day('lastAttendance')],
    // Patients with at least one attendance in the period (the clinic's days), in the patients'
    // name index order (Spanish order, db/spanish-order.ts): a page walks the names and reads each patient's period through
    // `attendances_patient_idx` (clinic, patient, date), stopping when the page is full — never the
    // period's attendances grouped and sorted whole. No kept figure holds distinct patients.
    base: (ctx, request) => sql`
      select p.sku_patient as "patientCode", p.last_name || ', ' || p.first_name as "patient",
        s.count as "attendanceCount", s.last as "lastAttendance",
        p.last_name_key collate "C" as "_last", p.first_name_key collate "C" as "_first",
        p.id as "_id"
      from (select c.time_zone as tz from accounts c where c.id = ${ctx.accountId}::uuid) z
      join patients p on p.account_id = ${ctx.accountId}::uuid and p.deleted_at is null
      cross join lateral (
        select count(*)::int as count, max((a.date at time zone z.tz)::date)::text as last
        from attendances a
        where a.account_id = p.account_id and a.patient_id = p.id and a.deleted_at is null
          and a.date >= (${request.from}::date::timestamp at time zone z.tz)
          and a.date < ((${request.to}::date + 1)::timestamp at time zone z.tz)
      ) s
      where s.count > 0`,
    ...keyed({ key: '_last', type: 'text' }, { key: '_first', type: 'text' }, { key: '_id', type: 'uuid' }),
    // The totals from the period's attendances through `attendances_recent_idx` (clinic, date,
    // with the patient): the distinct patients and the attendances, a deleted patient's left out.
    totals: (ctx, request) => sql`
      select count(*)::int as "_rows", coalesce(sum(b.count), 0)::int as "attendanceCount"
      from (
        select a.patient_id, count(*) as count
        from attendances a
        where a.account_id = ${ctx.accountId}::uuid and a.deleted_at is null
          and a.date >= ${periodInstants(ctx, request).start} and a.date < ${periodInstants(ctx, request).end}
        group by a.patient_id
      ) b
      where b.patient_id not in (
        select d.id from patients d where d.account_id = ${ctx.accountId}::uuid and d.deleted_at is not null)`,
  },
  // Issue 40: the registers' closings of the period (their clinic day), through
  // `cash_sessions_closed_idx` (clinic, closing day, register).
  'cash-closings': {
    id: 'cash-closings',
    period: true,
    filters: ['registerId'],
    columns: [day('day'), text('register'), text('number'), money('expected'), money('counted'), money('difference')],
    base: (ctx, request) => sql`
      select s.closed_on::text as "day", r.name as "register", s.number as "number",
        s.expected_total::numeric(20, 2) as "expected", s.counted_total::numeric(20, 2) as "counted",
        s.difference_total::numeric(20, 2) as "difference", s.id as "_id"
      from cash_sessions s
      join cash_registers r on r.account_id = s.account_id and r.id = s.register_id
      where s.account_id = ${ctx.accountId}::uuid and s.status = 'closed'
        and s.closed_on >= ${request.from}::date and s.closed_on <= ${request.to}::date
        ${request.registerId ? sql`and s.register_id = ${request.registerId}::uuid` : sql``}`,
    order: sql`"day", "register", "number", "_id"`,
  },
  // The closings' differences, one row per method that did not match, with the explanation.
  'cash-differences': {
    id: 'cash-differences',
    period: true,
    filters: ['method', 'registerId'],
    columns: [
      day('day'),
      text('register'),
      text('number'),
      text('method'),
      money('expected'),
      money('counted'),
      money('difference'),
      text('explanation'),
    ],
    base: (ctx, request) => sql`
      select s.closed_on::text as "day", r.name as "register", s.number as "number", c.method as "method",
        c.expected as "expected", c.counted as "counted", c.difference as "difference",
        s.explanation as "explanation", s.id as "_id"
      from cash_sessions s
      join cash_registers r on r.account_id = s.account_id and r.id = s.register_id
      join cash_session_counts c on c.account_id = s.account_id and c.session_id = s.id and c.difference <> 0
      where s.account_id = ${ctx.accountId}::uuid and s.status = 'closed'
        and s.closed_on >= ${request.from}::date and s.closed_on <= ${request.to}::date
        ${request.method ? sql`and c.method = ${request.method}` : sql``}
        ${request.registerId ? sql`and s.register_id = ${request.registerId}::uuid` : sql``}`,
    order: sql`"day", "register", "number", "method", "_id"`,
  },
};

/** The report's rows from `offset`, at most `limit`, in the report's order. */
export async function reportRows(
  ctx: TxContext,
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

/** A report's page and the totals of every row (the count and the summed columns). */
export async function reportPage(
  ctx: TxContext,
  definition: ReportDefinition,
  request: ReportRequest,
  { page, pageSize }: { page: number; pageSize: number },
): Promise<{ rows: ReportRow[]; count: number; totals: ReportRow }> {
  if (definition.pageWithTotals) {
    const answer = await definition.pageWithTotals(ctx, request, { page, pageSize });
    const summed = definition.columns.filter((column) => column.summed);
    return {
      rows: answer.rows.map((row) => presentRow(definition, row)),
      count: answer.count,
      totals: presentRow({ columns: summed }, answer.totals),
    };
  }
  const { count, totals } = await reportTotals(ctx, definition, request);
  const rows = await reportRows(ctx, definition, request, (page - 1) * pageSize, pageSize);
  return { rows, count, totals };
}

/**
 * The next chunk of an export: after `cursor` (the last row's keyset, as text) for a report with a
 * keyset — an index walk from there, whatever the depth — else by offset. Answers the rows and the
 * cursor of the last one.
 */
export async function reportChunk(
  ctx: TxContext,
  definition: ReportDefinition,
  request: ReportRequest,
  after: { offset: number; cursor: string[] | null },
  limit: number,
): Promise<{ rows: ReportRow[]; cursor: string[] | null }> {
  const { keyset } = definition;
  if (!keyset) {
    return { rows: await reportRows(ctx, definition, request, after.offset, limit), cursor: null };
  }
  const keys = sql.join(
    keyset.map((k) => sql`report.${sql.identifier(k.key)}`),
    sql`, `,
  );
  const start =
    after.cursor && after.cursor.length === keyset.length
      ? sql`where (${keys}) > (${sql.join(
          keyset.map((k, index) => sql`${after.cursor?.[index]}::${sql.raw(k.type)}`),
          sql`, `,
        )})`
      : sql``;
  const { rows } = await ctx.tx.execute<Record<string, unknown>>(sql`
    select report.*, array[${sql.join(
      keyset.map((k) => sql`report.${sql.identifier(k.key)}::text`),
      sql`, `,
    )}] as "_cursor"
    from (${definition.base(ctx, request)}) report
    ${start}
    order by ${keys}
    limit ${limit}`);
  const last = rows.at(-1);
  return {
    rows: rows.map((row) => presentRow(definition, row)),
    cursor: last ? (last._cursor as string[]) : after.cursor,
  };
}

/** How many rows the report has and its summed columns over all of them. */
export async function reportTotals(
  ctx: TxContext,
  definition: ReportDefinition,
  request: ReportRequest,
  { fromRows = false }: { fromRows?: boolean } = {},
): Promise<{ count: number; totals: ReportRow }> {
  const summed = definition.columns.filter((column) => column.summed);
  const sums = summed.map(
    (column) => sql`coalesce(sum(report.${sql.identifier(column.key)}), 0) as ${sql.identifier(column.key)}`,
  );
  const { rows } = await ctx.tx.execute<Record<string, unknown>>(
    definition.totals && !fromRows
      ? definition.totals(ctx, request)
      : sql`
    select count(*)::int as "_rows" ${sums.length > 0 ? sql`, ${sql.join(sums, sql`, `)}` : sql``}
    from (${definition.base(ctx, request)}) report`,
  );
  const row = rows[0] ?? {};
  return { count: Number(row._rows ?? 0), totals: presentRow({ ...definition, columns: summed }, row) };
}

/** The summed columns of rows already presented (a file's totals: the sum of what it holds). */
export function sumRows(definition: Pick<ReportDefinition, 'columns'>, rows: Iterable<ReportRow>): ReportRow {
  const summed = definition.columns.filter((column) => column.summed);
  const sums = new Map(summed.map((column) => [column.key, new Big(0)]));
  for (const row of rows) {
    for (const column of summed) sums.set(column.key, (sums.get(column.key) as Big).plus(String(row[column.key] ?? 0)));
  }
  return presentRow({ columns: summed }, Object.fromEntries([...sums].map(([key, value]) => [key, value.toString()])));
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
