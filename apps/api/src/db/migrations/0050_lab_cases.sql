CREATE TABLE "lab_case_events" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"case_id" uuid NOT NULL,
	"action" text NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"on_date" date,
	"due_on" date,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	CONSTRAINT "lab_case_events_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "lab_case_events_action" CHECK ("lab_case_events"."action" in ('created', 'sent', 'received', 'checked', 'returned', 'seated', 'cancelled')),
	CONSTRAINT "lab_case_events_reason" CHECK (char_length("lab_case_events"."reason") <= 500)
);
--> statement-breakpoint
CREATE TABLE "lab_cases" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"provider_id" uuid NOT NULL,
	"work_type" text NOT NULL,
	"teeth" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"shade" text,
	"material" text,
	"instructions" text,
	"notes" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"sent_on" date,
	"due_on" date,
	"received_on" date,
	"checked_on" date,
	"seated_on" date,
	"remake_count" integer DEFAULT 0 NOT NULL,
	"return_reason" text,
	"cancel_reason" text,
	"appointment_id" uuid,
	"purchase_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "lab_cases_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "lab_cases_status" CHECK ("lab_cases"."status" in ('draft', 'sent', 'received', 'checked', 'returned', 'seated', 'cancelled')),
	CONSTRAINT "lab_cases_work_type" CHECK ("lab_cases"."work_type" in ('crown', 'bridge', 'veneer', 'inlay_onlay', 'implant_crown', 'complete_denture', 'partial_denture', 'night_guard', 'aligners', 'retainer', 'other')),
	CONSTRAINT "lab_cases_texts" CHECK (char_length("lab_cases"."shade") <= 40 and char_length("lab_cases"."material") <= 120 and char_length("lab_cases"."instructions") <= 2000 and char_length("lab_cases"."notes") <= 2000 and char_length("lab_cases"."return_reason") <= 500 and char_length("lab_cases"."cancel_reason") <= 500),
	CONSTRAINT "lab_cases_teeth" CHECK (cardinality("lab_cases"."teeth") <= 52),
	CONSTRAINT "lab_cases_sent" CHECK ("lab_cases"."status" in ('draft', 'cancelled') or "lab_cases"."sent_on" is not null),
	CONSTRAINT "lab_cases_due" CHECK ("lab_cases"."due_on" is null or "lab_cases"."sent_on" is null or "lab_cases"."due_on" >= "lab_cases"."sent_on"),
	CONSTRAINT "lab_cases_received" CHECK ("lab_cases"."status" not in ('received', 'checked', 'seated') or "lab_cases"."received_on" is not null),
	CONSTRAINT "lab_cases_seated" CHECK ("lab_cases"."status" <> 'seated' or "lab_cases"."seated_on" is not null),
	CONSTRAINT "lab_cases_cancelled" CHECK ("lab_cases"."status" <> 'cancelled' or "lab_cases"."cancel_reason" is not null),
	CONSTRAINT "lab_cases_remakes" CHECK ("lab_cases"."remake_count" between 0 and 1000)
);
--> statement-breakpoint
ALTER TABLE "lab_case_events" ADD CONSTRAINT "lab_case_events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_case_events" ADD CONSTRAINT "lab_case_events_account_id_case_id_lab_cases_account_id_id_fk" FOREIGN KEY ("account_id","case_id") REFERENCES "public"."lab_cases"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_case_events" ADD CONSTRAINT "lab_case_events_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_cases" ADD CONSTRAINT "lab_cases_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_cases" ADD CONSTRAINT "lab_cases_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_cases" ADD CONSTRAINT "lab_cases_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_cases" ADD CONSTRAINT "lab_cases_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_cases" ADD CONSTRAINT "lab_cases_account_id_patient_id_patients_account_id_id_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_cases" ADD CONSTRAINT "lab_cases_account_id_provider_id_providers_account_id_id_fk" FOREIGN KEY ("account_id","provider_id") REFERENCES "public"."providers"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_cases" ADD CONSTRAINT "lab_cases_account_id_appointment_id_appointments_account_id_id_fk" FOREIGN KEY ("account_id","appointment_id") REFERENCES "public"."appointments"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_cases" ADD CONSTRAINT "lab_cases_account_id_purchase_id_commercial_documents_account_id_id_fk" FOREIGN KEY ("account_id","purchase_id") REFERENCES "public"."commercial_documents"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lab_case_events_case_idx" ON "lab_case_events" USING btree ("account_id","case_id","created_at","id");--> statement-breakpoint
CREATE INDEX "lab_cases_open_idx" ON "lab_cases" USING btree ("account_id","due_on","id") WHERE "lab_cases"."deleted_at" is null and "lab_cases"."status" not in ('seated', 'cancelled');--> statement-breakpoint
CREATE INDEX "lab_cases_provider_idx" ON "lab_cases" USING btree ("account_id","provider_id","due_on","id");--> statement-breakpoint
CREATE INDEX "lab_cases_patient_idx" ON "lab_cases" USING btree ("account_id","patient_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "lab_cases_appointment_idx" ON "lab_cases" USING btree ("account_id","appointment_id") WHERE "lab_cases"."appointment_id" is not null;--> statement-breakpoint
CREATE INDEX "lab_cases_purchase_idx" ON "lab_cases" USING btree ("account_id","purchase_id") WHERE "lab_cases"."purchase_id" is not null;--> statement-breakpoint
-- hand-written: row-level security; a case is never deleted (cancelled instead) and its events
-- are never changed nor deleted.
SELECT enable_tenant_rls('lab_cases');
--> statement-breakpoint
SELECT enable_tenant_rls('lab_case_events');
--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON lab_cases FROM odontia_app, odontia_system;
--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON lab_case_events FROM odontia_app, odontia_system;
