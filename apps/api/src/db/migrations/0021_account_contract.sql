CREATE TABLE "account_movements" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"date" date NOT NULL,
	"kind" text NOT NULL,
	"plan" text,
	"period_start" date,
	"period_end" date,
	"amount" numeric(14, 2) NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"reference" text NOT NULL,
	"provider" text,
	"order_id" uuid,
	"paid_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_movements_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "account_movements_kind" CHECK ("account_movements"."kind" in ('charge', 'payment', 'renewal_order')),
	CONSTRAINT "account_movements_status" CHECK ("account_movements"."status" in ('pending', 'paid', 'cancelled')),
	CONSTRAINT "account_movements_amount" CHECK ("account_movements"."amount" >= 0)
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "contract_starts_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "renewal_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "billing_same_as_fiscal" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "billing_legal_name" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "billing_tax_id" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "billing_address" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "billing_city" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "billing_postal_code" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "billing_country" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "billing_email" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "billing_contact" text;--> statement-breakpoint
ALTER TABLE "account_movements" ADD CONSTRAINT "account_movements_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_movements_date_idx" ON "account_movements" USING btree ("account_id","date" DESC NULLS LAST,"created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "account_movements_reference_unique" ON "account_movements" USING btree ("account_id","reference");--> statement-breakpoint
CREATE INDEX "account_movements_pending_idx" ON "account_movements" USING btree ("account_id","kind","created_at") WHERE "account_movements"."status" = 'pending';
--> statement-breakpoint
-- Hand-written (drizzle-kit does not write these): the movements are the clinic's rows under
-- row-level security, and never deleted.
SELECT enable_tenant_rls('account_movements');
--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON account_movements FROM odontia_app, odontia_system;
--> statement-breakpoint
-- The session check of every request also answers the clinic's due date and pending renewal, so
-- the auth plugin decides "read-only" (issue 19) without a query of its own. Its answer's columns
-- change: drop and create again (same body as 0009 otherwise).
DROP FUNCTION IF EXISTS odontia_session_check(text, timestamptz, boolean, integer);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION odontia_session_check(
  token_hash text, at timestamptz, background boolean, activity_interval_ms integer
) RETURNS TABLE (
  session_id uuid, user_id uuid, account_id uuid, level text, time_zone text, refusal text, locked boolean,
  plan_ends_at timestamptz, renewal_requested_at timestamptz
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
         u.level, u.active, a.lock_after_minutes, a.time_zone,
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
