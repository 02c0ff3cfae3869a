CREATE TABLE "cash_movements" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"register_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"method" text NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"payment_id" uuid,
	"description" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid NOT NULL,
	CONSTRAINT "cash_movements_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "cash_movements_amount" CHECK ("cash_movements"."amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "cash_register_settings" (
	"account_id" uuid NOT NULL,
	"cash_needs_open_session" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	CONSTRAINT "cash_register_settings_account_id_pk" PRIMARY KEY("account_id")
);
--> statement-breakpoint
CREATE TABLE "cash_registers" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"professional_id" uuid,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "cash_registers_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "cash_registers_kind" CHECK (("cash_registers"."kind" = 'professional') = ("cash_registers"."professional_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "cash_session_counts" (
	"account_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"method" text NOT NULL,
	"expected" numeric(20, 2) NOT NULL,
	"counted" numeric(20, 2) NOT NULL,
	"difference" numeric(20, 2) NOT NULL,
	CONSTRAINT "cash_session_counts_account_id_session_id_method_pk" PRIMARY KEY("account_id","session_id","method"),
	CONSTRAINT "cash_session_counts_difference" CHECK ("cash_session_counts"."difference" = "cash_session_counts"."counted" - "cash_session_counts"."expected")
);
--> statement-breakpoint
CREATE TABLE "cash_sessions" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"register_id" uuid NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"number" text,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"opened_by" uuid NOT NULL,
	"opening_float" numeric(14, 2) NOT NULL,
	"carried_balance" numeric(14, 2) NOT NULL,
	"opening_difference" numeric(14, 2) NOT NULL,
	"opening_notes" text,
	"closed_at" timestamp with time zone,
	"closed_by" uuid,
	"expected_total" numeric(20, 2),
	"counted_total" numeric(20, 2),
	"difference_total" numeric(20, 2),
	"cash_left" numeric(20, 2),
	"explanation" text,
	"closed_on" date,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "cash_sessions_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "cash_sessions_closed" CHECK (("cash_sessions"."status" = 'closed') = ("cash_sessions"."number" is not null and "cash_sessions"."closed_at" is not null and "cash_sessions"."closed_by" is not null and "cash_sessions"."closed_on" is not null and "cash_sessions"."expected_total" is not null and "cash_sessions"."counted_total" is not null and "cash_sessions"."difference_total" is not null and "cash_sessions"."cash_left" is not null)),
	CONSTRAINT "cash_sessions_float" CHECK ("cash_sessions"."opening_float" >= 0 and "cash_sessions"."carried_balance" >= 0)
);
--> statement-breakpoint
ALTER TABLE "cash_movements" ADD CONSTRAINT "cash_movements_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_movements" ADD CONSTRAINT "cash_movements_account_id_session_id_cash_sessions_account_id_id_fk" FOREIGN KEY ("account_id","session_id") REFERENCES "public"."cash_sessions"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_movements" ADD CONSTRAINT "cash_movements_account_id_register_id_cash_registers_account_id_id_fk" FOREIGN KEY ("account_id","register_id") REFERENCES "public"."cash_registers"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_movements" ADD CONSTRAINT "cash_movements_account_id_payment_id_payments_account_id_id_fk" FOREIGN KEY ("account_id","payment_id") REFERENCES "public"."payments"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_movements" ADD CONSTRAINT "cash_movements_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_register_settings" ADD CONSTRAINT "cash_register_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_register_settings" ADD CONSTRAINT "cash_register_settings_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_registers" ADD CONSTRAINT "cash_registers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_registers" ADD CONSTRAINT "cash_registers_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_registers" ADD CONSTRAINT "cash_registers_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_registers" ADD CONSTRAINT "cash_registers_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_registers" ADD CONSTRAINT "cash_registers_account_id_professional_id_users_account_id_id_fk" FOREIGN KEY ("account_id","professional_id") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_session_counts" ADD CONSTRAINT "cash_session_counts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_session_counts" ADD CONSTRAINT "cash_session_counts_account_id_session_id_cash_sessions_account_id_id_fk" FOREIGN KEY ("account_id","session_id") REFERENCES "public"."cash_sessions"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_sessions" ADD CONSTRAINT "cash_sessions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_sessions" ADD CONSTRAINT "cash_sessions_account_id_register_id_cash_registers_account_id_id_fk" FOREIGN KEY ("account_id","register_id") REFERENCES "public"."cash_registers"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_sessions" ADD CONSTRAINT "cash_sessions_account_id_opened_by_users_account_id_id_fk" FOREIGN KEY ("account_id","opened_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_sessions" ADD CONSTRAINT "cash_sessions_account_id_closed_by_users_account_id_id_fk" FOREIGN KEY ("account_id","closed_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cash_movements_session_idx" ON "cash_movements" USING btree ("account_id","session_id","method","kind","amount");--> statement-breakpoint
CREATE INDEX "cash_movements_list_idx" ON "cash_movements" USING btree ("account_id","session_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "cash_movements_payment_idx" ON "cash_movements" USING btree ("account_id","payment_id") WHERE "cash_movements"."payment_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "cash_registers_name_unique" ON "cash_registers" USING btree ("account_id",lower("name")) WHERE "cash_registers"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "cash_registers_list_idx" ON "cash_registers" USING btree ("account_id","name","id") WHERE "cash_registers"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "cash_sessions_one_open" ON "cash_sessions" USING btree ("account_id","register_id") WHERE "cash_sessions"."status" = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX "cash_sessions_number_unique" ON "cash_sessions" USING btree ("account_id","number");--> statement-breakpoint
CREATE INDEX "cash_sessions_register_idx" ON "cash_sessions" USING btree ("account_id","register_id","opened_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "cash_sessions_closed_idx" ON "cash_sessions" USING btree ("account_id","closed_on","register_id") WHERE "cash_sessions"."status" = 'closed';--> statement-breakpoint
-- hand-written: row-level security, no deletes of financial rows, and the finality of a closed
-- session (issue 40): a closed session, its movements and its count are never changed.
SELECT enable_tenant_rls('cash_registers');
--> statement-breakpoint
SELECT enable_tenant_rls('cash_register_settings');
--> statement-breakpoint
SELECT enable_tenant_rls('cash_sessions');
--> statement-breakpoint
SELECT enable_tenant_rls('cash_movements');
--> statement-breakpoint
SELECT enable_tenant_rls('cash_session_counts');
--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON cash_registers, cash_sessions FROM odontia_app, odontia_system;
--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON cash_movements, cash_session_counts FROM odontia_app, odontia_system;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION odontia_cash_session_guard() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF OLD.status = 'closed' THEN
    RAISE EXCEPTION 'cash session % is closed: it is never changed', OLD.id
      USING ERRCODE = 'P0001', HINT = 'cash_session_final';
  END IF;
  IF (to_jsonb(NEW) - ARRAY['status', 'number', 'closed_at', 'closed_by', 'closed_on', 'expected_total', 'counted_total', 'difference_total', 'cash_left', 'explanation', 'version'])
    IS DISTINCT FROM
     (to_jsonb(OLD) - ARRAY['status', 'number', 'closed_at', 'closed_by', 'closed_on', 'expected_total', 'counted_total', 'difference_total', 'cash_left', 'explanation', 'version']) THEN
    RAISE EXCEPTION 'cash session % changes only by closing', OLD.id
      USING ERRCODE = 'P0001', HINT = 'cash_session_final';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER cash_sessions_final BEFORE UPDATE ON cash_sessions
  FOR EACH ROW EXECUTE FUNCTION odontia_cash_session_guard();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION odontia_cash_movement_guard() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
DECLARE
  row_account uuid := coalesce(NEW.account_id, OLD.account_id);
  row_session uuid := coalesce(NEW.session_id, OLD.session_id);
BEGIN
  IF TG_OP <> 'INSERT' THEN
    RAISE EXCEPTION 'cash movements and counts are never changed'
      USING ERRCODE = 'P0001', HINT = 'cash_session_final';
  END IF;
  IF TG_TABLE_NAME = 'cash_movements' AND NOT EXISTS (
    SELECT 1 FROM cash_sessions s
    WHERE s.account_id = row_account AND s.id = row_session AND s.status = 'open'
  ) THEN
    RAISE EXCEPTION 'cash session % is closed: no movement is added to it', row_session
      USING ERRCODE = 'P0001', HINT = 'cash_session_final';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER cash_movements_final BEFORE INSERT OR UPDATE OR DELETE ON cash_movements
  FOR EACH ROW EXECUTE FUNCTION odontia_cash_movement_guard();
--> statement-breakpoint
CREATE TRIGGER cash_session_counts_final BEFORE UPDATE OR DELETE ON cash_session_counts
  FOR EACH ROW EXECUTE FUNCTION odontia_cash_movement_guard();
