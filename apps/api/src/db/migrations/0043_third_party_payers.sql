CREATE TABLE "patient_affiliations" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"payer_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"member_number" text NOT NULL,
	"valid_from" date NOT NULL,
	"valid_to" date,
	"primary" boolean DEFAULT true NOT NULL,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "patient_affiliations_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "patient_affiliations_period" CHECK ("patient_affiliations"."valid_to" is null or "patient_affiliations"."valid_to" >= "patient_affiliations"."valid_from")
);
--> statement-breakpoint
CREATE TABLE "payer_coverage_rules" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"treatment_id" uuid,
	"treatment_group" text,
	"mode" text NOT NULL,
	"value" numeric(14, 2) NOT NULL,
	"limit_kind" text DEFAULT 'none' NOT NULL,
	"limit_value" numeric(14, 2),
	"authorization_required" boolean DEFAULT false NOT NULL,
	"replaced_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payer_coverage_rules_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "payer_coverage_rules_target" CHECK ("payer_coverage_rules"."treatment_id" is null or "payer_coverage_rules"."treatment_group" is null),
	CONSTRAINT "payer_coverage_rules_value" CHECK ("payer_coverage_rules"."value" >= 0 and ("payer_coverage_rules"."mode" <> 'percentage' or "payer_coverage_rules"."value" <= 100)),
	CONSTRAINT "payer_coverage_rules_limit" CHECK (("payer_coverage_rules"."limit_kind" = 'none') = ("payer_coverage_rules"."limit_value" is null) and ("payer_coverage_rules"."limit_value" is null or "payer_coverage_rules"."limit_value" > 0))
);
--> statement-breakpoint
CREATE TABLE "payer_plans" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"payer_id" uuid NOT NULL,
	"name" text NOT NULL,
	"code" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "payer_plans_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
