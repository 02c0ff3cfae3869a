CREATE TABLE "appointment_links" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"appointment_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appointment_links_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "appointment_links_purpose" CHECK ("appointment_links"."purpose" in ('confirm', 'cancel'))
);
--> statement-breakpoint
CREATE TABLE "appointments" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"professional_id" uuid NOT NULL,
	"chair_id" uuid,
	"treatment_id" uuid,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"time_zone" text NOT NULL,
	"reason" text,
	"notes" text,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"outside_schedule" boolean DEFAULT false NOT NULL,
	"confirmed_at" timestamp with time zone,
	"confirmation_channel" text,
	"confirmed_by" uuid,
	"arrived_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancel_reason" text,
	"cancel_note" text,
	"cancelled_by" uuid,
	"rescheduled_to" uuid,
	"rescheduled_from" uuid,
	"attendance_id" uuid,
	"reminder_state" text DEFAULT 'none' NOT NULL,
	"reminder_sent_at" timestamp with time zone,
	"reminder_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "appointments_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "appointments_status" CHECK ("appointments"."status" in ('scheduled', 'completed', 'cancelled', 'rescheduled')),
	CONSTRAINT "appointments_range" CHECK ("appointments"."ends_at" > "appointments"."starts_at" and "appointments"."ends_at" - "appointments"."starts_at" <= interval '12 hours'),
	CONSTRAINT "appointments_cancel_reason" CHECK ("appointments"."cancel_reason" is null or "appointments"."cancel_reason" in ('patient_request', 'no_show', 'professional_unavailable', 'clinic_closed', 'other')),
	CONSTRAINT "appointments_confirmation_channel" CHECK ("appointments"."confirmation_channel" is null or "appointments"."confirmation_channel" in ('phone', 'in_person', 'whatsapp', 'sms', 'email', 'reminder_link')),
	CONSTRAINT "appointments_reminder_state" CHECK ("appointments"."reminder_state" in ('none', 'planned', 'sent', 'failed', 'confirmed', 'cancelled_by_patient'))
);
--> statement-breakpoint
CREATE TABLE "chairs" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"name" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "chairs_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 5 NOT NULL,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "jobs_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "jobs_state" CHECK ("jobs"."state" in ('queued', 'running', 'done', 'failed', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "schedule_exceptions" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"professional_id" uuid,
	"kind" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"all_day" boolean DEFAULT false NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "schedule_exceptions_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "schedule_exceptions_kind" CHECK ("schedule_exceptions"."kind" in ('holiday', 'vacation', 'block')),
	CONSTRAINT "schedule_exceptions_range" CHECK ("schedule_exceptions"."ends_at" > "schedule_exceptions"."starts_at")
);
--> statement-breakpoint
CREATE TABLE "schedules" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"professional_id" uuid,
	"ranges" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "schedules_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
CREATE TABLE "treatments" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"code" text,
	"name" text NOT NULL,
	"duration_minutes" integer NOT NULL,
	"color" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "treatments_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "treatments_duration" CHECK ("treatments"."duration_minutes" between 5 and 720)
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "reminders_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "reminder_lead_minutes" integer DEFAULT 1440 NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "appointment_links" ADD CONSTRAINT "appointment_links_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_links" ADD CONSTRAINT "appointment_links_account_id_appointment_id_appointments_account_id_id_fk" FOREIGN KEY ("account_id","appointment_id") REFERENCES "public"."appointments"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_account_id_patient_id_patients_account_id_id_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_account_id_professional_id_users_account_id_id_fk" FOREIGN KEY ("account_id","professional_id") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_account_id_confirmed_by_users_account_id_id_fk" FOREIGN KEY ("account_id","confirmed_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_account_id_cancelled_by_users_account_id_id_fk" FOREIGN KEY ("account_id","cancelled_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_account_id_chair_id_chairs_account_id_id_fk" FOREIGN KEY ("account_id","chair_id") REFERENCES "public"."chairs"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_account_id_treatment_id_treatments_account_id_id_fk" FOREIGN KEY ("account_id","treatment_id") REFERENCES "public"."treatments"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chairs" ADD CONSTRAINT "chairs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chairs" ADD CONSTRAINT "chairs_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chairs" ADD CONSTRAINT "chairs_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chairs" ADD CONSTRAINT "chairs_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_exceptions" ADD CONSTRAINT "schedule_exceptions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_exceptions" ADD CONSTRAINT "schedule_exceptions_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_exceptions" ADD CONSTRAINT "schedule_exceptions_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_exceptions" ADD CONSTRAINT "schedule_exceptions_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_exceptions" ADD CONSTRAINT "schedule_exceptions_account_id_professional_id_users_account_id_id_fk" FOREIGN KEY ("account_id","professional_id") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_account_id_professional_id_users_account_id_id_fk" FOREIGN KEY ("account_id","professional_id") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatments" ADD CONSTRAINT "treatments_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatments" ADD CONSTRAINT "treatments_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatments" ADD CONSTRAINT "treatments_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatments" ADD CONSTRAINT "treatments_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "appointment_links_token_hash_unique" ON "appointment_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "appointment_links_appointment_idx" ON "appointment_links" USING btree ("account_id","appointment_id");--> statement-breakpoint
CREATE INDEX "appointments_starts_idx" ON "appointments" USING btree ("account_id","starts_at","professional_id") WHERE "appointments"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "appointments_patient_idx" ON "appointments" USING btree ("account_id","patient_id","starts_at" DESC NULLS LAST) WHERE "appointments"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "chairs_order_idx" ON "chairs" USING btree ("account_id","sort_order","name") WHERE "chairs"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at") WHERE "jobs"."state" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "jobs_key_idx" ON "jobs" USING btree ("account_id","kind","key");--> statement-breakpoint
CREATE INDEX "schedule_exceptions_range_idx" ON "schedule_exceptions" USING btree ("account_id","starts_at") WHERE "schedule_exceptions"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "schedules_owner_unique" ON "schedules" USING btree ("account_id",coalesce("professional_id", '00000000-0000-0000-0000-000000000000'::uuid)) WHERE "schedules"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "treatments_name_idx" ON "treatments" USING btree ("account_id","name") WHERE "treatments"."deleted_at" is null;
--> statement-breakpoint
-- Written by hand (docs/adding-a-domain.md §2): drizzle-kit writes none of it.
-- Never double-booked (issue 16): two active appointments (scheduled or completed) of the same
-- professional, or of the same chair, may not overlap. Half-open ranges, so 10:00-10:30 and
-- 10:30-11:00 touch without overlapping. The indexes lead with the clinic (db/clinic-indexes.ts).
ALTER TABLE appointments ADD CONSTRAINT appointments_professional_no_overlap EXCLUDE USING gist (
  account_id WITH =, professional_id WITH =, tstzrange(starts_at, ends_at, '[)') WITH &&
) WHERE (status in ('scheduled', 'completed') and deleted_at is null);
--> statement-breakpoint
ALTER TABLE appointments ADD CONSTRAINT appointments_chair_no_overlap EXCLUDE USING gist (
  account_id WITH =, chair_id WITH =, tstzrange(starts_at, ends_at, '[)') WITH &&
) WHERE (chair_id is not null and status in ('scheduled', 'completed') and deleted_at is null);
--> statement-breakpoint
-- Row-level security with the clinic's policy on every new table; the agenda's records are
-- never physically deleted (jobs and reminder links are working rows a housekeeping may purge).
SELECT enable_tenant_rls('treatments');
--> statement-breakpoint
SELECT enable_tenant_rls('chairs');
--> statement-breakpoint
SELECT enable_tenant_rls('schedules');
--> statement-breakpoint
SELECT enable_tenant_rls('schedule_exceptions');
--> statement-breakpoint
SELECT enable_tenant_rls('appointments');
--> statement-breakpoint
SELECT enable_tenant_rls('appointment_links');
--> statement-breakpoint
SELECT enable_tenant_rls('jobs');
--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON treatments, chairs, schedules, schedule_exceptions, appointments FROM odontia_app, odontia_system;
