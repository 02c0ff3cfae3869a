CREATE TABLE "waiting_list_entries" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"treatment_id" uuid NOT NULL,
	"professional_id" uuid,
	"weekdays" text[] DEFAULT '{}'::text[] NOT NULL,
	"time_ranges" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"until" date,
	"priority" integer DEFAULT 0 NOT NULL,
	"notes" text,
	"status" text DEFAULT 'waiting' NOT NULL,
	"appointment_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "waiting_list_entries_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "waiting_list_entries_status" CHECK ("waiting_list_entries"."status" in ('waiting', 'booked')),
	CONSTRAINT "waiting_list_entries_priority" CHECK ("waiting_list_entries"."priority" in (0, 1)),
	CONSTRAINT "waiting_list_entries_time_ranges" CHECK (jsonb_typeof("waiting_list_entries"."time_ranges") = 'array'),
	CONSTRAINT "waiting_list_entries_weekdays" CHECK (cardinality("waiting_list_entries"."weekdays") <= 7),
	CONSTRAINT "waiting_list_entries_notes" CHECK (char_length("waiting_list_entries"."notes") <= 1000)
);
--> statement-breakpoint
CREATE TABLE "waiting_list_offers" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"entry_id" uuid NOT NULL,
	"professional_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'offered' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"token_hash" text,
	"sent_at" timestamp with time zone,
	"answered_at" timestamp with time zone,
	"appointment_id" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "waiting_list_offers_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "waiting_list_offers_status" CHECK ("waiting_list_offers"."status" in ('offered', 'sent', 'accepted', 'expired', 'gone')),
	CONSTRAINT "waiting_list_offers_range" CHECK ("waiting_list_offers"."ends_at" > "waiting_list_offers"."starts_at")
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "waiting_list_hold_minutes" integer DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "waiting_list_offers_per_slot" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "waiting_list_entries" ADD CONSTRAINT "waiting_list_entries_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waiting_list_entries" ADD CONSTRAINT "waiting_list_entries_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waiting_list_entries" ADD CONSTRAINT "waiting_list_entries_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waiting_list_entries" ADD CONSTRAINT "waiting_list_entries_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waiting_list_entries" ADD CONSTRAINT "waiting_list_entries_account_id_patient_id_patients_account_id_id_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waiting_list_entries" ADD CONSTRAINT "waiting_list_entries_account_id_professional_id_users_account_id_id_fk" FOREIGN KEY ("account_id","professional_id") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waiting_list_entries" ADD CONSTRAINT "waiting_list_entries_account_id_treatment_id_treatments_account_id_id_fk" FOREIGN KEY ("account_id","treatment_id") REFERENCES "public"."treatments"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waiting_list_entries" ADD CONSTRAINT "waiting_list_entries_account_id_appointment_id_appointments_account_id_id_fk" FOREIGN KEY ("account_id","appointment_id") REFERENCES "public"."appointments"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waiting_list_offers" ADD CONSTRAINT "waiting_list_offers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waiting_list_offers" ADD CONSTRAINT "waiting_list_offers_account_id_entry_id_waiting_list_entries_account_id_id_fk" FOREIGN KEY ("account_id","entry_id") REFERENCES "public"."waiting_list_entries"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waiting_list_offers" ADD CONSTRAINT "waiting_list_offers_account_id_appointment_id_appointments_account_id_id_fk" FOREIGN KEY ("account_id","appointment_id") REFERENCES "public"."appointments"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waiting_list_offers" ADD CONSTRAINT "waiting_list_offers_account_id_professional_id_users_account_id_id_fk" FOREIGN KEY ("account_id","professional_id") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waiting_list_offers" ADD CONSTRAINT "waiting_list_offers_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "waiting_list_entries_priority_idx" ON "waiting_list_entries" USING btree ("account_id","status","priority" DESC NULLS LAST,"created_at","id") WHERE "waiting_list_entries"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "waiting_list_entries_arrival_idx" ON "waiting_list_entries" USING btree ("account_id","status","created_at","id") WHERE "waiting_list_entries"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "waiting_list_entries_patient_idx" ON "waiting_list_entries" USING btree ("account_id","patient_id") WHERE "waiting_list_entries"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "waiting_list_offers_token_hash_unique" ON "waiting_list_offers" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "waiting_list_offers_entry_idx" ON "waiting_list_offers" USING btree ("account_id","entry_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "waiting_list_offers_open_idx" ON "waiting_list_offers" USING btree ("account_id","starts_at") WHERE "waiting_list_offers"."status" in ('offered', 'sent');--> statement-breakpoint
-- hand-written: row-level security, forced, with the clinic's policy and the app roles' grants;
-- bounds of the clinic's waiting-list settings (the shared contract's).
SELECT enable_tenant_rls('waiting_list_entries');
--> statement-breakpoint
SELECT enable_tenant_rls('waiting_list_offers');
--> statement-breakpoint
ALTER TABLE accounts ADD CONSTRAINT accounts_waiting_list_settings CHECK (
  waiting_list_hold_minutes BETWEEN 5 AND 1440 AND waiting_list_offers_per_slot BETWEEN 1 AND 20
);
