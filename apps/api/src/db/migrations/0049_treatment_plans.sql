CREATE TABLE "treatment_plan_alternatives" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"label" text NOT NULL,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "treatment_plan_alternatives_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "treatment_plan_alternatives_label" CHECK (char_length("treatment_plan_alternatives"."label") between 1 and 80)
);
--> statement-breakpoint
CREATE TABLE "treatment_plan_items" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"phase_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"tooth" smallint,
	"zone" text,
	"treatment_id" uuid NOT NULL,
	"description" text NOT NULL,
	"unit_price" numeric(14, 2) NOT NULL,
	"quantity" integer NOT NULL,
	"discount_rate" numeric(5, 2) DEFAULT '0' NOT NULL,
	"vat_rate" numeric(5, 2) DEFAULT '0' NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"notes" text,
	"charted_at" timestamp with time zone,
	CONSTRAINT "treatment_plan_items_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "treatment_plan_items_amounts" CHECK ("treatment_plan_items"."unit_price" >= 0 and "treatment_plan_items"."quantity" between 1 and 99 and "treatment_plan_items"."discount_rate" between 0 and 100 and "treatment_plan_items"."vat_rate" between 0 and 100 and "treatment_plan_items"."amount" >= 0),
	CONSTRAINT "treatment_plan_items_tooth" CHECK ("treatment_plan_items"."tooth" is null or ("treatment_plan_items"."tooth" between 11 and 48) or ("treatment_plan_items"."tooth" between 51 and 85)),
	CONSTRAINT "treatment_plan_items_texts" CHECK (char_length("treatment_plan_items"."description") between 1 and 200 and char_length("treatment_plan_items"."notes") <= 1000)
);
--> statement-breakpoint
CREATE TABLE "treatment_plan_phases" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"alternative_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "treatment_plan_phases_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "treatment_plan_phases_kind" CHECK ("treatment_plan_phases"."kind" in ('urgent', 'basic', 'restorative', 'surgical', 'prosthetic', 'orthodontic', 'maintenance')),
	CONSTRAINT "treatment_plan_phases_name" CHECK (char_length("treatment_plan_phases"."name") between 1 and 120)
);
--> statement-breakpoint
CREATE TABLE "treatment_plan_sessions" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"description" text NOT NULL,
	"share_percent" numeric(5, 2) NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"budget_line_id" uuid,
	"appointment_id" uuid,
	CONSTRAINT "treatment_plan_sessions_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "treatment_plan_sessions_amounts" CHECK ("treatment_plan_sessions"."share_percent" > 0 and "treatment_plan_sessions"."share_percent" <= 100 and "treatment_plan_sessions"."amount" >= 0),
	CONSTRAINT "treatment_plan_sessions_description" CHECK (char_length("treatment_plan_sessions"."description") between 1 and 200)
);
--> statement-breakpoint
CREATE TABLE "treatment_plans" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"professional_id" uuid NOT NULL,
	"title" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"notes" text,
	"presented_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"accepted_alternative_id" uuid,
	"budget_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "treatment_plans_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "treatment_plans_status" CHECK ("treatment_plans"."status" in ('draft', 'presented', 'accepted', 'rejected', 'cancelled')),
	CONSTRAINT "treatment_plans_accepted" CHECK (("treatment_plans"."status" = 'accepted') = ("treatment_plans"."budget_id" is not null and "treatment_plans"."accepted_alternative_id" is not null)),
	CONSTRAINT "treatment_plans_texts" CHECK (char_length("treatment_plans"."title") between 1 and 200 and char_length("treatment_plans"."notes") <= 4000)
);
--> statement-breakpoint
ALTER TABLE "treatment_plan_alternatives" ADD CONSTRAINT "treatment_plan_alternatives_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plan_alternatives" ADD CONSTRAINT "treatment_plan_alternatives_account_id_plan_id_treatment_plans_account_id_id_fk" FOREIGN KEY ("account_id","plan_id") REFERENCES "public"."treatment_plans"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plan_items" ADD CONSTRAINT "treatment_plan_items_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plan_items" ADD CONSTRAINT "treatment_plan_items_account_id_plan_id_treatment_plans_account_id_id_fk" FOREIGN KEY ("account_id","plan_id") REFERENCES "public"."treatment_plans"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plan_items" ADD CONSTRAINT "treatment_plan_items_account_id_phase_id_treatment_plan_phases_account_id_id_fk" FOREIGN KEY ("account_id","phase_id") REFERENCES "public"."treatment_plan_phases"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plan_items" ADD CONSTRAINT "treatment_plan_items_account_id_treatment_id_treatments_account_id_id_fk" FOREIGN KEY ("account_id","treatment_id") REFERENCES "public"."treatments"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plan_phases" ADD CONSTRAINT "treatment_plan_phases_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plan_phases" ADD CONSTRAINT "treatment_plan_phases_account_id_plan_id_treatment_plans_account_id_id_fk" FOREIGN KEY ("account_id","plan_id") REFERENCES "public"."treatment_plans"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plan_phases" ADD CONSTRAINT "treatment_plan_phases_account_id_alternative_id_treatment_plan_alternatives_account_id_id_fk" FOREIGN KEY ("account_id","alternative_id") REFERENCES "public"."treatment_plan_alternatives"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plan_sessions" ADD CONSTRAINT "treatment_plan_sessions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plan_sessions" ADD CONSTRAINT "treatment_plan_sessions_account_id_plan_id_treatment_plans_account_id_id_fk" FOREIGN KEY ("account_id","plan_id") REFERENCES "public"."treatment_plans"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plan_sessions" ADD CONSTRAINT "treatment_plan_sessions_account_id_item_id_treatment_plan_items_account_id_id_fk" FOREIGN KEY ("account_id","item_id") REFERENCES "public"."treatment_plan_items"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plan_sessions" ADD CONSTRAINT "treatment_plan_sessions_account_id_budget_line_id_document_lines_account_id_id_fk" FOREIGN KEY ("account_id","budget_line_id") REFERENCES "public"."document_lines"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plan_sessions" ADD CONSTRAINT "treatment_plan_sessions_account_id_appointment_id_appointments_account_id_id_fk" FOREIGN KEY ("account_id","appointment_id") REFERENCES "public"."appointments"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plans" ADD CONSTRAINT "treatment_plans_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plans" ADD CONSTRAINT "treatment_plans_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plans" ADD CONSTRAINT "treatment_plans_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plans" ADD CONSTRAINT "treatment_plans_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plans" ADD CONSTRAINT "treatment_plans_account_id_patient_id_patients_account_id_id_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plans" ADD CONSTRAINT "treatment_plans_account_id_professional_id_users_account_id_id_fk" FOREIGN KEY ("account_id","professional_id") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plans" ADD CONSTRAINT "treatment_plans_account_id_budget_id_commercial_documents_account_id_id_fk" FOREIGN KEY ("account_id","budget_id") REFERENCES "public"."commercial_documents"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "treatment_plan_alternatives_plan_idx" ON "treatment_plan_alternatives" USING btree ("account_id","plan_id","position") WHERE "treatment_plan_alternatives"."retired_at" is null;--> statement-breakpoint
CREATE INDEX "treatment_plan_items_plan_idx" ON "treatment_plan_items" USING btree ("account_id","plan_id","position");--> statement-breakpoint
CREATE INDEX "treatment_plan_phases_plan_idx" ON "treatment_plan_phases" USING btree ("account_id","plan_id","position");--> statement-breakpoint
CREATE INDEX "treatment_plan_sessions_plan_idx" ON "treatment_plan_sessions" USING btree ("account_id","plan_id","position");--> statement-breakpoint
CREATE INDEX "treatment_plan_sessions_budget_line_idx" ON "treatment_plan_sessions" USING btree ("account_id","budget_line_id") WHERE "treatment_plan_sessions"."budget_line_id" is not null;--> statement-breakpoint
CREATE INDEX "treatment_plan_sessions_appointment_idx" ON "treatment_plan_sessions" USING btree ("account_id","appointment_id") WHERE "treatment_plan_sessions"."appointment_id" is not null;--> statement-breakpoint
CREATE INDEX "treatment_plans_patient_idx" ON "treatment_plans" USING btree ("account_id","patient_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "treatment_plans"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "treatment_plans_follow_up_idx" ON "treatment_plans" USING btree ("account_id","decided_at","id") WHERE "treatment_plans"."deleted_at" is null and "treatment_plans"."status" = 'accepted';--> statement-breakpoint
-- Hand-written (drizzle-kit does not write these): row-level security with the clinic's policy and
-- the app roles' grants; clinical rows are never deleted (an edit retires, a plan is cancelled).
SELECT enable_tenant_rls('treatment_plans');
--> statement-breakpoint
SELECT enable_tenant_rls('treatment_plan_alternatives');
--> statement-breakpoint
SELECT enable_tenant_rls('treatment_plan_phases');
--> statement-breakpoint
SELECT enable_tenant_rls('treatment_plan_items');
--> statement-breakpoint
SELECT enable_tenant_rls('treatment_plan_sessions');
--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON treatment_plans, treatment_plan_alternatives, treatment_plan_phases, treatment_plan_items, treatment_plan_sessions FROM odontia_app, odontia_system;
