CREATE TABLE "perio_exams" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"date" date NOT NULL,
	"professional_id" uuid NOT NULL,
	"dentition" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"closed_at" timestamp with time zone,
	"closed_by" uuid,
	"notes" text,
	"teeth" jsonb NOT NULL,
	"indices" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "perio_exams_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "perio_exams_dentition" CHECK ("perio_exams"."dentition" in ('adult', 'primary', 'mixed')),
	CONSTRAINT "perio_exams_status" CHECK (("perio_exams"."status" = 'draft' and "perio_exams"."closed_at" is null) or ("perio_exams"."status" = 'closed' and "perio_exams"."closed_at" is not null)),
	CONSTRAINT "perio_exams_closed_kept" CHECK ("perio_exams"."status" = 'draft' or "perio_exams"."deleted_at" is null),
	CONSTRAINT "perio_exams_teeth" CHECK (jsonb_typeof("perio_exams"."teeth") = 'array' and not jsonb_path_exists("perio_exams"."teeth", '$[*].sites.*.depth ? (@ < 0 || @ > 15)') and not jsonb_path_exists("perio_exams"."teeth", '$[*].sites.*.margin ? (@ < -10 || @ > 10)') and not jsonb_path_exists("perio_exams"."teeth", '$[*].mobility ? (@ < 0 || @ > 3)') and not jsonb_path_exists("perio_exams"."teeth", '$[*].furcation ? (@ < 1 || @ > 3)'))
);
--> statement-breakpoint
ALTER TABLE "perio_exams" ADD CONSTRAINT "perio_exams_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perio_exams" ADD CONSTRAINT "perio_exams_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perio_exams" ADD CONSTRAINT "perio_exams_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perio_exams" ADD CONSTRAINT "perio_exams_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perio_exams" ADD CONSTRAINT "perio_exams_account_id_patient_id_patients_account_id_id_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perio_exams" ADD CONSTRAINT "perio_exams_account_id_professional_id_users_account_id_id_fk" FOREIGN KEY ("account_id","professional_id") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perio_exams" ADD CONSTRAINT "perio_exams_account_id_closed_by_users_account_id_id_fk" FOREIGN KEY ("account_id","closed_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "perio_exams_patient_idx" ON "perio_exams" USING btree ("account_id","patient_id","date" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "perio_exams"."deleted_at" is null;--> statement-breakpoint
-- Hand-written: row-level security, policy and grants; clinical rows are never deleted.
SELECT enable_tenant_rls('perio_exams');
--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON perio_exams FROM odontia_app, odontia_system;
--> statement-breakpoint
-- A closed exam is final, whatever the code does (issue 41).
CREATE OR REPLACE FUNCTION odontia_perio_exams_closed() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF OLD.status = 'closed' THEN
    RAISE EXCEPTION 'a closed periodontal exam cannot change'
      USING ERRCODE = '23514', HINT = 'perio_exams_closed';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER perio_exams_closed BEFORE UPDATE ON perio_exams
  FOR EACH ROW EXECUTE FUNCTION odontia_perio_exams_closed();
