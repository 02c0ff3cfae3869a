-- The dental chart and clinical documents (issue 6): odontogram entries, prescriptions, treatment
-- authorizations with their signatures and templates, the patient's files; professionals' licence
-- and specialty; the language of a patient's printed documents.
CREATE TABLE "authorization_signatures" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"authorization_id" uuid NOT NULL,
	"signed_text" text NOT NULL,
	"signature_image" "bytea" NOT NULL,
	"signer_name" text NOT NULL,
	"signer_id_number" text NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	"collected_by" uuid NOT NULL,
	"sha256" text NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by" uuid,
	"revoke_reason" text,
	CONSTRAINT "authorization_signatures_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
CREATE TABLE "authorization_templates" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "authorization_templates_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
CREATE TABLE "odontogram_entries" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"tooth" integer NOT NULL,
	"zone" text,
	"status" text NOT NULL,
	"charted_at" timestamp with time zone NOT NULL,
	"professional_id" uuid NOT NULL,
	"attendance_id" uuid,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"delete_reason" text,
	CONSTRAINT "odontogram_entries_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "odontogram_entries_tooth" CHECK ("odontogram_entries"."tooth" between 11 and 18 or "odontogram_entries"."tooth" between 21 and 28 or "odontogram_entries"."tooth" between 31 and 38
        or "odontogram_entries"."tooth" between 41 and 48 or "odontogram_entries"."tooth" between 51 and 55 or "odontogram_entries"."tooth" between 61 and 65
        or "odontogram_entries"."tooth" between 71 and 75 or "odontogram_entries"."tooth" between 81 and 85),
	CONSTRAINT "odontogram_entries_zone" CHECK ("odontogram_entries"."zone" is null or "odontogram_entries"."zone" in ('mesial', 'distal', 'buccal', 'lingual', 'occlusal')),
	CONSTRAINT "odontogram_entries_status" CHECK ("odontogram_entries"."status" in ('healthy', 'caries', 'filling', 'sealant', 'missing', 'extracted', 'implant', 'crown',
        'bridge', 'fractured', 'provisional', 'root_canal', 'retained_root', 'supernumerary', 'to_extract', 'eruption',
        'impacted'))
);
--> statement-breakpoint
CREATE TABLE "patient_files" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"file_type" text NOT NULL,
	"note" text,
	"original_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"storage_key" text NOT NULL,
	"thumbnail_key" text,
	"taken_on" date,
	"attendance_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "patient_files_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "patient_files_type" CHECK ("patient_files"."file_type" in ('x_ray', 'dental_radiography', 'photo', 'lab_result', 'other')),
	CONSTRAINT "patient_files_size" CHECK ("patient_files"."size_bytes" > 0)
);
--> statement-breakpoint
CREATE TABLE "prescription_lines" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"prescription_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"medication_id" uuid,
	"medicine" text NOT NULL,
	"dose" text,
	"frequency" text,
	"duration" text,
	"quantity" text,
	"instructions" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	CONSTRAINT "prescription_lines_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
CREATE TABLE "prescriptions" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"professional_id" uuid NOT NULL,
	"professional_name" text NOT NULL,
	"professional_license" text,
	"professional_specialty" text,
	"date" date NOT NULL,
	"diagnosis" text,
	"notes" text,
	"verification_code" text NOT NULL,
	"attendance_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "prescriptions_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
