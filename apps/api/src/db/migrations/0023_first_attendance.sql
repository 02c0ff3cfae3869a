ALTER TABLE "patients" ADD COLUMN "first_attended_at" timestamp with time zone;--> statement-breakpoint
-- Hand-written (drizzle-kit does not write these). The dashboard's returning patients (issue 19):
-- the patients attended in a period, from the index alone, minus those attended for the first
-- time in it, a kept day figure.
DROP INDEX IF EXISTS "attendances_recent_idx";--> statement-breakpoint
CREATE INDEX "attendances_recent_idx" ON "attendances" USING btree ("account_id", "date" DESC NULLS LAST, "id" DESC NULLS LAST)
  INCLUDE ("patient_id") WHERE "attendances"."deleted_at" is null;--> statement-breakpoint
-- A patient's first attendance (not deleted) as the attendances make it now: the last entry of
-- the patient's newest-first index, read backwards.
CREATE OR REPLACE FUNCTION odontia_first_attendance(account uuid, patient uuid) RETURNS timestamptz
  LANGUAGE sql STABLE
  AS $$
  SELECT a.date FROM attendances a
  WHERE a.account_id = account AND a.patient_id = patient AND a.deleted_at IS NULL
  ORDER BY a.date ASC NULLS FIRST, a.id ASC NULLS FIRST
  LIMIT 1
$$;--> statement-breakpoint
-- Keeps patients.first_attended_at. A new attendance can only move it earlier (no read of the
-- history: a bulk insert costs one patient look-up a row); moving, deleting or restoring one reads
-- the patient's first attendance again. The patient's row is written only when it changes.
CREATE OR REPLACE FUNCTION odontia_keep_first_attendance_of(account uuid, patient uuid) RETURNS void
  LANGUAGE sql
  AS $$
  UPDATE patients p SET first_attended_at = odontia_first_attendance(account, patient)
   WHERE p.account_id = account AND p.id = patient
     AND p.first_attended_at IS DISTINCT FROM odontia_first_attendance(account, patient)
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION odontia_keep_first_attendance() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.deleted_at IS NULL THEN
      UPDATE patients p SET first_attended_at = NEW.date
       WHERE p.account_id = NEW.account_id AND p.id = NEW.patient_id
         AND (p.first_attended_at IS NULL OR p.first_attended_at > NEW.date);
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
CREATE TRIGGER attendances_first_attendance AFTER INSERT OR DELETE OR UPDATE OF date, deleted_at, patient_id ON attendances
  FOR EACH ROW EXECUTE FUNCTION odontia_keep_first_attendance();--> statement-breakpoint
-- patients_first_attended (key ''; day: the first attendance's clinic day) beside patients_new.
CREATE OR REPLACE FUNCTION odontia_patient_figures(p patients)
  RETURNS TABLE (figure text, key text, day date, amount numeric, count integer)
  LANGUAGE sql STABLE
  AS $$
  SELECT 'patients_new', '', odontia_clinic_day(p.account_id, p.created_at), 0::numeric, 1
  WHERE p.id IS NOT NULL AND p.deleted_at IS NULL
  UNION ALL
  SELECT 'patients_first_attended', '', odontia_clinic_day(p.account_id, p.first_attended_at), 0::numeric, 1
  WHERE p.id IS NOT NULL AND p.deleted_at IS NULL AND p.first_attended_at IS NOT NULL
$$;--> statement-breakpoint
-- The rebuild (a time zone change, a bulk load with the triggers off) first sets each patient's
-- first attendance from the rows, then recomputes the figures (same body as 0020 otherwise).
CREATE OR REPLACE FUNCTION odontia_rebuild_day_figures(account uuid) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public
  AS $$
BEGIN
  IF coalesce(current_setting('role', true), '') = 'odontia_app'
    AND account IS DISTINCT FROM nullif(current_setting('app.account_id', true), '')::uuid THEN
    RAISE EXCEPTION 'another clinic''s figures';
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('odontia_fold_day_figures'));
  UPDATE patients p SET first_attended_at = f.first
    FROM (SELECT q.id, (SELECT min(a.date) FROM attendances a
                         WHERE a.account_id = q.account_id AND a.patient_id = q.id AND a.deleted_at IS NULL) AS first
          FROM patients q WHERE q.account_id = account) f
   WHERE p.account_id = account AND p.id = f.id AND p.first_attended_at IS DISTINCT FROM f.first;
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
SELECT odontia_rebuild_day_figures(id) FROM accounts;
