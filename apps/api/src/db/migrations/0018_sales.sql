CREATE TABLE "billed_sources" (
	"account_id" uuid NOT NULL,
	"source_kind" text NOT NULL,
	"source_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billed_sources_account_id_source_kind_source_id_pk" PRIMARY KEY("account_id","source_kind","source_id")
);
--> statement-breakpoint
CREATE TABLE "budget_decisions" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"decision" text NOT NULL,
	"decided_on" date NOT NULL,
	"signed_text" text,
	"signature_image" "bytea",
	"signer_name" text,
	"signer_id_number" text,
	"sha256" text,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	CONSTRAINT "budget_decisions_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "budget_decisions_signature" CHECK (("budget_decisions"."signature_image" is null) = ("budget_decisions"."sha256" is null) and ("budget_decisions"."signature_image" is null or "budget_decisions"."signer_name" is not null))
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"kind" text NOT NULL,
	"patient_id" uuid,
	"name" text NOT NULL,
	"trade_name" text,
	"country" text,
	"tax_id_kind" text,
	"tax_id" text,
	"tax_id_key" text GENERATED ALWAYS AS (nullif(upper(regexp_replace(tax_id, '[^0-9A-Za-z]', '', 'g')), '')) STORED,
	"fiscal_condition" text,
	"address" text,
	"city" text,
	"province" text,
	"postal_code" text,
	"email" text,
	"phone" text,
	"language" text DEFAULT 'es' NOT NULL,
	"payment_term_days" integer DEFAULT 0 NOT NULL,
	"notes" text,
	"active" boolean DEFAULT true NOT NULL,
	"search_text" text GENERATED ALWAYS AS (odontia_search_text(name, trade_name, tax_id, email, phone)) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "customers_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "customers_patient" CHECK (("customers"."kind" = 'patient') = ("customers"."patient_id" is not null)),
	CONSTRAINT "customers_payment_term" CHECK ("customers"."payment_term_days" between 0 and 365)
);
--> statement-breakpoint
CREATE TABLE "einvoice_submissions" (
	"account_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"adapter" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"authorization_code" text,
	"authorized_at" timestamp with time zone,
	"response" jsonb,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "einvoice_submissions_account_id_document_id_pk" PRIMARY KEY("account_id","document_id")
);
--> statement-breakpoint
CREATE TABLE "sale_chains" (
	"account_id" uuid NOT NULL,
	"point_of_service" text NOT NULL,
	"last_index" integer DEFAULT 0 NOT NULL,
	"last_hash" text,
	"last_document_id" uuid,
	CONSTRAINT "sale_chains_account_id_point_of_service_pk" PRIMARY KEY("account_id","point_of_service")
);
--> statement-breakpoint
CREATE TABLE "sale_sequences" (
	"account_id" uuid NOT NULL,
	"point_of_service" text NOT NULL,
	"document_type" text NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "sale_sequences_account_id_point_of_service_document_type_pk" PRIMARY KEY("account_id","point_of_service","document_type"),
	CONSTRAINT "sale_sequences_number" CHECK ("sale_sequences"."last_number" >= 0)
);
--> statement-breakpoint
ALTER TABLE "treatments" ADD COLUMN "group_name" text;--> statement-breakpoint
ALTER TABLE "treatments" ADD COLUMN "price" numeric(14, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "treatments" ADD COLUMN "vat_rate" numeric(5, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "treatments" ADD COLUMN "search_text" text GENERATED ALWAYS AS (odontia_search_text(code, name, group_name)) STORED;--> statement-breakpoint
ALTER TABLE "attendance_lines" ADD COLUMN "treatment_id" uuid;--> statement-breakpoint
ALTER TABLE "attendance_lines" ADD COLUMN "tooth" text;--> statement-breakpoint
ALTER TABLE "attendance_lines" ADD COLUMN "budget_line_id" uuid;--> statement-breakpoint
ALTER TABLE "commercial_documents" ADD COLUMN "customer_id" uuid;--> statement-breakpoint
ALTER TABLE "commercial_documents" ADD COLUMN "sequence_number" integer;--> statement-breakpoint
ALTER TABLE "commercial_documents" ADD COLUMN "chain_index" integer;--> statement-breakpoint
ALTER TABLE "commercial_documents" ADD COLUMN "previous_hash" text;--> statement-breakpoint
ALTER TABLE "commercial_documents" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "document_lines" ADD COLUMN "treatment_id" uuid;--> statement-breakpoint
ALTER TABLE "document_lines" ADD COLUMN "tooth" text;--> statement-breakpoint
ALTER TABLE "document_lines" ADD COLUMN "attendance_id" uuid;--> statement-breakpoint
ALTER TABLE "document_lines" ADD COLUMN "attendance_line_id" uuid;--> statement-breakpoint
ALTER TABLE "document_lines" ADD COLUMN "source_line_id" uuid;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "customer_id" uuid;--> statement-breakpoint
ALTER TABLE "billed_sources" ADD CONSTRAINT "billed_sources_account_id_document_id_commercial_documents_account_id_id_fk" FOREIGN KEY ("account_id","document_id") REFERENCES "public"."commercial_documents"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_decisions" ADD CONSTRAINT "budget_decisions_account_id_document_id_commercial_documents_account_id_id_fk" FOREIGN KEY ("account_id","document_id") REFERENCES "public"."commercial_documents"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_decisions" ADD CONSTRAINT "budget_decisions_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_account_id_patient_id_patients_account_id_id_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "einvoice_submissions" ADD CONSTRAINT "einvoice_submissions_account_id_document_id_commercial_documents_account_id_id_fk" FOREIGN KEY ("account_id","document_id") REFERENCES "public"."commercial_documents"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_chains" ADD CONSTRAINT "sale_chains_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_sequences" ADD CONSTRAINT "sale_sequences_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billed_sources_document_idx" ON "billed_sources" USING btree ("account_id","document_id");--> statement-breakpoint
CREATE UNIQUE INDEX "budget_decisions_document_unique" ON "budget_decisions" USING btree ("account_id","document_id");--> statement-breakpoint
CREATE UNIQUE INDEX "customers_patient_unique" ON "customers" USING btree ("account_id","patient_id") WHERE "customers"."patient_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "customers_tax_id_unique" ON "customers" USING btree ("account_id","tax_id_key") WHERE "customers"."deleted_at" is null and "customers"."tax_id_key" is not null and "customers"."kind" <> 'patient';--> statement-breakpoint
CREATE INDEX "customers_name_idx" ON "customers" USING btree ("account_id",lower("name"),"id") WHERE "customers"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "customers_search_idx" ON "customers" USING gin (odontia_clinic_search_keys("account_id", "search_text"));--> statement-breakpoint
CREATE INDEX "einvoice_submissions_pending_idx" ON "einvoice_submissions" USING btree ("account_id","created_at") WHERE "einvoice_submissions"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "attendance_lines" ADD CONSTRAINT "attendance_lines_account_id_treatment_id_treatments_account_id_id_fk" FOREIGN KEY ("account_id","treatment_id") REFERENCES "public"."treatments"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commercial_documents" ADD CONSTRAINT "commercial_documents_account_id_customer_id_customers_account_id_id_fk" FOREIGN KEY ("account_id","customer_id") REFERENCES "public"."customers"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_lines" ADD CONSTRAINT "document_lines_account_id_treatment_id_treatments_account_id_id_fk" FOREIGN KEY ("account_id","treatment_id") REFERENCES "public"."treatments"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_lines" ADD CONSTRAINT "document_lines_account_id_attendance_id_attendances_account_id_id_fk" FOREIGN KEY ("account_id","attendance_id") REFERENCES "public"."attendances"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_account_id_customer_id_customers_account_id_id_fk" FOREIGN KEY ("account_id","customer_id") REFERENCES "public"."customers"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Hand-written: a treatment's code becomes unique in its clinic (the price list is imported and
-- picked by code). Codes repeated before this migration get a suffix, so it never fails.
UPDATE treatments t SET code = t.code || '-' || d.n
FROM (
  SELECT account_id, id, row_number() OVER (PARTITION BY account_id, lower(code) ORDER BY created_at, id) AS n
  FROM treatments WHERE deleted_at IS NULL AND code IS NOT NULL
) d
WHERE t.account_id = d.account_id AND t.id = d.id AND d.n > 1;--> statement-breakpoint
CREATE UNIQUE INDEX "treatments_code_unique" ON "treatments" USING btree ("account_id",lower("code")) WHERE "treatments"."deleted_at" is null and "treatments"."code" is not null;--> statement-breakpoint
CREATE INDEX "treatments_search_idx" ON "treatments" USING gin (odontia_clinic_search_keys("account_id", "search_text"));--> statement-breakpoint
CREATE INDEX "attendance_lines_budget_line_idx" ON "attendance_lines" USING btree ("account_id","budget_line_id") WHERE "attendance_lines"."budget_line_id" is not null and "attendance_lines"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "commercial_documents_sale_number_unique" ON "commercial_documents" USING btree ("account_id","point_of_service","document_type","sequence_number") WHERE "commercial_documents"."side" = 'sale' and "commercial_documents"."sequence_number" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "commercial_documents_chain_unique" ON "commercial_documents" USING btree ("account_id","point_of_service","chain_index") WHERE "commercial_documents"."side" = 'sale' and "commercial_documents"."chain_index" is not null;--> statement-breakpoint
CREATE INDEX "commercial_documents_customer_idx" ON "commercial_documents" USING btree ("account_id","customer_id","date" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "commercial_documents"."deleted_at" is null and "commercial_documents"."customer_id" is not null;--> statement-breakpoint
CREATE INDEX "commercial_documents_customer_open_idx" ON "commercial_documents" USING btree ("account_id","customer_id","due_date","id") WHERE "commercial_documents"."side" = 'sale' and "commercial_documents"."open_amount" <> 0 and "commercial_documents"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "commercial_documents_patient_idx" ON "commercial_documents" USING btree ("account_id","patient_id","date" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "commercial_documents"."deleted_at" is null and "commercial_documents"."patient_id" is not null;--> statement-breakpoint
CREATE INDEX "document_lines_attendance_idx" ON "document_lines" USING btree ("account_id","attendance_id") WHERE "document_lines"."attendance_id" is not null;--> statement-breakpoint
CREATE INDEX "document_lines_source_idx" ON "document_lines" USING btree ("account_id","source_line_id") WHERE "document_lines"."source_line_id" is not null;--> statement-breakpoint
CREATE INDEX "payments_customer_unallocated_idx" ON "payments" USING btree ("account_id","customer_id","date") WHERE "payments"."side" = 'customer' and "payments"."allocated_amount" < "payments"."amount" and "payments"."reversed_at" is null;--> statement-breakpoint
CREATE INDEX "payments_customer_idx" ON "payments" USING btree ("account_id","customer_id","date" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "payments"."customer_id" is not null;--> statement-breakpoint
ALTER TABLE "treatments" ADD CONSTRAINT "treatments_price" CHECK ("treatments"."price" >= 0 and "treatments"."vat_rate" between 0 and 100);--> statement-breakpoint
ALTER TABLE "commercial_documents" ADD CONSTRAINT "commercial_documents_customer" CHECK ("commercial_documents"."side" <> 'sale' or "commercial_documents"."customer_id" is not null);--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_customer" CHECK ("payments"."side" <> 'customer' or "payments"."customer_id" is not null);--> statement-breakpoint
-- Written by hand (docs/adding-a-domain.md §2): drizzle-kit writes none of what follows.
SELECT enable_tenant_rls('customers');
--> statement-breakpoint
SELECT enable_tenant_rls('sale_sequences');
--> statement-breakpoint
SELECT enable_tenant_rls('sale_chains');
--> statement-breakpoint
SELECT enable_tenant_rls('billed_sources');
--> statement-breakpoint
SELECT enable_tenant_rls('budget_decisions');
--> statement-breakpoint
SELECT enable_tenant_rls('einvoice_submissions');
--> statement-breakpoint
-- Customers are deactivated, never deleted; what was invoiced and a budget's answer are written once.
REVOKE DELETE, TRUNCATE ON customers, sale_sequences, sale_chains, einvoice_submissions FROM odontia_app, odontia_system;
--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON billed_sources, budget_decisions FROM odontia_app, odontia_system;
--> statement-breakpoint
-- The budget line an attendance line carries out (the schema cannot name it: commercial.ts imports clinical.ts).
ALTER TABLE "attendance_lines" ADD CONSTRAINT "attendance_lines_budget_line_fk" FOREIGN KEY ("account_id","budget_line_id") REFERENCES "public"."document_lines"("account_id","id");
--> statement-breakpoint
-- As 0017 for providers: the customers' aging is read from the open documents' index alone.
DROP INDEX IF EXISTS "commercial_documents_customer_open_idx";
--> statement-breakpoint
CREATE INDEX "commercial_documents_customer_open_idx" ON "commercial_documents" USING btree ("account_id","customer_id","due_date","id") INCLUDE ("open_amount","date") WHERE "commercial_documents"."side" = 'sale' and "commercial_documents"."open_amount" <> 0 and "commercial_documents"."deleted_at" is null;
--> statement-breakpoint
-- A patient's customer row carries the patient's name, e-mail and language: a rename shows in
-- the customers' current accounts at once, without the patients' service knowing about billing.
CREATE OR REPLACE FUNCTION odontia_patient_customer_sync() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF (NEW.first_name, NEW.last_name, NEW.email, NEW.language)
     IS DISTINCT FROM (OLD.first_name, OLD.last_name, OLD.email, OLD.language) THEN
    UPDATE customers
       SET name = NEW.last_name || ', ' || NEW.first_name,
           email = NEW.email,
           language = NEW.language,
           updated_at = now()
     WHERE account_id = NEW.account_id AND patient_id = NEW.id;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER patients_customer_sync AFTER UPDATE ON patients
  FOR EACH ROW EXECUTE FUNCTION odontia_patient_customer_sync();
