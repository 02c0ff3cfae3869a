CREATE TABLE "access_exports" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"requested_via" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"step" integer DEFAULT 0 NOT NULL,
	"file_name" text NOT NULL,
	"storage_key" text,
	"byte_size" bigint,
	"last_error" text,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "access_exports_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "access_exports_progress" CHECK ("access_exports"."progress" between 0 and 100),
	CONSTRAINT "access_exports_step" CHECK ("access_exports"."step" between 0 and 2)
);
--> statement-breakpoint
ALTER TABLE "access_exports" ADD CONSTRAINT "access_exports_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_exports" ADD CONSTRAINT "access_exports_account_id_patient_id_patients_account_id_id_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_exports" ADD CONSTRAINT "access_exports_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "access_exports_patient_idx" ON "access_exports" USING btree ("account_id","patient_id","created_at" DESC NULLS LAST);--> statement-breakpoint
-- Hand-written: the clinic's row-level security and grants, and the portal's patient policy (a
-- patient sees and asks only their own archives).
SELECT enable_tenant_rls('access_exports');
--> statement-breakpoint
SELECT enable_patient_rls('access_exports', 'patient_id = current_patient_id()');
