-- Platform: extensions the later features use, the roles of the tenancy mechanism and the
-- helper that puts a tenant table under row-level security (ARCHITECTURE §4).

-- Accent- and case-insensitive search, trigram indexes, exclusion constraints on ranges.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gist;
--> statement-breakpoint

-- odontia_app: every request of a clinic runs as this role; it owns nothing and cannot bypass RLS.
-- odontia_system: the few auth flows that must look across clinics (sign-in by e-mail, token
-- look-ups). Roles are cluster-wide, so several databases on one server share them.
DO $$
BEGIN
  BEGIN
    CREATE ROLE odontia_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOINHERIT;
  EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
  END;
  BEGIN
    CREATE ROLE odontia_system NOLOGIN NOSUPERUSER NOBYPASSRLS NOINHERIT;
  EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
  END;
END
$$;
--> statement-breakpoint

-- The connecting user must be a member to switch role with set_config('role', …).
DO $$
BEGIN
  IF NOT pg_has_role(current_user, 'odontia_app', 'MEMBER') THEN
    EXECUTE format('GRANT odontia_app TO %I', current_user);
  END IF;
  IF NOT pg_has_role(current_user, 'odontia_system', 'MEMBER') THEN
    EXECUTE format('GRANT odontia_system TO %I', current_user);
  END IF;
END
$$;
--> statement-breakpoint

GRANT USAGE ON SCHEMA public TO odontia_app, odontia_system;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO odontia_app, odontia_system;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO odontia_app, odontia_system;
--> statement-breakpoint

-- The clinic of the current transaction, or NULL outside a tenant context.
CREATE OR REPLACE FUNCTION current_account_id() RETURNS uuid
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT nullif(current_setting('app.account_id', true), '')::uuid $$;
--> statement-breakpoint

-- Puts a table with an `account_id` column under row-level security: the clinic context sees and
-- writes only its own rows, no context sees none, and the system context sees all.
-- FORCE applies the policies to the table owner too.
CREATE OR REPLACE FUNCTION enable_tenant_rls(target regclass) RETURNS void
  LANGUAGE plpgsql
  AS $$
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', target);
  EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', target);
  EXECUTE format(
    'CREATE POLICY tenant_isolation ON %s TO odontia_app '
    'USING (account_id = nullif(current_setting(''app.account_id'', true), '''')::uuid) '
    'WITH CHECK (account_id = nullif(current_setting(''app.account_id'', true), '''')::uuid)',
    target);
  EXECUTE format('CREATE POLICY system_access ON %s TO odontia_system USING (true) WITH CHECK (true)', target);
END
$$;
