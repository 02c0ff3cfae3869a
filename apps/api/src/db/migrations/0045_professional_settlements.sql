CREATE TABLE "professional_providers" (
	"account_id" uuid NOT NULL,
	"professional_id" uuid NOT NULL,
	"provider_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "professional_providers_account_id_professional_id_pk" PRIMARY KEY("account_id","professional_id")
);
--> statement-breakpoint
CREATE TABLE "settlement_lines" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"settlement_id" uuid NOT NULL,
	"professional_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"source_kind" text NOT NULL,
	"source_id" uuid NOT NULL,
	"document_line_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"document_type" text NOT NULL,
	"document_label" text NOT NULL,
	"payment_id" uuid,
	"attendance_id" uuid,
	"patient_id" uuid,
	"patient_name" text,
	"treatment_id" uuid,
	"description" text NOT NULL,
	"group_name" text,
	"source_date" date NOT NULL,
	"quantity" numeric(12, 2) NOT NULL,
	"base" numeric(14, 2) NOT NULL,
	"lab_cost" numeric(14, 2) NOT NULL,
	"rule_id" uuid NOT NULL,
	"rule_scope" text NOT NULL,
	"rule_method" text NOT NULL,
	"rule_value" numeric(14, 2) NOT NULL,
	"rule_basis" text NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	CONSTRAINT "settlement_lines_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
