CREATE TABLE "online_booking_holds" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"email" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"phone" text NOT NULL,
	"id_number" text NOT NULL,
	"sex" text NOT NULL,
	"birthdate" date NOT NULL,
	"language" text NOT NULL,
	"treatment_id" uuid NOT NULL,
	"professional_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"appointment_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "online_booking_holds_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "online_booking_holds_status" CHECK ("online_booking_holds"."status" in ('pending', 'confirmed', 'expired')),
	CONSTRAINT "online_booking_holds_range" CHECK ("online_booking_holds"."ends_at" > "online_booking_holds"."starts_at")
);
--> statement-breakpoint
ALTER TABLE "appointments" DROP CONSTRAINT "appointments_confirmation_channel";--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "online_booking_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "online_booking_professional_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "online_booking_lead_hours" integer DEFAULT 24 NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "online_booking_horizon_days" integer DEFAULT 60 NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "online_booking_max_pending" integer DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "online_booking_new_patients" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "online_booking_change_hours" integer DEFAULT 24 NOT NULL;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "origin" text DEFAULT 'staff' NOT NULL;--> statement-breakpoint
ALTER TABLE "treatments" ADD COLUMN "bookable_online" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "online_booking_holds" ADD CONSTRAINT "online_booking_holds_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_booking_holds" ADD CONSTRAINT "online_booking_holds_account_id_professional_id_users_account_id_id_fk" FOREIGN KEY ("account_id","professional_id") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_booking_holds" ADD CONSTRAINT "online_booking_holds_account_id_treatment_id_treatments_account_id_id_fk" FOREIGN KEY ("account_id","treatment_id") REFERENCES "public"."treatments"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_booking_holds" ADD CONSTRAINT "online_booking_holds_account_id_appointment_id_appointments_account_id_id_fk" FOREIGN KEY ("account_id","appointment_id") REFERENCES "public"."appointments"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "online_booking_holds_token_hash_unique" ON "online_booking_holds" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "online_booking_holds_email_unique" ON "online_booking_holds" USING btree ("account_id","email") WHERE "online_booking_holds"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "online_booking_holds_starts_idx" ON "online_booking_holds" USING btree ("account_id","starts_at") WHERE "online_booking_holds"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_origin" CHECK ("appointments"."origin" in ('staff', 'online'));--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_confirmation_channel" CHECK ("appointments"."confirmation_channel" is null or "appointments"."confirmation_channel" in ('phone', 'in_person', 'whatsapp', 'sms', 'email', 'reminder_link', 'online'));
--> statement-breakpoint
-- hand-written:
-- A pending public booking holds its slot (issue 37): two pending holds of the same professional
-- never overlap (half-open ranges, like appointments_professional_no_overlap). Expired holds are
-- marked 'expired' before a new hold of the professional is written, so they stop counting.
ALTER TABLE online_booking_holds ADD CONSTRAINT online_booking_holds_no_overlap EXCLUDE USING gist (
  account_id WITH =, professional_id WITH =, tstzrange(starts_at, ends_at, '[)') WITH &&
) WHERE (status = 'pending');
--> statement-breakpoint
SELECT enable_tenant_rls('online_booking_holds');
