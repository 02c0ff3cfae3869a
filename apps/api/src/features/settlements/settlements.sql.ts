import { type SQL, sql } from 'drizzle-orm';

/**
 * The one statement that computes a professional's settlement lines for a period (issue 40):
 * set-based, no query per row, so a month of 100,000 invoice lines settles in one pass.
 *
 * Sources, each settled once per professional (settlement_lines_source_unique):
 * - `invoice_line`: a line of an issued invoice, debit note or credit note (negative) whose
 *   professional is this one, dated up to `to`, when the rule in force on the document's date is
 *   on what is invoiced. Base: the line's net (without VAT).
 * - `collection`: a paid collection's allocation to an issued invoice or debit note with a line of
 *   this professional, dated (the day it was paid) up to `to`, when the rule in force that day is
 *   on what is collected. Base: the line's net × allocated ÷ the document's total (the collected
 *   share of the line, pro rata), rounded half-up to the cent per line.
 * - `collection_reversal`: a settled collection whose payment was reversed since: the same line
 *   negated, dated the day of the reversal (clinic time).
 * Lab cost (when the rule deducts it): the treatment's `lab_cost` × quantity, signed and prorated
 * as the base. Amount: a percentage of (base − lab cost), or the fixed amount × quantity (signed,
 * prorated) − lab cost; each rounded half-up to the cent.
 * The rule: the professional's most specific rule in force on the source's date — a treatment's
 * over a group's over the default; among those, the latest `valid_from`.
 * The window: from the professional's first settled period (or `from` for the first) to `to`;
 * what is dated before `from` and not settled yet is an adjustment (a late invoice, a late
 * collection), and so is a reversal or a credit note of what was already settled.
 */
export interface PeriodParams {
  accountId: string;
  professionalId: string;
  from: string;
  to: string;
  timeZone: string;
}