CREATE TABLE "treatment_authorizations" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"template_id" uuid,
	"professional_id" uuid NOT NULL,
	"date" date NOT NULL,
	"title" text NOT NULL,
	"treatment" text NOT NULL,
	"risks" text,
	"alternatives" text,
	"cost_estimate" numeric(14, 2),
	"body" text NOT NULL,
	"status" text DEFAULT 'unsigned' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "treatment_authorizations_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "treatment_authorizations_status" CHECK ("treatment_authorizations"."status" in ('unsigned', 'signed')),
	CONSTRAINT "treatment_authorizations_cost" CHECK ("treatment_authorizations"."cost_estimate" is null or "treatment_authorizations"."cost_estimate" >= 0)
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "license_number" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "specialty" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "language" text DEFAULT 'es' NOT NULL;--> statement-breakpoint
ALTER TABLE "authorization_signatures" ADD CONSTRAINT "authorization_signatures_account_id_authorization_id_treatment_authorizations_account_id_id_fk" FOREIGN KEY ("account_id","authorization_id") REFERENCES "public"."treatment_authorizations"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authorization_signatures" ADD CONSTRAINT "authorization_signatures_account_id_collected_by_users_account_id_id_fk" FOREIGN KEY ("account_id","collected_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authorization_signatures" ADD CONSTRAINT "authorization_signatures_account_id_revoked_by_users_account_id_id_fk" FOREIGN KEY ("account_id","revoked_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authorization_templates" ADD CONSTRAINT "authorization_templates_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authorization_templates" ADD CONSTRAINT "authorization_templates_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authorization_templates" ADD CONSTRAINT "authorization_templates_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authorization_templates" ADD CONSTRAINT "authorization_templates_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "odontogram_entries" ADD CONSTRAINT "odontogram_entries_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "odontogram_entries" ADD CONSTRAINT "odontogram_entries_account_id_patient_id_patients_account_id_id_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "odontogram_entries" ADD CONSTRAINT "odontogram_entries_account_id_professional_id_users_account_id_id_fk" FOREIGN KEY ("account_id","professional_id") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "odontogram_entries" ADD CONSTRAINT "odontogram_entries_account_id_attendance_id_attendances_account_id_id_fk" FOREIGN KEY ("account_id","attendance_id") REFERENCES "public"."attendances"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "odontogram_entries" ADD CONSTRAINT "odontogram_entries_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "odontogram_entries" ADD CONSTRAINT "odontogram_entries_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_files" ADD CONSTRAINT "patient_files_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_files" ADD CONSTRAINT "patient_files_account_id_patient_id_patients_account_id_id_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_files" ADD CONSTRAINT "patient_files_account_id_attendance_id_attendances_account_id_id_fk" FOREIGN KEY ("account_id","attendance_id") REFERENCES "public"."attendances"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_files" ADD CONSTRAINT "patient_files_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_files" ADD CONSTRAINT "patient_files_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_files" ADD CONSTRAINT "patient_files_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescription_lines" ADD CONSTRAINT "prescription_lines_account_id_prescription_id_prescriptions_account_id_id_fk" FOREIGN KEY ("account_id","prescription_id") REFERENCES "public"."prescriptions"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescription_lines" ADD CONSTRAINT "prescription_lines_account_id_medication_id_inventory_items_account_id_id_fk" FOREIGN KEY ("account_id","medication_id") REFERENCES "public"."inventory_items"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescription_lines" ADD CONSTRAINT "prescription_lines_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescription_lines" ADD CONSTRAINT "prescription_lines_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_account_id_patient_id_patients_account_id_id_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_account_id_professional_id_users_account_id_id_fk" FOREIGN KEY ("account_id","professional_id") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_account_id_attendance_id_attendances_account_id_id_fk" FOREIGN KEY ("account_id","attendance_id") REFERENCES "public"."attendances"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_authorizations" ADD CONSTRAINT "treatment_authorizations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_authorizations" ADD CONSTRAINT "treatment_authorizations_account_id_patient_id_patients_account_id_id_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_authorizations" ADD CONSTRAINT "treatment_authorizations_account_id_template_id_authorization_templates_account_id_id_fk" FOREIGN KEY ("account_id","template_id") REFERENCES "public"."authorization_templates"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_authorizations" ADD CONSTRAINT "treatment_authorizations_account_id_professional_id_users_account_id_id_fk" FOREIGN KEY ("account_id","professional_id") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_authorizations" ADD CONSTRAINT "treatment_authorizations_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_authorizations" ADD CONSTRAINT "treatment_authorizations_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_authorizations" ADD CONSTRAINT "treatment_authorizations_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "authorization_signatures_authorization_idx" ON "authorization_signatures" USING btree ("account_id","authorization_id","signed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "authorization_signatures_standing_unique" ON "authorization_signatures" USING btree ("account_id","authorization_id") WHERE "authorization_signatures"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "authorization_templates_title_idx" ON "authorization_templates" USING btree ("account_id","title") WHERE "authorization_templates"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "odontogram_entries_patient_idx" ON "odontogram_entries" USING btree ("account_id","patient_id","charted_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "odontogram_entries"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "patient_files_patient_idx" ON "patient_files" USING btree ("account_id","patient_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "patient_files"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "prescription_lines_prescription_idx" ON "prescription_lines" USING btree ("account_id","prescription_id","position") WHERE "prescription_lines"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "prescriptions_patient_idx" ON "prescriptions" USING btree ("account_id","patient_id","date" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "prescriptions"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "prescriptions_verification_code_unique" ON "prescriptions" USING btree ("account_id","verification_code");--> statement-breakpoint
CREATE INDEX "treatment_authorizations_patient_idx" ON "treatment_authorizations" USING btree ("account_id","patient_id","date" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "treatment_authorizations"."deleted_at" is null;--> statement-breakpoint
SELECT enable_tenant_rls('odontogram_entries');
--> statement-breakpoint
SELECT enable_tenant_rls('prescriptions');
--> statement-breakpoint
SELECT enable_tenant_rls('prescription_lines');
--> statement-breakpoint
SELECT enable_tenant_rls('authorization_templates');
--> statement-breakpoint
SELECT enable_tenant_rls('treatment_authorizations');
--> statement-breakpoint
SELECT enable_tenant_rls('authorization_signatures');
--> statement-breakpoint
SELECT enable_tenant_rls('patient_files');
--> statement-breakpoint
-- Clinical records are never physically deleted (ARCHITECTURE §4): "delete" sets deleted_at.
REVOKE DELETE, TRUNCATE ON odontogram_entries, prescriptions, prescription_lines, authorization_templates, treatment_authorizations, authorization_signatures, patient_files FROM odontia_app, odontia_system;