CREATE TABLE "settlement_rules" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"professional_id" uuid NOT NULL,
	"scope" text NOT NULL,
	"treatment_id" uuid,
	"group_name" text,
	"method" text NOT NULL,
	"value" numeric(14, 2) NOT NULL,
	"basis" text NOT NULL,
	"deduct_lab_cost" boolean DEFAULT false NOT NULL,
	"valid_from" date NOT NULL,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "settlement_rules_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "settlement_rules_target" CHECK (("settlement_rules"."scope" = 'treatment' and "settlement_rules"."treatment_id" is not null and "settlement_rules"."group_name" is null) or ("settlement_rules"."scope" = 'group' and "settlement_rules"."group_name" is not null and "settlement_rules"."treatment_id" is null) or ("settlement_rules"."scope" = 'default' and "settlement_rules"."treatment_id" is null and "settlement_rules"."group_name" is null)),
	CONSTRAINT "settlement_rules_value" CHECK ("settlement_rules"."value" >= 0 and ("settlement_rules"."method" <> 'percentage' or "settlement_rules"."value" <= 100))
);
--> statement-breakpoint
CREATE TABLE "settlements" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"number" text NOT NULL,
	"sequence_number" integer NOT NULL,
	"professional_id" uuid NOT NULL,
	"professional_name" text NOT NULL,
	"provider_id" uuid NOT NULL,
	"period_from" date NOT NULL,
	"period_to" date NOT NULL,
	"currency" text NOT NULL,
	"base_total" numeric(14, 2) NOT NULL,
	"lab_cost_total" numeric(14, 2) NOT NULL,
	"adjustment_total" numeric(14, 2) NOT NULL,
	"total" numeric(14, 2) NOT NULL,
	"line_count" integer NOT NULL,
	"document_id" uuid,
	"clinic_snapshot" jsonb NOT NULL,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid NOT NULL,
	CONSTRAINT "settlements_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "settlements_period" CHECK ("settlements"."period_from" <= "settlements"."period_to")
);
--> statement-breakpoint
ALTER TABLE "treatments" ADD COLUMN "lab_cost" numeric(14, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "professional_providers" ADD CONSTRAINT "professional_providers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "professional_providers" ADD CONSTRAINT "professional_providers_account_id_professional_id_users_account_id_id_fk" FOREIGN KEY ("account_id","professional_id") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "professional_providers" ADD CONSTRAINT "professional_providers_account_id_provider_id_providers_account_id_id_fk" FOREIGN KEY ("account_id","provider_id") REFERENCES "public"."providers"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_lines" ADD CONSTRAINT "settlement_lines_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_lines" ADD CONSTRAINT "settlement_lines_account_id_settlement_id_settlements_account_id_id_fk" FOREIGN KEY ("account_id","settlement_id") REFERENCES "public"."settlements"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_rules" ADD CONSTRAINT "settlement_rules_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_rules" ADD CONSTRAINT "settlement_rules_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_rules" ADD CONSTRAINT "settlement_rules_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_rules" ADD CONSTRAINT "settlement_rules_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_rules" ADD CONSTRAINT "settlement_rules_account_id_professional_id_users_account_id_id_fk" FOREIGN KEY ("account_id","professional_id") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_rules" ADD CONSTRAINT "settlement_rules_account_id_treatment_id_treatments_account_id_id_fk" FOREIGN KEY ("account_id","treatment_id") REFERENCES "public"."treatments"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_account_id_professional_id_users_account_id_id_fk" FOREIGN KEY ("account_id","professional_id") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_account_id_provider_id_providers_account_id_id_fk" FOREIGN KEY ("account_id","provider_id") REFERENCES "public"."providers"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_account_id_document_id_commercial_documents_account_id_id_fk" FOREIGN KEY ("account_id","document_id") REFERENCES "public"."commercial_documents"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "professional_providers_provider_unique" ON "professional_providers" USING btree ("account_id","provider_id");--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_lines_source_unique" ON "settlement_lines" USING btree ("account_id","professional_id","source_kind","source_id","document_line_id");--> statement-breakpoint
CREATE INDEX "settlement_lines_settlement_idx" ON "settlement_lines" USING btree ("account_id","settlement_id");--> statement-breakpoint
CREATE INDEX "settlement_rules_professional_idx" ON "settlement_rules" USING btree ("account_id","professional_id","valid_from") WHERE "settlement_rules"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_rules_target_unique" ON "settlement_rules" USING btree ("account_id","professional_id","scope",coalesce("treatment_id"::text, lower("group_name"), ''),"valid_from") WHERE "settlement_rules"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "settlements_number_unique" ON "settlements" USING btree ("account_id","sequence_number");--> statement-breakpoint
CREATE INDEX "settlements_list_idx" ON "settlements" USING btree ("account_id","period_from" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "settlements_professional_idx" ON "settlements" USING btree ("account_id","professional_id","period_from" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "treatments" ADD CONSTRAINT "treatments_lab_cost" CHECK ("treatments"."lab_cost" >= 0);
--> statement-breakpoint
-- hand-written: row-level security of the new clinic tables, financial rows never deleted,
-- a settlement and its lines never changed, one settlement per professional and period, and the
-- professional's lines of the sales found without reading the whole clinic's lines.
SELECT enable_tenant_rls('professional_providers');
--> statement-breakpoint
SELECT enable_tenant_rls('settlement_rules');
--> statement-breakpoint
SELECT enable_tenant_rls('settlements');
--> statement-breakpoint
SELECT enable_tenant_rls('settlement_lines');
--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON professional_providers, settlement_rules, settlements, settlement_lines FROM odontia_app, odontia_system;
--> statement-breakpoint
REVOKE UPDATE ON professional_providers, settlements, settlement_lines FROM odontia_app, odontia_system;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION odontia_settlement_guard() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  RAISE EXCEPTION 'settlement % is final: it is never changed', OLD.id
    USING ERRCODE = 'P0001', HINT = 'settlement_final';
END
$$;
--> statement-breakpoint
CREATE TRIGGER settlements_final BEFORE UPDATE OR DELETE ON settlements
  FOR EACH ROW EXECUTE FUNCTION odontia_settlement_guard();
--> statement-breakpoint
CREATE TRIGGER settlement_lines_final BEFORE UPDATE OR DELETE ON settlement_lines
  FOR EACH ROW EXECUTE FUNCTION odontia_settlement_guard();
--> statement-breakpoint
ALTER TABLE settlements ADD CONSTRAINT settlements_period_once EXCLUDE USING gist (
  account_id WITH =, professional_id WITH =, daterange(period_from, period_to, '[]') WITH &&
);
--> statement-breakpoint
CREATE INDEX document_lines_professional_idx ON document_lines (account_id, professional_id, document_id)
  WHERE professional_id IS NOT NULL;