export function settlementLinesQuery(p: PeriodParams): SQL {
  const account = sql`${p.accountId}::uuid`;
  const professional = sql`${p.professionalId}::uuid`;
  const from = sql`${p.from}::date`;
  const to = sql`${p.to}::date`;
  return sql`
    with floor as (
      select least(${from}, coalesce(min(period_from), ${from})) as day
      from settlements where account_id = ${account} and professional_id = ${professional}
    ),
    rules as materialized (
      select id, scope, treatment_id, lower(group_name) as group_key, method, value, basis, deduct_lab_cost, valid_from,
             case scope when 'treatment' then 0 when 'group' then 1 else 2 end as rank
      from settlement_rules
      where account_id = ${account} and professional_id = ${professional} and deleted_at is null
    ),
    line_columns as (
      select dl.id as line_id, dl.document_id, d.document_type, d.date as document_date, d.related_document_id,
             coalesce(d.point_of_service || '-', '') || coalesce(d.document_number, '') as document_label,
             d.patient_id, d.counterparty_snapshot ->> 'name' as patient_name, dl.attendance_id, dl.treatment_id,
             dl.description, t.group_name, coalesce(t.lab_cost, 0) as unit_lab_cost, dl.quantity, dl.subtotal,
             d.total as document_total,
             case when d.document_type = 'credit_note' then -1 else 1 end as sign
      from document_lines dl
      join commercial_documents d on d.account_id = dl.account_id and d.id = dl.document_id
      left join treatments t on t.account_id = dl.account_id and t.id = dl.treatment_id
      where dl.account_id = ${account} and dl.professional_id = ${professional}
        and d.side = 'sale' and d.status = 'issued' and d.deleted_at is null
        and d.document_type in ('invoice', 'debit_note', 'credit_note')
    ),
    invoiced as (
      select * from line_columns l where l.document_date between (select day from floor) and ${to}
    ),
    paid as (
      select a.id as allocation_id, a.document_id, a.amount, y.id as payment_id, coalesce(y.paid_on, y.date) as paid_day
      from payments y
      join payment_allocations a on a.account_id = y.account_id and a.payment_id = y.id
      where y.account_id = ${account} and y.side = 'customer' and y.status = 'paid' and y.reversed_at is null
        and a.reversed_at is null and coalesce(y.paid_on, y.date) between (select day from floor) and ${to}
    ),
    collected as (
      select p.allocation_id, p.payment_id, p.paid_day, p.amount, l.*
      from paid p
      join line_columns l on l.document_id = p.document_id
      where l.sign = 1 and l.document_total > 0
    ),
    sources as (
      select 'invoice_line'::text as source_kind, i.line_id as source_id, i.*, i.document_date as source_date,
             null::uuid as payment_id, 1::numeric as share, 'invoiced'::text as basis
      from invoiced i
      union all
      select 'collection', c.allocation_id, c.line_id, c.document_id, c.document_type, c.document_date,
             c.related_document_id, c.document_label, c.patient_id, c.patient_name, c.attendance_id, c.treatment_id,
             c.description, c.group_name, c.unit_lab_cost, c.quantity, c.subtotal, c.document_total, c.sign,
             c.paid_day, c.payment_id, c.amount / c.document_total, 'collected'
      from collected c
    ),
    -- The rule of each (treatment, group, day, basis) once, not once per line.
    rule_keys as materialized (
      select coalesce(k.treatment_id::text, '') as treatment_key, coalesce(k.group_name, '') as group_key,
             k.source_date, k.basis, r.id as rule_id, r.scope as rule_scope,
             r.method as rule_method, r.value as rule_value, r.deduct_lab_cost
      from (select distinct treatment_id, group_name, source_date, basis from sources) k
      cross join lateral (
        select * from rules r
        where r.valid_from <= k.source_date
          and (r.scope = 'default' or r.treatment_id = k.treatment_id or r.group_key = lower(k.group_name))
        order by r.rank, r.valid_from desc
        limit 1
      ) r
      where r.basis = k.basis
    ),
    -- What the professional's settlements hold in the window, read through their ids (the index of
    -- a settlement's lines): rows of an aborted confirm (rolled back) belong to no settlement and
    -- are never walked over.
    settled as materialized (
      select x.source_kind, x.source_id, x.document_line_id
      from settlements st
      join settlement_lines x on x.account_id = st.account_id and x.settlement_id = st.id
      where st.account_id = ${account} and st.professional_id = ${professional}
        and st.period_to >= (select day from floor)
        and x.source_date between (select day from floor) and ${to}
    ),
    computed as (
      select s.*, k.rule_id, k.rule_scope, k.rule_method, k.rule_value,
             round(s.sign * s.subtotal * s.share, 2) as base,
             case when k.deduct_lab_cost then round(s.sign * s.unit_lab_cost * s.quantity * s.share, 2) else 0 end
               as lab_cost
      from sources s
      join rule_keys k on k.treatment_key = coalesce(s.treatment_id::text, '')
        and k.group_key = coalesce(s.group_name, '') and k.source_date = s.source_date and k.basis = s.basis
      where not exists (
          select 1 from settled x
          where x.source_kind = s.source_kind and x.source_id = s.source_id and x.document_line_id = s.line_id)
    ),
    candidate as (
      select c.source_kind, c.source_id, c.line_id as document_line_id, c.document_id, c.document_type,
             c.document_label, c.payment_id, c.attendance_id, c.patient_id, c.patient_name, c.treatment_id,
             c.description, c.group_name, c.source_date, c.quantity, c.base, c.lab_cost, c.rule_id, c.rule_scope,
             c.rule_method, c.rule_value, c.basis as rule_basis,
             case when c.rule_method = 'percentage' then round((c.base - c.lab_cost) * c.rule_value / 100, 2)
                  else round(c.sign * c.rule_value * c.quantity * c.share, 2) - c.lab_cost end as amount,
             case when c.source_date < ${from} then 'adjustment'
                  when c.document_type = 'credit_note' and exists (
                    select 1 from settlement_lines x
                    where x.account_id = ${account} and x.professional_id = ${professional}
                      and x.document_id = c.related_document_id) then 'adjustment'
                  else 'regular' end as kind
      from computed c
      union all
      select 'collection_reversal', x.source_id, x.document_line_id, x.document_id, x.document_type, x.document_label,
             x.payment_id, x.attendance_id, x.patient_id, x.patient_name, x.treatment_id, x.description, x.group_name,
             (a.reversed_at at time zone ${p.timeZone})::date, x.quantity, -x.base, -x.lab_cost, x.rule_id,
             x.rule_scope, x.rule_method, x.rule_value, x.rule_basis, -x.amount, 'adjustment'
      from settlement_lines x
      join payment_allocations a on a.account_id = x.account_id and a.id = x.source_id
      where x.account_id = ${account} and x.professional_id = ${professional} and x.source_kind = 'collection'
        and a.reversed_at is not null and (a.reversed_at at time zone ${p.timeZone})::date <= ${to}
        and not exists (
          select 1 from settlement_lines z
          where z.account_id = x.account_id and z.professional_id = x.professional_id
            and z.source_kind = 'collection_reversal' and z.source_id = x.source_id
            and z.document_line_id = x.document_line_id)
    )
    select * from candidate`;
}

/** The print order: by treatment (its description), then date, then the source. */
export const linesOrder = sql.raw('description, source_date, document_label, source_kind, document_line_id');

/**
 * The UUID v7 of each line one statement writes by the thousand (ARCHITECTURE §4: ids are v7),
 * RFC 9562 method 1: the statement's millisecond (computed once, an InitPlan), the version 7, a
 * 28-bit counter (the line's row number: its top 12 bits in rand_a, the next 12 after the variant,
 * the last 4 at the head of the final group) and 44 random bits. Ids increase within the statement,
 * so the primary key is appended at its right edge instead of split at random. Built from integers
 * (four to_hex, one random()) and read as 32 hex digits: the earlier text surgery on the row
 * number and on a gen_random_uuid() per line cost ~1 s per 100,000 lines on a loaded machine, this
 * ~0.15 s. random() is not a cryptographic generator: its bits only keep apart the lines of two
 * statements in the same millisecond (the key refuses a collision), and the ids are no secrets.
 * `rowNumber` is the line's 1-based number in the statement (row_number() over ()), below 2^28.
 */
export function sqlUuidV7(rowNumber: SQL): SQL {
  return sql`((select lpad(to_hex((extract(epoch from clock_timestamp()) * 1000)::bigint), 12, '0'))
    || to_hex(28672 | (${rowNumber} >> 16)::int) || to_hex(32768 | ((${rowNumber} >> 4) & 4095)::int)
    || lpad(to_hex(((${rowNumber} & 15)::bigint << 44) | (random() * 17592186044415)::bigint), 12, '0'))::uuid`;
}
