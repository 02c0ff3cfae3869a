CREATE TABLE "health_certificates" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"date" date NOT NULL,
	"professional_id" uuid NOT NULL,
	"professional_name" text NOT NULL,
	"professional_license" text,
	"professional_specialty" text,
	"addressee" text,
	"visit_time" text,
	"rest_from" date,
	"rest_to" date,
	"diagnosis" text,
	"show_diagnosis" boolean DEFAULT false NOT NULL,
	"activity" text,
	"text" text NOT NULL,
	"notes" text,
	"verification_code" text NOT NULL,
	"replaces_id" uuid,
	"voided_at" timestamp with time zone,
	"voided_by" uuid,
	"void_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "health_certificates_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "health_certificates_kind" CHECK ("health_certificates"."kind" in ('attendance', 'rest', 'fitness', 'free')),
	CONSTRAINT "health_certificates_rest" CHECK ("health_certificates"."kind" <> 'rest' or ("health_certificates"."rest_from" is not null and "health_certificates"."rest_to" >= "health_certificates"."rest_from")),
	CONSTRAINT "health_certificates_void" CHECK (("health_certificates"."voided_at" is null) = ("health_certificates"."void_reason" is null))
);
--> statement-breakpoint
ALTER TABLE "health_certificates" ADD CONSTRAINT "health_certificates_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "health_certificates" ADD CONSTRAINT "health_certificates_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "health_certificates" ADD CONSTRAINT "health_certificates_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "health_certificates" ADD CONSTRAINT "health_certificates_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "health_certificates" ADD CONSTRAINT "health_certificates_account_id_patient_id_patients_account_id_id_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "health_certificates" ADD CONSTRAINT "health_certificates_account_id_professional_id_users_account_id_id_fk" FOREIGN KEY ("account_id","professional_id") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "health_certificates" ADD CONSTRAINT "health_certificates_account_id_voided_by_users_account_id_id_fk" FOREIGN KEY ("account_id","voided_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "health_certificates" ADD CONSTRAINT "health_certificates_account_id_replaces_id_health_certificates_account_id_id_fk" FOREIGN KEY ("account_id","replaces_id") REFERENCES "public"."health_certificates"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "health_certificates_patient_idx" ON "health_certificates" USING btree ("account_id","patient_id","date" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "health_certificates"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "health_certificates_verification_code_unique" ON "health_certificates" USING btree ("account_id","verification_code");--> statement-breakpoint
-- Written by hand (docs/adding-a-domain.md §2): drizzle-kit writes neither. Row-level security
-- with the clinic's policy, and no DELETE for the app roles (a clinical record is never deleted).
SELECT enable_tenant_rls('health_certificates');
--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON health_certificates FROM odontia_app, odontia_system;
