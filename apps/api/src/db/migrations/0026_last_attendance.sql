ALTER TABLE "patients" ADD COLUMN "last_attended_at" timestamp with time zone;--> statement-breakpoint
-- Hand-written (drizzle-kit does not write these). The dashboard's patients attended in a period
-- that ends today: those whose latest attendance falls in it, from patients_last_attended_idx
-- alone, plus the few attended since the period's end (an attendance dated ahead) that were also
-- attended in it — instead of every attendance of the period.
-- A patient's latest attendance (not deleted): the first entry of the patient's newest-first index.
CREATE OR REPLACE FUNCTION odontia_last_attendance(account uuid, patient uuid) RETURNS timestamptz
  LANGUAGE sql STABLE
  AS $$
  SELECT a.date FROM attendances a
  WHERE a.account_id = account AND a.patient_id = patient AND a.deleted_at IS NULL
  ORDER BY a.date DESC NULLS LAST, a.id DESC NULLS LAST
  LIMIT 1
$$;--> statement-breakpoint
-- The same trigger (attendances_first_attendance; its functions keep their 0023 names) now keeps
-- patients.first_attended_at and patients.last_attended_at together: one attendance written, one
-- patient update at most. A new attendance can only move the first earlier or the last later (no
-- read of the history); moving, deleting or restoring one reads both again. The patient's row is
-- written only when one of them changes.
CREATE OR REPLACE FUNCTION odontia_keep_first_attendance_of(account uuid, patient uuid) RETURNS void
  LANGUAGE sql
  AS $$
  UPDATE patients p SET first_attended_at = k.first_at, last_attended_at = k.last_at
    FROM (SELECT odontia_first_attendance(account, patient) AS first_at,
                 odontia_last_attendance(account, patient) AS last_at) k
   WHERE p.account_id = account AND p.id = patient
     AND (p.first_attended_at, p.last_attended_at) IS DISTINCT FROM (k.first_at, k.last_at)
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION odontia_keep_first_attendance() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.deleted_at IS NULL THEN
      -- least/greatest skip a NULL: a patient's first attendance sets both.
      UPDATE patients p SET first_attended_at = least(p.first_attended_at, NEW.date),
                            last_attended_at = greatest(p.last_attended_at, NEW.date)
       WHERE p.account_id = NEW.account_id AND p.id = NEW.patient_id
         AND (p.first_attended_at IS NULL OR p.first_attended_at > NEW.date
              OR p.last_attended_at IS NULL OR p.last_attended_at < NEW.date);
    END IF;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM odontia_keep_first_attendance_of(OLD.account_id, OLD.patient_id);
  ELSIF (NEW.date, NEW.deleted_at, NEW.patient_id) IS DISTINCT FROM (OLD.date, OLD.deleted_at, OLD.patient_id) THEN
    PERFORM odontia_keep_first_attendance_of(NEW.account_id, NEW.patient_id);
    IF OLD.patient_id IS DISTINCT FROM NEW.patient_id THEN
      PERFORM odontia_keep_first_attendance_of(OLD.account_id, OLD.patient_id);
    END IF;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- The rebuild (a time zone change, a bulk load with the triggers off) sets each patient's first
-- and latest attendance from the rows, then recomputes the figures (same body as 0023 otherwise).
CREATE OR REPLACE FUNCTION odontia_rebuild_day_figures(account uuid) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public
  AS $$
BEGIN
  IF coalesce(current_setting('role', true), '') = 'odontia_app'
    AND account IS DISTINCT FROM nullif(current_setting('app.account_id', true), '')::uuid THEN
    RAISE EXCEPTION 'another clinic''s figures';
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('odontia_fold_day_figures'));
  UPDATE patients p SET first_attended_at = f.first_at, last_attended_at = f.last_at
    FROM (SELECT q.id, s.first_at, s.last_at
          FROM patients q
          CROSS JOIN LATERAL (SELECT min(a.date) AS first_at, max(a.date) AS last_at FROM attendances a
                              WHERE a.account_id = q.account_id AND a.patient_id = q.id AND a.deleted_at IS NULL) s
          WHERE q.account_id = account) f
   WHERE p.account_id = account AND p.id = f.id
     AND (p.first_attended_at, p.last_attended_at) IS DISTINCT FROM (f.first_at, f.last_at);
  DELETE FROM day_figure_changes WHERE account_id = account;
  DELETE FROM day_figures WHERE account_id = account;
  INSERT INTO day_figures (account_id, figure, key, day, amount, count)
  SELECT account, f.figure, f.key, f.day, f.amount, f.count FROM odontia_day_figures(account) f
  WHERE f.amount <> 0 OR f.count <> 0;
END
$$;--> statement-breakpoint
REVOKE ALL ON FUNCTION odontia_rebuild_day_figures(uuid) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION odontia_rebuild_day_figures(uuid) TO odontia_app, odontia_system;--> statement-breakpoint
-- What the clinics already have: each patient's latest attendance from the rows (the figures do
-- not read it: no rebuild).
UPDATE patients p SET last_attended_at = l.last_at
  FROM (SELECT a.account_id, a.patient_id, max(a.date) AS last_at FROM attendances a
        WHERE a.deleted_at IS NULL GROUP BY a.account_id, a.patient_id) l
 WHERE p.account_id = l.account_id AND p.id = l.patient_id;--> statement-breakpoint
-- Declared in the schema (drizzle-kit wrote it above the backfill); built once the column is filled.
CREATE INDEX "patients_last_attended_idx" ON "patients" USING btree ("account_id","last_attended_at") WHERE "patients"."last_attended_at" is not null;--> statement-breakpoint
-- The new column's statistics at once: without them the planner guesses the patients attended
-- after a period's end by a fraction of the clinic and scans them all. (The backfill also leaves
-- the patients' pages not all-visible: the index-only count reads the table until the next
-- vacuum, autovacuum's work on a running server.)
ANALYZE "patients";
