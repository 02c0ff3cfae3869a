ALTER TABLE "report_exports" ADD COLUMN "cursor" jsonb;--> statement-breakpoint
-- Hand-written (drizzle-kit does not write these). Reports at a big clinic's scale (issue 19):
-- the VAT books' totals and production by professional from kept day figures, the VAT books paged
-- in an index's order, and production moved when an invoiced attendance changes professional.
--
-- The document figures of migration 0020, plus:
--   sales_vat_base / sales_vat, purchases_vat_base / purchases_vat (key: the VAT rate with two
--     places, '' for a document without a breakdown; day: its date): one count per VAT book row
--     (document and rate) and its taxable base / VAT, a credit note's negative — the books' totals;
--   production_professional (key: the professional of the line's attendance, '' for a line sold at
--     the desk; day: the document's date): issued sales lines net, a credit note's negative, and
--     the attendances each invoice or debit note bills (counted once per document).
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
  -- Production by professional: the lines billed from an attendance for its professional.
  SELECT 'production_professional', coalesce(a.professional_id::text, ''), d.date,
    sum(CASE d.document_type WHEN 'credit_note' THEN -l.subtotal ELSE l.subtotal END),
    (count(DISTINCT l.attendance_id) FILTER (WHERE d.document_type <> 'credit_note'))::int
  FROM document_lines l
  LEFT JOIN attendances a ON a.account_id = l.account_id AND a.id = l.attendance_id
  WHERE d.id IS NOT NULL AND d.deleted_at IS NULL AND d.side = 'sale' AND d.status = 'issued'
    AND d.document_type IN ('invoice', 'debit_note', 'credit_note')
    AND l.account_id = d.account_id AND l.document_id = d.id
  GROUP BY a.professional_id
$$;--> statement-breakpoint
-- An invoiced attendance that changes professional moves what it billed (amount and the documents
-- that bill it) from the one to the other, on each document's day: what the figures of the rows
-- would say after the change.
CREATE OR REPLACE FUNCTION odontia_move_attendance_production() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  INSERT INTO day_figure_changes (account_id, figure, key, day, amount, count)
  SELECT NEW.account_id, 'production_professional', m.key, b.day, m.sign * b.amount, m.sign * b.count
  FROM (
    SELECT d.date AS day,
      sum(CASE d.document_type WHEN 'credit_note' THEN -l.subtotal ELSE l.subtotal END) AS amount,
      (count(DISTINCT d.id) FILTER (WHERE d.document_type <> 'credit_note'))::int AS count
    FROM document_lines l
    JOIN commercial_documents d ON d.account_id = l.account_id AND d.id = l.document_id
    WHERE l.account_id = NEW.account_id AND l.attendance_id = NEW.id
      AND d.deleted_at IS NULL AND d.side = 'sale' AND d.status = 'issued'
      AND d.document_type IN ('invoice', 'debit_note', 'credit_note')
    GROUP BY d.date
  ) b
  CROSS JOIN (VALUES (coalesce(NEW.professional_id::text, ''), 1), (coalesce(OLD.professional_id::text, ''), -1)) AS m(key, sign)
  WHERE b.amount <> 0 OR b.count <> 0;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER attendances_production_professional AFTER UPDATE OF professional_id ON attendances
  FOR EACH ROW WHEN (OLD.professional_id IS DISTINCT FROM NEW.professional_id)
  EXECUTE FUNCTION odontia_move_attendance_production();--> statement-breakpoint
-- The VAT books in their order (date, point of sale, number, document), a page read from the start
-- of the period and stopped after it; the export's keyset walks it too.
CREATE INDEX "commercial_documents_vat_book_idx" ON "commercial_documents" USING btree
  ("account_id", "side", "date", coalesce("point_of_service", ''), coalesce("document_number", ''), "id")
  WHERE "deleted_at" IS NULL AND "status" IN ('issued', 'registered')
    AND "document_type" IN ('invoice', 'debit_note', 'credit_note');--> statement-breakpoint
-- What the clinics already have, for the new figures.
INSERT INTO day_figures (account_id, figure, key, day, amount, count)
SELECT a.id, f.figure, f.key, f.day, f.amount, f.count
FROM accounts a, odontia_day_figures(a.id) f
WHERE f.figure IN ('sales_vat_base', 'sales_vat', 'purchases_vat_base', 'purchases_vat', 'production_professional')
  AND (f.amount <> 0 OR f.count <> 0);
