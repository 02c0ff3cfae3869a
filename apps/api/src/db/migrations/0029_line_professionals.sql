ALTER TABLE "document_lines" ADD COLUMN "professional_id" uuid;--> statement-breakpoint
ALTER TABLE "document_lines" ADD CONSTRAINT "document_lines_account_id_professional_id_users_account_id_id_fk" FOREIGN KEY ("account_id","professional_id") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Hand-written (drizzle-kit does not write these). Issue 35, item 11: a sale line carries its
-- professional (the key above: a user of the same clinic), and production by professional counts
-- each line for it. Every line billed from an attendance takes the attendance's professional now,
-- issued ones too: the guard of final lines is lifted for this one statement only (the column is
-- new, nothing a document says changes, and the hash chain does not cover it). The kept figures
-- stay right: they already counted those lines for the attendance's professional.
ALTER TABLE document_lines DISABLE TRIGGER document_lines_final;--> statement-breakpoint
UPDATE document_lines l SET professional_id = a.professional_id
  FROM attendances a
  WHERE a.account_id = l.account_id AND a.id = l.attendance_id AND l.professional_id IS NULL;--> statement-breakpoint
ALTER TABLE document_lines ENABLE TRIGGER document_lines_final;--> statement-breakpoint
CREATE OR REPLACE FUNCTION odontia_document_figures(d commercial_documents)
  RETURNS TABLE (figure text, key text, day date, amount numeric, count integer)
  LANGUAGE sql STABLE
  AS $$
  SELECT v.figure, v.key, v.day, v.amount, 1
  FROM (VALUES
    ('owed', d.side, coalesce(d.due_date, d.date), d.open_amount, d.open_amount > 0),
    ('credit', d.side, coalesce(d.due_date, d.date), -d.open_amount, d.open_amount < 0),
    (CASE d.side WHEN 'sale' THEN 'sold' ELSE 'bought' END, d.document_type, d.date, d.total, d.status <> 'draft'),
    (CASE d.side WHEN 'sale' THEN 'sold_net' ELSE 'bought_net' END, d.document_type, d.date, d.total - d.vat_total, d.status <> 'draft')
  ) AS v(figure, key, day, amount, counts)
  WHERE d.id IS NOT NULL AND d.deleted_at IS NULL AND v.counts
  UNION ALL
  -- The treatments invoiced (an issued document's lines are final): net, a credit note's negative.
  SELECT 'treatments_sold', l.treatment_id::text, d.date,
    CASE d.document_type WHEN 'credit_note' THEN -l.subtotal ELSE l.subtotal END,
    CASE d.document_type WHEN 'credit_note' THEN -1 ELSE 1 END
  FROM document_lines l
  WHERE d.id IS NOT NULL AND d.deleted_at IS NULL AND d.side = 'sale' AND d.status <> 'draft'
    AND d.document_type IN ('invoice', 'debit_note', 'credit_note')
    AND l.account_id = d.account_id AND l.document_id = d.id AND l.treatment_id IS NOT NULL
  UNION ALL
  -- The VAT book rows: one per rate of the breakdown (none: one of the document's totals).
  SELECT CASE d.side WHEN 'sale' THEN 'sales_vat' ELSE 'purchases_vat' END || t.part,
    coalesce(round((s.share ->> 'rate')::numeric, 2)::text, ''), d.date,
    CASE d.document_type WHEN 'credit_note' THEN -1 ELSE 1 END
      * (CASE t.part WHEN '_base' THEN s.share ->> 'base' ELSE s.share ->> 'vat' END)::numeric,
    1
  FROM jsonb_array_elements(
      CASE WHEN jsonb_array_length(d.vat_breakdown) = 0
        THEN jsonb_build_array(jsonb_build_object('rate', null, 'base', (d.total - d.vat_total)::text, 'vat', d.vat_total::text))
        ELSE d.vat_breakdown END) AS s(share),
    (VALUES ('_base'), ('')) AS t(part)
  WHERE d.id IS NOT NULL AND d.deleted_at IS NULL
    AND d.status = CASE d.side WHEN 'sale' THEN 'issued' ELSE 'registered' END
    AND d.document_type IN ('invoice', 'debit_note', 'credit_note')
  UNION ALL
  -- Production by professional: each line for its own professional (issue 35), '' for none.
  SELECT 'production_professional', coalesce(l.professional_id::text, ''), d.date,
    sum(CASE d.document_type WHEN 'credit_note' THEN -l.subtotal ELSE l.subtotal END),
    (count(DISTINCT l.attendance_id) FILTER (WHERE d.document_type <> 'credit_note'))::int
  FROM document_lines l
  WHERE d.id IS NOT NULL AND d.deleted_at IS NULL AND d.side = 'sale' AND d.status = 'issued'
    AND d.document_type IN ('invoice', 'debit_note', 'credit_note')
    AND l.account_id = d.account_id AND l.document_id = d.id
  GROUP BY l.professional_id
$$;--> statement-breakpoint
-- A line's professional is its own from now on: an attendance that changes professional after it
-- was invoiced no longer moves what the invoice counted (the issued line says who did it).
DROP TRIGGER attendances_production_professional ON attendances;--> statement-breakpoint
DROP FUNCTION odontia_move_attendance_production();
