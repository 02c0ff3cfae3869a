CREATE TABLE "day_figure_changes" (
	"account_id" uuid NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "day_figure_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"figure" text NOT NULL,
	"key" text NOT NULL,
	"day" date NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "day_figure_changes_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
CREATE TABLE "day_figures" (
	"account_id" uuid NOT NULL,
	"figure" text NOT NULL,
	"key" text NOT NULL,
	"day" date NOT NULL,
	"amount" numeric(14, 2) DEFAULT '0' NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "day_figures_account_id_figure_day_key_pk" PRIMARY KEY("account_id","figure","day","key")
);
--> statement-breakpoint
ALTER TABLE "day_figure_changes" ADD CONSTRAINT "day_figure_changes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "day_figures" ADD CONSTRAINT "day_figures_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "party_balances_balance_idx" ON "party_balances" USING btree ("account_id","party_kind",("debits" - "credits"),"party_id");--> statement-breakpoint
-- Hand-written (drizzle-kit does not write these). Clinic tables: row-level security and grants.
-- The app never deletes these rows: the fold and the rebuild do, as the system role and the owner.
SELECT enable_tenant_rls('day_figures');--> statement-breakpoint
SELECT enable_tenant_rls('day_figure_changes');--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON day_figures FROM odontia_app;--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON day_figure_changes FROM odontia_app;--> statement-breakpoint
-- The clinic's calendar day of an instant, in its time zone.
CREATE OR REPLACE FUNCTION odontia_clinic_day(account uuid, at timestamptz) RETURNS date
  LANGUAGE sql STABLE
  AS $$ SELECT (at AT TIME ZONE (SELECT a.time_zone FROM accounts a WHERE a.id = account))::date $$;--> statement-breakpoint
-- What each row counts for. One definition per table, read by its trigger (the row before and
-- after a change) and by odontia_day_figures (every row): the two cannot disagree.
--   owed / credit (key: side; day: due date, else the date): what an issued or registered
--     document still has open, positive / negative (a credit note not yet applied);
--   sold / sold_net, bought / bought_net (key: document type; day: its date): issued sales and
--     registered purchases, total and total without VAT;
--   collected / paid_out (key: method; day: its date): paid collections and payments, not reversed;
--   appointments (key: '<kind>:<professional>'; day: the start's clinic day): kind is the status,
--     except a cancellation for a no-show (no_show) or less than 24 hours before the start (late_cancelled);
--   treatments_sold (key: the treatment; day: the document's date): the price-list lines of issued
--     invoices and debit notes, net, minus those of credit notes;
--   attendances (key: the professional; day: its clinic day); patients_new (key ''; day: created).
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
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION odontia_payment_figures(y payments)
  RETURNS TABLE (figure text, key text, day date, amount numeric, count integer)
  LANGUAGE sql STABLE
  AS $$
  SELECT CASE y.side WHEN 'customer' THEN 'collected' ELSE 'paid_out' END, y.method, y.date, y.amount, 1
  WHERE y.id IS NOT NULL AND y.deleted_at IS NULL AND y.reversed_at IS NULL AND y.status = 'paid'
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION odontia_appointment_figures(a appointments)
  RETURNS TABLE (figure text, key text, day date, amount numeric, count integer)
  LANGUAGE sql STABLE
  AS $$
  SELECT 'appointments',
    CASE
      WHEN a.status = 'cancelled' AND a.cancel_reason = 'no_show' THEN 'no_show'
      WHEN a.status = 'cancelled' AND a.cancelled_at > a.starts_at - interval '24 hours' THEN 'late_cancelled'
      ELSE a.status
    END || ':' || a.professional_id::text,
    odontia_clinic_day(a.account_id, a.starts_at), 0::numeric, 1
  WHERE a.id IS NOT NULL AND a.deleted_at IS NULL
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION odontia_attendance_figures(a attendances)
  RETURNS TABLE (figure text, key text, day date, amount numeric, count integer)
  LANGUAGE sql STABLE
  AS $$
  SELECT 'attendances', a.professional_id::text, odontia_clinic_day(a.account_id, a.date), 0::numeric, 1
  WHERE a.id IS NOT NULL AND a.deleted_at IS NULL
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION odontia_patient_figures(p patients)
  RETURNS TABLE (figure text, key text, day date, amount numeric, count integer)
  LANGUAGE sql STABLE
  AS $$
  SELECT 'patients_new', '', odontia_clinic_day(p.account_id, p.created_at), 0::numeric, 1
  WHERE p.id IS NOT NULL AND p.deleted_at IS NULL
$$;--> statement-breakpoint
-- Every figure of a clinic as its rows make it now (the migration's backfill, the tests' check,
-- the rebuild when the clinic's time zone changes, the benchmarks' bulk loads).
CREATE OR REPLACE FUNCTION odontia_day_figures(account uuid)
  RETURNS TABLE (figure text, key text, day date, amount numeric, count bigint)
  LANGUAGE sql STABLE
  AS $$
  SELECT f.figure, f.key, f.day, sum(f.amount), sum(f.count)
  FROM (
    SELECT x.* FROM commercial_documents d, odontia_document_figures(d) x WHERE d.account_id = account
    UNION ALL SELECT x.* FROM payments y, odontia_payment_figures(y) x WHERE y.account_id = account
    UNION ALL SELECT x.* FROM appointments a, odontia_appointment_figures(a) x WHERE a.account_id = account
    UNION ALL SELECT x.* FROM attendances a, odontia_attendance_figures(a) x WHERE a.account_id = account
    UNION ALL SELECT x.* FROM patients p, odontia_patient_figures(p) x WHERE p.account_id = account
  ) f
  GROUP BY f.figure, f.key, f.day
$$;--> statement-breakpoint
-- A change appends what it makes differ, per figure, key and day: the row after minus the row
-- before (OLD is null on insert, NEW on delete; the figure functions answer nothing for null).
-- The trigger's argument names the table's figure function. Appending takes no lock another
-- writer waits on.
CREATE OR REPLACE FUNCTION odontia_append_figure_changes() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  EXECUTE format($sql$
    INSERT INTO day_figure_changes (account_id, figure, key, day, amount, count)
    SELECT $3, f.figure, f.key, f.day, sum(f.amount), sum(f.count)
    FROM (
      SELECT n.figure, n.key, n.day, n.amount, n.count FROM %1$I($1) n
      UNION ALL
      SELECT o.figure, o.key, o.day, -o.amount, -o.count FROM %1$I($2) o
    ) f
    GROUP BY f.figure, f.key, f.day
    HAVING sum(f.amount) <> 0 OR sum(f.count) <> 0$sql$, TG_ARGV[0])
  USING NEW, OLD, coalesce(NEW.account_id, OLD.account_id);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER commercial_documents_day_figures AFTER INSERT OR UPDATE OR DELETE ON commercial_documents
  FOR EACH ROW EXECUTE FUNCTION odontia_append_figure_changes('odontia_document_figures');--> statement-breakpoint
CREATE TRIGGER payments_day_figures AFTER INSERT OR UPDATE OR DELETE ON payments
  FOR EACH ROW EXECUTE FUNCTION odontia_append_figure_changes('odontia_payment_figures');--> statement-breakpoint
CREATE TRIGGER appointments_day_figures AFTER INSERT OR UPDATE OR DELETE ON appointments
  FOR EACH ROW EXECUTE FUNCTION odontia_append_figure_changes('odontia_appointment_figures');--> statement-breakpoint
CREATE TRIGGER attendances_day_figures AFTER INSERT OR UPDATE OR DELETE ON attendances
  FOR EACH ROW EXECUTE FUNCTION odontia_append_figure_changes('odontia_attendance_figures');--> statement-breakpoint
CREATE TRIGGER patients_day_figures AFTER INSERT OR UPDATE OR DELETE ON patients
  FOR EACH ROW EXECUTE FUNCTION odontia_append_figure_changes('odontia_patient_figures');--> statement-breakpoint
-- Recomputes one clinic's figures from its rows: when its time zone changes (the days of
-- appointments, attendances and patients move). The owner's rights (the app role may not delete
-- these rows), for the clinic of the calling transaction only.
CREATE OR REPLACE FUNCTION odontia_rebuild_day_figures(account uuid) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public
  AS $$
BEGIN
  IF coalesce(current_setting('role', true), '') = 'odontia_app'
    AND account IS DISTINCT FROM nullif(current_setting('app.account_id', true), '')::uuid THEN
    RAISE EXCEPTION 'another clinic''s figures';
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('odontia_fold_day_figures'));
  DELETE FROM day_figure_changes WHERE account_id = account;
  DELETE FROM day_figures WHERE account_id = account;
  INSERT INTO day_figures (account_id, figure, key, day, amount, count)
  SELECT account, f.figure, f.key, f.day, f.amount, f.count FROM odontia_day_figures(account) f
  WHERE f.amount <> 0 OR f.count <> 0;
END
$$;--> statement-breakpoint
REVOKE ALL ON FUNCTION odontia_rebuild_day_figures(uuid) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION odontia_rebuild_day_figures(uuid) TO odontia_app, odontia_system;--> statement-breakpoint
-- What the clinics already have.
INSERT INTO day_figures (account_id, figure, key, day, amount, count)
SELECT a.id, f.figure, f.key, f.day, f.amount, f.count
FROM accounts a, odontia_day_figures(a.id) f
WHERE f.amount <> 0 OR f.count <> 0;
