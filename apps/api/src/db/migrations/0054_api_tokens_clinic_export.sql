CREATE TABLE "api_tokens" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"kind" text NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"scopes" text[] NOT NULL,
	"rate_limit_per_minute" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"revoked_by" uuid,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_tokens_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "api_tokens_name" CHECK (char_length("api_tokens"."name") between 1 and 80),
	CONSTRAINT "api_tokens_rate_limit" CHECK ("api_tokens"."rate_limit_per_minute" between 1 and 600),
	CONSTRAINT "api_tokens_scopes" CHECK (cardinality("api_tokens"."scopes") between 1 and 64)
);
--> statement-breakpoint
CREATE TABLE "clinic_exports" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"tables_written" integer DEFAULT 0 NOT NULL,
	"table_count" integer,
	"rows_written" bigint DEFAULT 0 NOT NULL,
	"files_written" integer DEFAULT 0 NOT NULL,
	"cursor" jsonb,
	"spool_bytes" bigint DEFAULT 0 NOT NULL,
	"file_name" text NOT NULL,
	"storage_key" text,
	"byte_size" bigint,
	"last_error" text,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "clinic_exports_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "clinic_exports_progress" CHECK ("clinic_exports"."progress" between 0 and 100)
);
--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "api_token_id" uuid;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_account_id_user_id_users_account_id_id_fk" FOREIGN KEY ("account_id","user_id") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_account_id_revoked_by_users_account_id_id_fk" FOREIGN KEY ("account_id","revoked_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinic_exports" ADD CONSTRAINT "clinic_exports_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinic_exports" ADD CONSTRAINT "clinic_exports_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_token_hash_unique" ON "api_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "api_tokens_list_idx" ON "api_tokens" USING btree ("account_id","kind","user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "clinic_exports_recent_idx" ON "clinic_exports" USING btree ("account_id","created_at" DESC NULLS LAST);--> statement-breakpoint
-- hand-written: row-level security; a token is revoked, never deleted (its audit trail names it).
SELECT enable_tenant_rls('api_tokens');
--> statement-breakpoint
SELECT enable_tenant_rls('clinic_exports');
--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON api_tokens FROM odontia_app, odontia_system;
--> statement-breakpoint
-- hand-written: the bearer check of an API token (issue 42), as odontia_session_check does for a
-- session: one statement, in the system context (the clinic is not known yet), that finds the
-- token by its hash, says why it is refused, and touches last_used_at at most every
-- activity_interval_ms. A personal token acts at its user's level (refused once the user is
-- deactivated or became a customer); a clinic token at the administrator level.
CREATE OR REPLACE FUNCTION odontia_api_token_check(
  token_hash text, at timestamptz, activity_interval_ms integer
) RETURNS TABLE (
  token_id uuid, kind text, user_id uuid, account_id uuid, level text, scopes text[], rate_limit integer,
  time_zone text, refusal text, plan_ends_at timestamptz, renewal_requested_at timestamptz
)
  LANGUAGE plpgsql VOLATILE
  AS $$
DECLARE
  caller_role text := current_setting('role');
  caller_account text := coalesce(current_setting('app.account_id', true), '');
  checked record;
  token_found boolean;
BEGIN
  PERFORM set_config('role', 'odontia_system', true), set_config('app.account_id', '', true);
  SELECT t.account_id, t.id, t.kind, t.user_id, t.scopes, t.rate_limit_per_minute, t.revoked_at,
         t.expires_at, t.last_used_at, u.level, u.active, a.time_zone, a.plan_ends_at, a.renewal_requested_at
    INTO checked
    FROM api_tokens t
    JOIN users u ON u.account_id = t.account_id AND u.id = t.user_id
    JOIN accounts a ON a.id = t.account_id
   WHERE t.token_hash = odontia_api_token_check.token_hash;
  token_found := FOUND;
  IF token_found THEN
    token_id := checked.id;
    kind := checked.kind;
    user_id := checked.user_id;
    account_id := checked.account_id;
    level := CASE WHEN checked.kind = 'clinic' THEN 'administrator' ELSE checked.level END;
    scopes := checked.scopes;
    rate_limit := checked.rate_limit_per_minute;
    time_zone := checked.time_zone;
    plan_ends_at := checked.plan_ends_at;
    renewal_requested_at := checked.renewal_requested_at;
    IF checked.revoked_at IS NOT NULL OR checked.expires_at <= odontia_api_token_check.at
       OR (checked.kind = 'personal' AND (NOT checked.active OR checked.level = 'customer')) THEN
      refusal := 'unauthorized';
    ELSIF checked.last_used_at IS NULL
       OR odontia_api_token_check.at - checked.last_used_at >= activity_interval_ms * interval '1 millisecond' THEN
      UPDATE api_tokens SET last_used_at = odontia_api_token_check.at
       WHERE api_tokens.account_id = checked.account_id AND api_tokens.id = checked.id;
    END IF;
  END IF;
  PERFORM set_config('role', caller_role, true), set_config('app.account_id', caller_account, true);
  IF token_found THEN
    RETURN NEXT;
  END IF;
END
$$;
