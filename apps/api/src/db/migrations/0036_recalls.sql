CREATE TABLE "recall_attempts" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"recall_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"outcome" text NOT NULL,
	"note" text,
	"automatic" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	CONSTRAINT "recall_attempts_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "recall_attempts_channel" CHECK ("recall_attempts"."channel" in ('phone', 'message', 'email')),
	CONSTRAINT "recall_attempts_outcome" CHECK ("recall_attempts"."outcome" in ('reached', 'no_answer', 'left_message', 'wrong_number', 'sent')),
	CONSTRAINT "recall_attempts_note" CHECK (char_length("recall_attempts"."note") <= 1000)
);
--> statement-breakpoint
CREATE TABLE "recalls" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"treatment_id" uuid NOT NULL,
	"professional_id" uuid NOT NULL,
	"attendance_id" uuid NOT NULL,
	"attendance_line_id" uuid NOT NULL,
	"due_on" date NOT NULL,
	"reason" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"appointment_id" uuid,
	"booked_at" timestamp with time zone,
	"closed_reason" text,
	"close_note" text,
	"closed_at" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "recalls_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "recalls_status" CHECK ("recalls"."status" in ('pending', 'contacted', 'booked', 'closed')),
	CONSTRAINT "recalls_closed_reason" CHECK ("recalls"."closed_reason" is null or "recalls"."closed_reason" in ('declined', 'unreachable', 'treated_elsewhere', 'other', 'superseded')),
	CONSTRAINT "recalls_booked" CHECK (("recalls"."status" = 'booked') = ("recalls"."appointment_id" is not null)),
	CONSTRAINT "recalls_closed" CHECK (("recalls"."status" = 'closed') = ("recalls"."closed_reason" is not null)),
	CONSTRAINT "recalls_texts" CHECK (char_length("recalls"."reason") <= 200 and char_length("recalls"."close_note") <= 1000)
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "recall_message_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "treatments" ADD COLUMN "recall_interval" integer;--> statement-breakpoint
ALTER TABLE "treatments" ADD COLUMN "recall_unit" text;--> statement-breakpoint
ALTER TABLE "treatments" ADD COLUMN "recall_reason" text;--> statement-breakpoint
ALTER TABLE "recall_attempts" ADD CONSTRAINT "recall_attempts_account_id_recall_id_recalls_account_id_id_fk" FOREIGN KEY ("account_id","recall_id") REFERENCES "public"."recalls"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recall_attempts" ADD CONSTRAINT "recall_attempts_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recall_attempts" ADD CONSTRAINT "recall_attempts_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recalls" ADD CONSTRAINT "recalls_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recalls" ADD CONSTRAINT "recalls_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recalls" ADD CONSTRAINT "recalls_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recalls" ADD CONSTRAINT "recalls_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recalls" ADD CONSTRAINT "recalls_account_id_patient_id_patients_account_id_id_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recalls" ADD CONSTRAINT "recalls_account_id_professional_id_users_account_id_id_fk" FOREIGN KEY ("account_id","professional_id") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recalls" ADD CONSTRAINT "recalls_account_id_treatment_id_treatments_account_id_id_fk" FOREIGN KEY ("account_id","treatment_id") REFERENCES "public"."treatments"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recalls" ADD CONSTRAINT "recalls_account_id_attendance_id_attendances_account_id_id_fk" FOREIGN KEY ("account_id","attendance_id") REFERENCES "public"."attendances"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recalls" ADD CONSTRAINT "recalls_account_id_attendance_line_id_attendance_lines_account_id_id_fk" FOREIGN KEY ("account_id","attendance_line_id") REFERENCES "public"."attendance_lines"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recalls" ADD CONSTRAINT "recalls_account_id_appointment_id_appointments_account_id_id_fk" FOREIGN KEY ("account_id","appointment_id") REFERENCES "public"."appointments"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recall_attempts_recall_idx" ON "recall_attempts" USING btree ("account_id","recall_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "recalls_line_unique" ON "recalls" USING btree ("account_id","attendance_line_id");--> statement-breakpoint
CREATE INDEX "recalls_status_due_idx" ON "recalls" USING btree ("account_id","status","due_on","id");--> statement-breakpoint
CREATE INDEX "recalls_patient_open_idx" ON "recalls" USING btree ("account_id","patient_id","treatment_id","due_on") WHERE "recalls"."status" in ('pending', 'contacted');--> statement-breakpoint
CREATE INDEX "recalls_due_idx" ON "recalls" USING btree ("account_id","due_on");--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_recall_message_days" CHECK ("accounts"."recall_message_days" between 0 and 60);--> statement-breakpoint
ALTER TABLE "treatments" ADD CONSTRAINT "treatments_recall_rule" CHECK (("treatments"."recall_interval" is null and "treatments"."recall_unit" is null) or ("treatments"."recall_unit" = 'days' and "treatments"."recall_interval" between 1 and 1825) or ("treatments"."recall_unit" = 'weeks' and "treatments"."recall_interval" between 1 and 260) or ("treatments"."recall_unit" = 'months' and "treatments"."recall_interval" between 1 and 60));--> statement-breakpoint
ALTER TABLE "treatments" ADD CONSTRAINT "treatments_recall_reason" CHECK (char_length("treatments"."recall_reason") <= 200);--> statement-breakpoint
-- hand-written: row-level security, forced, the clinic's policy and the app roles' grants.
SELECT enable_tenant_rls('recalls');--> statement-breakpoint
SELECT enable_tenant_rls('recall_attempts');--> statement-breakpoint
-- A recall and its attempts are the clinic's record of its patients' care: never deleted.
REVOKE DELETE, TRUNCATE ON recalls FROM odontia_app, odontia_system;--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON recall_attempts FROM odontia_app, odontia_system;
