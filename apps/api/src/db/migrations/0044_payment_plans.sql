CREATE TABLE "payment_plan_instalments" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"due_on" date NOT NULL,
	"principal" numeric(14, 2) NOT NULL,
	"interest" numeric(14, 2) NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"cumulative" numeric(14, 2) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_plan_instalments_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "payment_plan_instalments_amounts" CHECK ("payment_plan_instalments"."amount" > 0 and "payment_plan_instalments"."amount" = "payment_plan_instalments"."principal" + "payment_plan_instalments"."interest")
);
--> statement-breakpoint
CREATE TABLE "payment_plans" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"patient_id" uuid,
	"currency" text NOT NULL,
	"start_paid" numeric(14, 2) NOT NULL,
	"principal" numeric(14, 2) NOT NULL,
	"interest" numeric(14, 2) NOT NULL,
	"total" numeric(14, 2) NOT NULL,
	"instalment_count" integer NOT NULL,
	"first_due_on" date NOT NULL,
	"frequency" text NOT NULL,
	"annual_rate" numeric(5, 2),
	"interest_document_id" uuid,
	"status" text DEFAULT 'active' NOT NULL,
	"notes" text,
	"replaces_id" uuid,
	"cancel_reason" text,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "payment_plans_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "payment_plans_status" CHECK ("payment_plans"."status" in ('active', 'cancelled')),
	CONSTRAINT "payment_plans_frequency" CHECK ("payment_plans"."frequency" in ('weekly', 'biweekly', 'monthly')),
	CONSTRAINT "payment_plans_count" CHECK ("payment_plans"."instalment_count" between 1 and 60),
	CONSTRAINT "payment_plans_amounts" CHECK ("payment_plans"."principal" > 0 and "payment_plans"."interest" >= 0 and "payment_plans"."total" = "payment_plans"."principal" + "payment_plans"."interest" and "payment_plans"."start_paid" >= 0),
	CONSTRAINT "payment_plans_rate" CHECK ("payment_plans"."annual_rate" is null or "payment_plans"."annual_rate" between 0 and 200),
	CONSTRAINT "payment_plans_cancelled" CHECK (("payment_plans"."status" = 'cancelled') = ("payment_plans"."cancelled_at" is not null and "payment_plans"."cancel_reason" is not null)),
	CONSTRAINT "payment_plans_texts" CHECK (char_length("payment_plans"."notes") <= 1000 and char_length("payment_plans"."cancel_reason") <= 500)
);
--> statement-breakpoint
ALTER TABLE "messages" DROP CONSTRAINT "messages_kind";--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "instalment_reminder_days" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_plan_instalments" ADD CONSTRAINT "payment_plan_instalments_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_plan_instalments" ADD CONSTRAINT "payment_plan_instalments_account_id_plan_id_payment_plans_account_id_id_fk" FOREIGN KEY ("account_id","plan_id") REFERENCES "public"."payment_plans"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_plans" ADD CONSTRAINT "payment_plans_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_plans" ADD CONSTRAINT "payment_plans_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_plans" ADD CONSTRAINT "payment_plans_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_plans" ADD CONSTRAINT "payment_plans_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_plans" ADD CONSTRAINT "payment_plans_account_id_cancelled_by_users_account_id_id_fk" FOREIGN KEY ("account_id","cancelled_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_plans" ADD CONSTRAINT "payment_plans_account_id_document_id_commercial_documents_account_id_id_fk" FOREIGN KEY ("account_id","document_id") REFERENCES "public"."commercial_documents"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_plans" ADD CONSTRAINT "payment_plans_account_id_interest_document_id_commercial_documents_account_id_id_fk" FOREIGN KEY ("account_id","interest_document_id") REFERENCES "public"."commercial_documents"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_plans" ADD CONSTRAINT "payment_plans_account_id_customer_id_customers_account_id_id_fk" FOREIGN KEY ("account_id","customer_id") REFERENCES "public"."customers"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_plans" ADD CONSTRAINT "payment_plans_account_id_replaces_id_payment_plans_account_id_id_fk" FOREIGN KEY ("account_id","replaces_id") REFERENCES "public"."payment_plans"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_plans" ADD CONSTRAINT "payment_plans_account_id_patient_id_patients_account_id_id_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_plan_instalments_number_unique" ON "payment_plan_instalments" USING btree ("account_id","plan_id","number");--> statement-breakpoint
CREATE INDEX "payment_plan_instalments_due_idx" ON "payment_plan_instalments" USING btree ("account_id","due_on","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_plans_active_unique" ON "payment_plans" USING btree ("account_id","document_id") WHERE "payment_plans"."status" = 'active';--> statement-breakpoint
CREATE INDEX "payment_plans_list_idx" ON "payment_plans" USING btree ("account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payment_plans_document_idx" ON "payment_plans" USING btree ("account_id","document_id");--> statement-breakpoint
CREATE INDEX "payment_plans_customer_idx" ON "payment_plans" USING btree ("account_id","customer_id","created_at" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_instalment_reminder_days" CHECK ("accounts"."instalment_reminder_days" between 0 and 30);--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_kind" CHECK ("messages"."kind" in ('appointment_reminder', 'waiting_list_offer', 'recall', 'answer', 'opt_out_confirmation', 'instalment_reminder'));
--> statement-breakpoint
-- hand-written: payment plans (issue 40) — row-level security, never deleted, a plan only ever cancelled, instalments final.
SELECT enable_tenant_rls(t) FROM unnest(ARRAY['payment_plans', 'payment_plan_instalments']) AS t;
--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON payment_plans FROM odontia_app, odontia_system;
--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON payment_plan_instalments FROM odontia_app, odontia_system;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION odontia_payment_plan_guard() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF OLD.status <> 'active' OR NEW.status <> 'cancelled' OR (
    to_jsonb(NEW) - ARRAY['status', 'cancel_reason', 'cancelled_at', 'cancelled_by', 'version', 'updated_at', 'updated_by']
  ) IS DISTINCT FROM (
    to_jsonb(OLD) - ARRAY['status', 'cancel_reason', 'cancelled_at', 'cancelled_by', 'version', 'updated_at', 'updated_by']
  ) THEN
    RAISE EXCEPTION 'payment plan % is never edited, only cancelled once', OLD.id
      USING ERRCODE = 'P0001', HINT = 'payment_plan_final';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER payment_plans_final BEFORE UPDATE ON payment_plans
  FOR EACH ROW EXECUTE FUNCTION odontia_payment_plan_guard();
