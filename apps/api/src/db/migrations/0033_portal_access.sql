ALTER TABLE "accounts" ADD COLUMN "public_slug" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "portal_payment_instructions" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "patient_id" uuid;--> statement-breakpoint
CREATE UNIQUE INDEX "users_patient_unique" ON "users" USING btree ("account_id","patient_id");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_patient_customer" CHECK (("users"."level" = 'customer') = ("users"."patient_id" is not null));--> statement-breakpoint
-- hand-written:

-- A customer membership's patient is the clinic's own (schema/accounts.ts cannot import patients.ts).
ALTER TABLE users ADD CONSTRAINT users_patient_fk FOREIGN KEY (account_id, patient_id) REFERENCES patients (account_id, id);
--> statement-breakpoint

-- The clinic's public address (issue 37): lower-case, no accents, [a-z0-9-]{3,60}, unique. A
-- clinic inserted with '' (the column's default: sign-up, raw inserts) gets one from its name,
-- de-duplicated with a suffix ("clinica-sonrisa-2"); the existing clinics get theirs here.
CREATE OR REPLACE FUNCTION odontia_clinic_slug(name text, own uuid) RETURNS text
  LANGUAGE plpgsql VOLATILE
  AS $$
DECLARE
  base text;
  candidate text;
  n integer := 1;
BEGIN
  base := regexp_replace(lower(public.unaccent('public.unaccent'::regdictionary, coalesce(name, ''))), '[^a-z0-9]+', '-', 'g');
  base := trim(both '-' from left(trim(both '-' from base), 52));
  IF length(base) < 3 THEN
    base := trim(both '-' from 'clinica-' || base);
  END IF;
  candidate := base;
  WHILE EXISTS (SELECT 1 FROM accounts a WHERE a.public_slug = candidate AND a.id IS DISTINCT FROM own) LOOP
    n := n + 1;
    candidate := base || '-' || n;
  END LOOP;
  RETURN candidate;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION accounts_public_slug() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF NEW.public_slug IS NULL OR NEW.public_slug = '' THEN
    NEW.public_slug := odontia_clinic_slug(NEW.clinic_name, NEW.id);
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER accounts_public_slug BEFORE INSERT OR UPDATE OF public_slug ON accounts
  FOR EACH ROW EXECUTE FUNCTION accounts_public_slug();
--> statement-breakpoint
DO $$
DECLARE
  clinic record;
BEGIN
  FOR clinic IN SELECT id, clinic_name FROM accounts WHERE public_slug = '' ORDER BY created_at, id LOOP
    UPDATE accounts SET public_slug = odontia_clinic_slug(clinic.clinic_name, clinic.id) WHERE id = clinic.id;
  END LOOP;
END
$$;
--> statement-breakpoint
CREATE UNIQUE INDEX accounts_public_slug_unique ON accounts (public_slug);
--> statement-breakpoint
ALTER TABLE accounts ADD CONSTRAINT accounts_public_slug_form CHECK (public_slug ~ '^[a-z0-9-]{3,60}$');
--> statement-breakpoint

-- A patient's transaction in the portal (issue 37, docs/decisions.md): the role odontia_portal,
-- a member of odontia_app (so the clinic's tenant_isolation policies and grants apply to it as
-- they are), plus RESTRICTIVE policies on every table that holds a patient's rows: the database
-- itself shows and accepts only the rows of the patient named by app.patient_id. Staff
-- transactions (odontia_app) are untouched: these policies are only TO odontia_portal.
DO $$
BEGIN
  BEGIN
    CREATE ROLE odontia_portal NOLOGIN NOSUPERUSER NOBYPASSRLS INHERIT;
  EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
  END;
END
$$;
--> statement-breakpoint
GRANT odontia_app TO odontia_portal;
--> statement-breakpoint
DO $$
BEGIN
  IF NOT pg_has_role(current_user, 'odontia_portal', 'MEMBER') THEN
    EXECUTE format('GRANT odontia_portal TO %I', current_user);
  END IF;
END
$$;
--> statement-breakpoint
-- The patient of the current portal transaction, or NULL (then a portal transaction sees none).
CREATE OR REPLACE FUNCTION current_patient_id() RETURNS uuid
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT nullif(current_setting('app.patient_id', true), '')::uuid $$;
--> statement-breakpoint
-- Puts a table under the patient's policy: `visible` is the condition a row of the patient meets.
-- Later features call it for their own patient tables (online booking, remote signing).
CREATE OR REPLACE FUNCTION enable_patient_rls(target regclass, visible text) RETURNS void
  LANGUAGE plpgsql
  AS $$
BEGIN
  EXECUTE format(
    'CREATE POLICY patient_isolation ON %s AS RESTRICTIVE TO odontia_portal USING (%s) WITH CHECK (%s)',
    target, visible, visible);
END
$$;
--> statement-breakpoint
SELECT enable_patient_rls('patients', 'id = current_patient_id()');
--> statement-breakpoint
SELECT enable_patient_rls(t, 'patient_id = current_patient_id()')
  FROM unnest(ARRAY[
    'appointments', 'diagnoses', 'laboratories', 'attendances', 'odontogram_entries', 'prescriptions',
    'treatment_authorizations', 'patient_files', 'health_certificates', 'customers'
  ]::regclass[]) AS t;
--> statement-breakpoint
-- A row under a parent: visible when its parent is (the parent's own policy applies inside EXISTS).
SELECT enable_patient_rls('prescription_lines',
  'EXISTS (SELECT 1 FROM prescriptions p WHERE p.account_id = prescription_lines.account_id AND p.id = prescription_lines.prescription_id)');
--> statement-breakpoint
SELECT enable_patient_rls('attendance_lines',
  'EXISTS (SELECT 1 FROM attendances p WHERE p.account_id = attendance_lines.account_id AND p.id = attendance_lines.attendance_id)');
--> statement-breakpoint
SELECT enable_patient_rls('authorization_signatures',
  'EXISTS (SELECT 1 FROM treatment_authorizations p WHERE p.account_id = authorization_signatures.account_id AND p.id = authorization_signatures.authorization_id)');
--> statement-breakpoint
SELECT enable_patient_rls('appointment_links',
  'EXISTS (SELECT 1 FROM appointments p WHERE p.account_id = appointment_links.account_id AND p.id = appointment_links.appointment_id)');
--> statement-breakpoint
-- The money side: the documents, collections and ledger of the patient's own customer rows.
SELECT enable_patient_rls('commercial_documents',
  'EXISTS (SELECT 1 FROM customers c WHERE c.account_id = commercial_documents.account_id AND c.id = commercial_documents.customer_id)');
--> statement-breakpoint
SELECT enable_patient_rls('payments',
  'EXISTS (SELECT 1 FROM customers c WHERE c.account_id = payments.account_id AND c.id = payments.customer_id)');
--> statement-breakpoint
SELECT enable_patient_rls('ledger_entries',
  'EXISTS (SELECT 1 FROM customers c WHERE c.account_id = ledger_entries.account_id AND c.id = ledger_entries.party_id)');
--> statement-breakpoint
SELECT enable_patient_rls('party_balances',
  'EXISTS (SELECT 1 FROM customers c WHERE c.account_id = party_balances.account_id AND c.id = party_balances.party_id)');
--> statement-breakpoint
SELECT enable_patient_rls('document_lines',
  'EXISTS (SELECT 1 FROM commercial_documents d WHERE d.account_id = document_lines.account_id AND d.id = document_lines.document_id)');
--> statement-breakpoint
SELECT enable_patient_rls('payment_allocations',
  'EXISTS (SELECT 1 FROM commercial_documents d WHERE d.account_id = payment_allocations.account_id AND d.id = payment_allocations.document_id)');
--> statement-breakpoint

-- The session check answers the membership's patient too (a customer session's patientId): the
-- portal context costs no query of its own.
DROP FUNCTION IF EXISTS odontia_session_check(text, timestamptz, boolean, integer);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION odontia_session_check(
  token_hash text, at timestamptz, background boolean, activity_interval_ms integer
) RETURNS TABLE (
  session_id uuid, user_id uuid, account_id uuid, level text, time_zone text, refusal text, locked boolean,
  plan_ends_at timestamptz, renewal_requested_at timestamptz, patient_id uuid
)
  LANGUAGE plpgsql VOLATILE
  AS $$
DECLARE
  caller_role text := current_setting('role');
  caller_account text := coalesce(current_setting('app.account_id', true), '');
  checked record;
  session_found boolean;
  idle interval;
BEGIN
  PERFORM set_config('role', 'odontia_system', true), set_config('app.account_id', '', true);
  SELECT s.account_id, s.id, s.user_id, s.revoked_at, s.locked_at,
         date_trunc('milliseconds', s.expires_at) AS expires_at,
         date_trunc('milliseconds', s.last_activity_at) AS last_activity_at,
         u.level, u.active, u.patient_id, a.lock_after_minutes, a.time_zone,
         a.plan_ends_at, a.renewal_requested_at
    INTO checked
    FROM sessions s
    JOIN users u ON u.account_id = s.account_id AND u.id = s.user_id
    JOIN accounts a ON a.id = s.account_id
   WHERE s.token_hash = odontia_session_check.token_hash;
  session_found := FOUND;
  IF session_found THEN
    session_id := checked.id;
    user_id := checked.user_id;
    account_id := checked.account_id;
    level := checked.level;
    patient_id := checked.patient_id;
    time_zone := checked.time_zone;
    plan_ends_at := checked.plan_ends_at;
    renewal_requested_at := checked.renewal_requested_at;
    locked := checked.locked_at IS NOT NULL;
    idle := odontia_session_check.at - checked.last_activity_at;
    IF checked.revoked_at IS NOT NULL OR NOT checked.active THEN
      refusal := 'unauthorized';
    ELSIF checked.expires_at <= odontia_session_check.at THEN
      refusal := 'session_expired';
    ELSIF NOT locked AND idle > make_interval(mins => checked.lock_after_minutes) THEN
      locked := true;
      UPDATE sessions SET locked_at = odontia_session_check.at
       WHERE sessions.account_id = checked.account_id AND sessions.id = checked.id;
    ELSIF NOT locked AND NOT background AND idle >= activity_interval_ms * interval '1 millisecond' THEN
      UPDATE sessions SET last_activity_at = odontia_session_check.at
       WHERE sessions.account_id = checked.account_id AND sessions.id = checked.id;
    END IF;
  END IF;
  PERFORM set_config('role', caller_role, true), set_config('app.account_id', caller_account, true);
  IF session_found THEN
    RETURN NEXT;
  END IF;
END
$$;
