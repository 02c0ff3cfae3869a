-- Patients (issue 5): the clinic's patients and the per-clinic counters that number them.
CREATE TABLE "account_counters" (
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"value" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "account_counters_account_id_name_pk" PRIMARY KEY("account_id","name")
);
--> statement-breakpoint
CREATE TABLE "patients" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"sku_patient" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text,
	"phone_area" text,
	"phone" text,
	"sex" text NOT NULL,
	"birthdate" date NOT NULL,
	"ssn" text,
	"medical_history" text,
	"active" boolean DEFAULT true NOT NULL,
	"street" text,
	"complement" text,
	"zip_code" text,
	"country" text,
	"state" text,
	"city" text,
	"district" text,
	"address" text,
	"obs" text,
	"allergies" text,
	"chronic_conditions" text,
	"current_medication" text,
	"search_text" text GENERATED ALWAYS AS (odontia_search_text(first_name, last_name, ssn, sku_patient, email, phone_area, phone, medical_history)) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "patients_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
ALTER TABLE "account_counters" ADD CONSTRAINT "account_counters_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "patients_sku_unique" ON "patients" USING btree ("account_id","sku_patient");--> statement-breakpoint
CREATE UNIQUE INDEX "patients_ssn_unique" ON "patients" USING btree ("account_id",lower("ssn")) WHERE "patients"."ssn" is not null and "patients"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "patients_name_idx" ON "patients" USING btree ("account_id","last_name","first_name","id") WHERE "patients"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "patients_search_idx" ON "patients" USING gin ("search_text" gin_trgm_ops);
--> statement-breakpoint
SELECT enable_tenant_rls('account_counters');
--> statement-breakpoint
SELECT enable_tenant_rls('patients');
--> statement-breakpoint
-- Clinical records are never physically deleted (ARCHITECTURE §4): "delete" sets deleted_at.
REVOKE DELETE, TRUNCATE ON patients FROM odontia_app, odontia_system;