CREATE TABLE "payer_presentations" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"payer_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"period" date NOT NULL,
	"status" text DEFAULT 'building' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"line_count" integer DEFAULT 0 NOT NULL,
	"total" numeric(20, 2) DEFAULT '0' NOT NULL,
	"rejected_total" numeric(20, 2) DEFAULT '0' NOT NULL,
	"sent_on" date,
	"accepted_on" date,
	"paid_on" date,
	"collection_id" uuid,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "payer_presentations_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "payer_presentations_progress" CHECK ("payer_presentations"."progress" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "payer_rejections" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"presentation_id" uuid NOT NULL,
	"split_line_id" uuid NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"reason" text NOT NULL,
	"destination" text NOT NULL,
	"credit_note_id" uuid NOT NULL,
	"patient_document_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	CONSTRAINT "payer_rejections_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "payer_rejections_amount" CHECK ("payer_rejections"."amount" > 0),
	CONSTRAINT "payer_rejections_destination" CHECK (("payer_rejections"."destination" = 'patient') = ("payer_rejections"."patient_document_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "payer_split_lines" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"payer_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"affiliation_id" uuid NOT NULL,
	"rule_id" uuid,
	"source_kind" text NOT NULL,
	"source_id" uuid NOT NULL,
	"attendance_id" uuid NOT NULL,
	"date" date NOT NULL,
	"treatment_id" uuid,
	"treatment_code" text,
	"description" text NOT NULL,
	"member_number" text NOT NULL,
	"quantity" numeric(12, 2) NOT NULL,
	"covered_quantity" numeric(12, 2) NOT NULL,
	"line_total" numeric(14, 2) NOT NULL,
	"vat_rate" numeric(5, 2) DEFAULT '0' NOT NULL,
	"payer_amount" numeric(14, 2) NOT NULL,
	"patient_amount" numeric(14, 2) NOT NULL,
	"rounding" text NOT NULL,
	"authorization_number" text,
	"patient_document_id" uuid,
	"payer_document_id" uuid,
	"presentation_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	CONSTRAINT "payer_split_lines_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "payer_split_lines_amounts" CHECK ("payer_split_lines"."payer_amount" >= 0 and "payer_split_lines"."patient_amount" >= 0 and "payer_split_lines"."payer_amount" + "payer_split_lines"."patient_amount" = "payer_split_lines"."line_total")
);
--> statement-breakpoint
CREATE TABLE "payers" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"code" text,
	"tax_id" text,
	"customer_id" uuid NOT NULL,
	"notes" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "payers_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
ALTER TABLE "patient_affiliations" ADD CONSTRAINT "patient_affiliations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_affiliations" ADD CONSTRAINT "patient_affiliations_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_affiliations" ADD CONSTRAINT "patient_affiliations_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_affiliations" ADD CONSTRAINT "patient_affiliations_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_affiliations" ADD CONSTRAINT "patient_affiliations_account_id_patient_id_patients_account_id_id_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_affiliations" ADD CONSTRAINT "patient_affiliations_account_id_payer_id_payers_account_id_id_fk" FOREIGN KEY ("account_id","payer_id") REFERENCES "public"."payers"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_affiliations" ADD CONSTRAINT "patient_affiliations_account_id_plan_id_payer_plans_account_id_id_fk" FOREIGN KEY ("account_id","plan_id") REFERENCES "public"."payer_plans"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_coverage_rules" ADD CONSTRAINT "payer_coverage_rules_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_coverage_rules" ADD CONSTRAINT "payer_coverage_rules_account_id_plan_id_payer_plans_account_id_id_fk" FOREIGN KEY ("account_id","plan_id") REFERENCES "public"."payer_plans"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_coverage_rules" ADD CONSTRAINT "payer_coverage_rules_account_id_treatment_id_treatments_account_id_id_fk" FOREIGN KEY ("account_id","treatment_id") REFERENCES "public"."treatments"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_plans" ADD CONSTRAINT "payer_plans_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_plans" ADD CONSTRAINT "payer_plans_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_plans" ADD CONSTRAINT "payer_plans_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_plans" ADD CONSTRAINT "payer_plans_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_plans" ADD CONSTRAINT "payer_plans_account_id_payer_id_payers_account_id_id_fk" FOREIGN KEY ("account_id","payer_id") REFERENCES "public"."payers"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_presentations" ADD CONSTRAINT "payer_presentations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_presentations" ADD CONSTRAINT "payer_presentations_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_presentations" ADD CONSTRAINT "payer_presentations_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_presentations" ADD CONSTRAINT "payer_presentations_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_presentations" ADD CONSTRAINT "payer_presentations_account_id_payer_id_payers_account_id_id_fk" FOREIGN KEY ("account_id","payer_id") REFERENCES "public"."payers"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_rejections" ADD CONSTRAINT "payer_rejections_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_rejections" ADD CONSTRAINT "payer_rejections_account_id_presentation_id_payer_presentations_account_id_id_fk" FOREIGN KEY ("account_id","presentation_id") REFERENCES "public"."payer_presentations"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_rejections" ADD CONSTRAINT "payer_rejections_account_id_split_line_id_payer_split_lines_account_id_id_fk" FOREIGN KEY ("account_id","split_line_id") REFERENCES "public"."payer_split_lines"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_rejections" ADD CONSTRAINT "payer_rejections_account_id_credit_note_id_commercial_documents_account_id_id_fk" FOREIGN KEY ("account_id","credit_note_id") REFERENCES "public"."commercial_documents"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_rejections" ADD CONSTRAINT "payer_rejections_account_id_patient_document_id_commercial_documents_account_id_id_fk" FOREIGN KEY ("account_id","patient_document_id") REFERENCES "public"."commercial_documents"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_rejections" ADD CONSTRAINT "payer_rejections_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_split_lines" ADD CONSTRAINT "payer_split_lines_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_split_lines" ADD CONSTRAINT "payer_split_lines_account_id_patient_id_patients_account_id_id_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_split_lines" ADD CONSTRAINT "payer_split_lines_account_id_payer_id_payers_account_id_id_fk" FOREIGN KEY ("account_id","payer_id") REFERENCES "public"."payers"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_split_lines" ADD CONSTRAINT "payer_split_lines_account_id_plan_id_payer_plans_account_id_id_fk" FOREIGN KEY ("account_id","plan_id") REFERENCES "public"."payer_plans"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_split_lines" ADD CONSTRAINT "payer_split_lines_account_id_affiliation_id_patient_affiliations_account_id_id_fk" FOREIGN KEY ("account_id","affiliation_id") REFERENCES "public"."patient_affiliations"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_split_lines" ADD CONSTRAINT "payer_split_lines_account_id_rule_id_payer_coverage_rules_account_id_id_fk" FOREIGN KEY ("account_id","rule_id") REFERENCES "public"."payer_coverage_rules"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_split_lines" ADD CONSTRAINT "payer_split_lines_account_id_attendance_id_attendances_account_id_id_fk" FOREIGN KEY ("account_id","attendance_id") REFERENCES "public"."attendances"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_split_lines" ADD CONSTRAINT "payer_split_lines_account_id_patient_document_id_commercial_documents_account_id_id_fk" FOREIGN KEY ("account_id","patient_document_id") REFERENCES "public"."commercial_documents"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_split_lines" ADD CONSTRAINT "payer_split_lines_account_id_payer_document_id_commercial_documents_account_id_id_fk" FOREIGN KEY ("account_id","payer_document_id") REFERENCES "public"."commercial_documents"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_split_lines" ADD CONSTRAINT "payer_split_lines_account_id_presentation_id_payer_presentations_account_id_id_fk" FOREIGN KEY ("account_id","presentation_id") REFERENCES "public"."payer_presentations"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_split_lines" ADD CONSTRAINT "payer_split_lines_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payers" ADD CONSTRAINT "payers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payers" ADD CONSTRAINT "payers_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payers" ADD CONSTRAINT "payers_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payers" ADD CONSTRAINT "payers_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payers" ADD CONSTRAINT "payers_account_id_customer_id_customers_account_id_id_fk" FOREIGN KEY ("account_id","customer_id") REFERENCES "public"."customers"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "patient_affiliations_patient_idx" ON "patient_affiliations" USING btree ("account_id","patient_id","valid_from" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "patient_affiliations"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "patient_affiliations_primary_unique" ON "patient_affiliations" USING btree ("account_id","patient_id") WHERE "patient_affiliations"."primary" and "patient_affiliations"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "payer_coverage_rules_plan_idx" ON "payer_coverage_rules" USING btree ("account_id","plan_id","position") WHERE "payer_coverage_rules"."replaced_at" is null;--> statement-breakpoint
CREATE INDEX "payer_plans_payer_idx" ON "payer_plans" USING btree ("account_id","payer_id","name") WHERE "payer_plans"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "payer_presentations_number_unique" ON "payer_presentations" USING btree ("account_id","number");--> statement-breakpoint
CREATE INDEX "payer_presentations_list_idx" ON "payer_presentations" USING btree ("account_id","period" DESC NULLS LAST,"number" DESC NULLS LAST) WHERE "payer_presentations"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "payer_rejections_line_unique" ON "payer_rejections" USING btree ("account_id","split_line_id");--> statement-breakpoint
CREATE INDEX "payer_rejections_presentation_idx" ON "payer_rejections" USING btree ("account_id","presentation_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payer_split_lines_source_unique" ON "payer_split_lines" USING btree ("account_id","source_kind","source_id");--> statement-breakpoint
CREATE INDEX "payer_split_lines_unpresented_idx" ON "payer_split_lines" USING btree ("account_id","payer_id","date","id") WHERE "payer_split_lines"."presentation_id" is null and "payer_split_lines"."payer_document_id" is not null;--> statement-breakpoint
CREATE INDEX "payer_split_lines_presentation_idx" ON "payer_split_lines" USING btree ("account_id","presentation_id","date","id") WHERE "payer_split_lines"."presentation_id" is not null;--> statement-breakpoint
CREATE INDEX "payer_split_lines_usage_idx" ON "payer_split_lines" USING btree ("account_id","patient_id","rule_id","date");--> statement-breakpoint
CREATE UNIQUE INDEX "payers_customer_unique" ON "payers" USING btree ("account_id","customer_id");--> statement-breakpoint
CREATE INDEX "payers_name_idx" ON "payers" USING btree ("account_id","name","id") WHERE "payers"."deleted_at" is null;
--> statement-breakpoint
-- hand-written: row-level security, financial rows never deleted, the split and rejections final.
SELECT enable_tenant_rls(t) FROM unnest(ARRAY['payers', 'payer_plans', 'payer_coverage_rules', 'patient_affiliations', 'payer_presentations', 'payer_split_lines', 'payer_rejections']) AS t;
--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON payers, payer_plans, payer_coverage_rules, patient_affiliations, payer_presentations, payer_split_lines, payer_rejections FROM odontia_app, odontia_system;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION odontia_payer_split_guard() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  RAISE EXCEPTION 'payer split line % is final', OLD.id USING ERRCODE = 'P0001', HINT = 'payer_split_final';
END
$$;
--> statement-breakpoint
-- Any column but presentation_id named in an UPDATE is refused; presentation_id only from null (a
-- presentation takes a line once). Column triggers: the presentation's mass UPDATE fires none.
CREATE TRIGGER payer_split_lines_final BEFORE UPDATE OF account_id, id, patient_id, payer_id, plan_id, affiliation_id,
  rule_id, source_kind, source_id, attendance_id, date, treatment_id, treatment_code, description, member_number,
  quantity, covered_quantity, line_total, vat_rate, payer_amount, patient_amount, rounding, authorization_number,
  patient_document_id, payer_document_id, created_at, created_by ON payer_split_lines
  FOR EACH ROW EXECUTE FUNCTION odontia_payer_split_guard();
--> statement-breakpoint
CREATE TRIGGER payer_split_lines_presented_once BEFORE UPDATE OF presentation_id ON payer_split_lines
  FOR EACH ROW WHEN (OLD.presentation_id IS NOT NULL AND NEW.presentation_id IS DISTINCT FROM OLD.presentation_id)
  EXECUTE FUNCTION odontia_payer_split_guard();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION odontia_payer_rejection_guard() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  RAISE EXCEPTION 'payer rejection % is never edited', OLD.id USING ERRCODE = 'P0001', HINT = 'payer_rejection_final';
END
$$;
--> statement-breakpoint
CREATE TRIGGER payer_rejections_final BEFORE UPDATE ON payer_rejections
  FOR EACH ROW EXECUTE FUNCTION odontia_payer_rejection_guard();
