CREATE TABLE "clinic_logos" (
	"account_id" uuid NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"sha256" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	CONSTRAINT "clinic_logos_account_id_pk" PRIMARY KEY("account_id")
);
--> statement-breakpoint
CREATE TABLE "commercial_documents" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"side" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"document_type" text NOT NULL,
	"provider_id" uuid,
	"patient_id" uuid,
	"point_of_service" text,
	"document_number" text,
	"date" date NOT NULL,
	"due_date" date,
	"currency" text NOT NULL,
	"condition_sale" text,
	"payment_method" text,
	"notes" text,
	"related_document_id" uuid,
	"returns_goods" boolean DEFAULT false NOT NULL,
	"moved_stock" boolean DEFAULT false NOT NULL,
	"subtotal1" numeric(14, 2) DEFAULT '0' NOT NULL,
	"discount_total" numeric(14, 2) DEFAULT '0' NOT NULL,
	"subtotal2" numeric(14, 2) DEFAULT '0' NOT NULL,
	"vat_total" numeric(14, 2) DEFAULT '0' NOT NULL,
	"total" numeric(14, 2) DEFAULT '0' NOT NULL,
	"vat_breakdown" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"open_amount" numeric(14, 2) DEFAULT '0' NOT NULL,
	"issuer_snapshot" jsonb,
	"counterparty_snapshot" jsonb,
	"registered_at" timestamp with time zone,
	"registered_by" uuid,
	"search_text" text GENERATED ALWAYS AS (odontia_search_text(point_of_service, document_number, counterparty_snapshot ->> 'name', counterparty_snapshot ->> 'taxId', notes)) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "commercial_documents_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "commercial_documents_party" CHECK ("commercial_documents"."side" <> 'purchase' or "commercial_documents"."provider_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "document_lines" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"item_id" uuid,
	"description" text NOT NULL,
	"sku_provider" text,
	"quantity" numeric(12, 2) NOT NULL,
	"unit_price" numeric(14, 2) NOT NULL,
	"discount_rate" numeric(5, 2) DEFAULT '0' NOT NULL,
	"vat_rate" numeric(5, 2) NOT NULL,
	"subtotal1" numeric(14, 2) NOT NULL,
	"discount" numeric(14, 2) NOT NULL,
	"subtotal" numeric(14, 2) NOT NULL,
	"vat" numeric(14, 2) NOT NULL,
	"total" numeric(14, 2) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_lines_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "document_lines_amounts" CHECK ("document_lines"."quantity" > 0 and "document_lines"."unit_price" >= 0),
	CONSTRAINT "document_lines_rates" CHECK ("document_lines"."discount_rate" between 0 and 100 and "document_lines"."vat_rate" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"account_id" uuid NOT NULL,
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status_code" integer,
	"answer" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_account_id_scope_key_pk" PRIMARY KEY("account_id","scope","key")
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"party_kind" text NOT NULL,
	"party_id" uuid NOT NULL,
	"date" date NOT NULL,
	"kind" text NOT NULL,
	"document_id" uuid,
	"payment_id" uuid,
	"description" text NOT NULL,
	"debit" numeric(14, 2) DEFAULT '0' NOT NULL,
	"credit" numeric(14, 2) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	CONSTRAINT "ledger_entries_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "ledger_entries_amounts" CHECK ("ledger_entries"."debit" >= 0 and "ledger_entries"."credit" >= 0)
);
--> statement-breakpoint
CREATE TABLE "party_balances" (
	"account_id" uuid NOT NULL,
	"party_kind" text NOT NULL,
	"party_id" uuid NOT NULL,
	"debits" numeric(14, 2) DEFAULT '0' NOT NULL,
	"credits" numeric(14, 2) DEFAULT '0' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "party_balances_account_id_party_kind_party_id_pk" PRIMARY KEY("account_id","party_kind","party_id")
);
--> statement-breakpoint
CREATE TABLE "payment_allocations" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"payment_id" uuid,
	"credit_document_id" uuid,
	"document_id" uuid NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"reversed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	CONSTRAINT "payment_allocations_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "payment_allocations_amount" CHECK ("payment_allocations"."amount" > 0),
	CONSTRAINT "payment_allocations_source" CHECK (("payment_allocations"."payment_id" is null) <> ("payment_allocations"."credit_document_id" is null))
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"side" text NOT NULL,
	"number" text NOT NULL,
	"provider_id" uuid,
	"patient_id" uuid,
	"date" date NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"currency" text NOT NULL,
	"method" text NOT NULL,
	"transaction_number" text,
	"notes" text,
	"status" text NOT NULL,
	"paid_on" date,
	"allocated_amount" numeric(14, 2) DEFAULT '0' NOT NULL,
	"counterparty_snapshot" jsonb,
	"reversed_at" timestamp with time zone,
	"reversed_by" uuid,
	"reversal_reason" text,
	"search_text" text GENERATED ALWAYS AS (odontia_search_text(number, transaction_number, counterparty_snapshot ->> 'name', notes)) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "payments_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "payments_amounts" CHECK ("payments"."amount" > 0 and "payments"."allocated_amount" between 0 and "payments"."amount"),
	CONSTRAINT "payments_party" CHECK ("payments"."side" <> 'provider' or "payments"."provider_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "points_of_sale" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "points_of_sale_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "points_of_sale_code" CHECK ("points_of_sale"."code" ~ '^[0-9]{4,5}$')
);
--> statement-breakpoint
CREATE TABLE "provider_items" (
	"account_id" uuid NOT NULL,
	"provider_id" uuid NOT NULL,
	"sku_key" text NOT NULL,
	"sku" text NOT NULL,
	"item_id" uuid NOT NULL,
	"last_unit_cost" numeric(14, 2),
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_items_account_id_provider_id_sku_key_pk" PRIMARY KEY("account_id","provider_id","sku_key")
);
--> statement-breakpoint
CREATE TABLE "providers" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"nif" text,
	"tax_id_kind" text,
	"tax_id_key" text GENERATED ALWAYS AS (nullif(upper(regexp_replace(nif, '[^0-9A-Za-z]', '', 'g')), '')) STORED,
	"fantasy_name" text NOT NULL,
	"bussines_name" text,
	"company_name" text,
	"fiscal_condition" text,
	"bank_name" text,
	"bank_account" text,
	"bank_key" text,
	"currency" text NOT NULL,
	"contact_name" text,
	"commercial_address" text,
	"phone_area_bussines" text,
	"phone_business" text,
	"phone_mobile" text,
	"email" text,
	"payment_term_days" integer DEFAULT 30 NOT NULL,
	"notes" text,
	"active" boolean DEFAULT true NOT NULL,
	"search_text" text GENERATED ALWAYS AS (odontia_search_text(fantasy_name, bussines_name, company_name, nif, contact_name)) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "providers_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "providers_payment_term" CHECK ("providers"."payment_term_days" between 0 and 365)
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "legal_name" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "trade_name" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "country" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "tax_id_kind" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "tax_id" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "fiscal_condition" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "city" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "province" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "postal_code" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "phone_mobile" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "website" text;--> statement-breakpoint
ALTER TABLE "inventory_items" ADD COLUMN "last_cost" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "inventory_items" ADD COLUMN "average_cost" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "clinic_logos" ADD CONSTRAINT "clinic_logos_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinic_logos" ADD CONSTRAINT "clinic_logos_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commercial_documents" ADD CONSTRAINT "commercial_documents_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commercial_documents" ADD CONSTRAINT "commercial_documents_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commercial_documents" ADD CONSTRAINT "commercial_documents_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commercial_documents" ADD CONSTRAINT "commercial_documents_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commercial_documents" ADD CONSTRAINT "commercial_documents_account_id_registered_by_users_account_id_id_fk" FOREIGN KEY ("account_id","registered_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commercial_documents" ADD CONSTRAINT "commercial_documents_account_id_provider_id_providers_account_id_id_fk" FOREIGN KEY ("account_id","provider_id") REFERENCES "public"."providers"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commercial_documents" ADD CONSTRAINT "commercial_documents_account_id_patient_id_patients_account_id_id_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commercial_documents" ADD CONSTRAINT "commercial_documents_related_fk" FOREIGN KEY ("account_id","related_document_id") REFERENCES "public"."commercial_documents"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_lines" ADD CONSTRAINT "document_lines_account_id_document_id_commercial_documents_account_id_id_fk" FOREIGN KEY ("account_id","document_id") REFERENCES "public"."commercial_documents"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_lines" ADD CONSTRAINT "document_lines_account_id_item_id_inventory_items_account_id_id_fk" FOREIGN KEY ("account_id","item_id") REFERENCES "public"."inventory_items"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_id_document_id_commercial_documents_account_id_id_fk" FOREIGN KEY ("account_id","document_id") REFERENCES "public"."commercial_documents"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_id_payment_id_payments_account_id_id_fk" FOREIGN KEY ("account_id","payment_id") REFERENCES "public"."payments"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "party_balances" ADD CONSTRAINT "party_balances_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_account_id_payment_id_payments_account_id_id_fk" FOREIGN KEY ("account_id","payment_id") REFERENCES "public"."payments"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_account_id_credit_document_id_commercial_documents_account_id_id_fk" FOREIGN KEY ("account_id","credit_document_id") REFERENCES "public"."commercial_documents"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_account_id_document_id_commercial_documents_account_id_id_fk" FOREIGN KEY ("account_id","document_id") REFERENCES "public"."commercial_documents"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_account_id_reversed_by_users_account_id_id_fk" FOREIGN KEY ("account_id","reversed_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_account_id_provider_id_providers_account_id_id_fk" FOREIGN KEY ("account_id","provider_id") REFERENCES "public"."providers"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_of_sale" ADD CONSTRAINT "points_of_sale_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_of_sale" ADD CONSTRAINT "points_of_sale_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_of_sale" ADD CONSTRAINT "points_of_sale_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_of_sale" ADD CONSTRAINT "points_of_sale_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_items" ADD CONSTRAINT "provider_items_account_id_provider_id_providers_account_id_id_fk" FOREIGN KEY ("account_id","provider_id") REFERENCES "public"."providers"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_items" ADD CONSTRAINT "provider_items_account_id_item_id_inventory_items_account_id_id_fk" FOREIGN KEY ("account_id","item_id") REFERENCES "public"."inventory_items"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "providers" ADD CONSTRAINT "providers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "providers" ADD CONSTRAINT "providers_account_id_created_by_users_account_id_id_fk" FOREIGN KEY ("account_id","created_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "providers" ADD CONSTRAINT "providers_account_id_updated_by_users_account_id_id_fk" FOREIGN KEY ("account_id","updated_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "providers" ADD CONSTRAINT "providers_account_id_deleted_by_users_account_id_id_fk" FOREIGN KEY ("account_id","deleted_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "commercial_documents_purchase_number_unique" ON "commercial_documents" USING btree ("account_id","provider_id","document_type","point_of_service","document_number") WHERE "commercial_documents"."side" = 'purchase' and "commercial_documents"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "commercial_documents_list_idx" ON "commercial_documents" USING btree ("account_id","side","date" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "commercial_documents"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "commercial_documents_provider_idx" ON "commercial_documents" USING btree ("account_id","provider_id","date" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "commercial_documents"."deleted_at" is null and "commercial_documents"."provider_id" is not null;--> statement-breakpoint
CREATE INDEX "commercial_documents_open_idx" ON "commercial_documents" USING btree ("account_id","side","provider_id","due_date","id") WHERE "commercial_documents"."open_amount" <> 0 and "commercial_documents"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "commercial_documents_related_idx" ON "commercial_documents" USING btree ("account_id","related_document_id") WHERE "commercial_documents"."related_document_id" is not null;--> statement-breakpoint
CREATE INDEX "commercial_documents_search_idx" ON "commercial_documents" USING gin (odontia_clinic_search_keys("account_id", "search_text"));--> statement-breakpoint
CREATE INDEX "document_lines_document_idx" ON "document_lines" USING btree ("account_id","document_id","position");--> statement-breakpoint
CREATE INDEX "idempotency_keys_age_idx" ON "idempotency_keys" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "ledger_entries_party_idx" ON "ledger_entries" USING btree ("account_id","party_kind","party_id","date","id");--> statement-breakpoint
CREATE INDEX "payment_allocations_payment_idx" ON "payment_allocations" USING btree ("account_id","payment_id");--> statement-breakpoint
CREATE INDEX "payment_allocations_document_idx" ON "payment_allocations" USING btree ("account_id","document_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_number_unique" ON "payments" USING btree ("account_id","side","number");--> statement-breakpoint
CREATE INDEX "payments_list_idx" ON "payments" USING btree ("account_id","side","date" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "payments"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "payments_provider_idx" ON "payments" USING btree ("account_id","provider_id","date" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "payments"."provider_id" is not null;--> statement-breakpoint
CREATE INDEX "payments_unallocated_idx" ON "payments" USING btree ("account_id","side","provider_id","date") WHERE "payments"."allocated_amount" < "payments"."amount" and "payments"."reversed_at" is null;--> statement-breakpoint
CREATE INDEX "payments_search_idx" ON "payments" USING gin (odontia_clinic_search_keys("account_id", "search_text"));--> statement-breakpoint
CREATE UNIQUE INDEX "points_of_sale_code_unique" ON "points_of_sale" USING btree ("account_id","code") WHERE "points_of_sale"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "provider_items_item_idx" ON "provider_items" USING btree ("account_id","item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "providers_tax_id_unique" ON "providers" USING btree ("account_id","tax_id_key") WHERE "providers"."deleted_at" is null and "providers"."tax_id_key" is not null;--> statement-breakpoint
CREATE INDEX "providers_name_idx" ON "providers" USING btree ("account_id",lower("fantasy_name"),"id") WHERE "providers"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "providers_search_idx" ON "providers" USING gin (odontia_clinic_search_keys("account_id", "search_text"));--> statement-breakpoint
-- Written by hand (docs/adding-a-domain.md §2): drizzle-kit writes none of it.
-- Row-level security with the clinic's policy on every new table.
SELECT enable_tenant_rls('clinic_logos');
--> statement-breakpoint
SELECT enable_tenant_rls('points_of_sale');
--> statement-breakpoint
SELECT enable_tenant_rls('providers');
--> statement-breakpoint
SELECT enable_tenant_rls('provider_items');
--> statement-breakpoint
SELECT enable_tenant_rls('commercial_documents');
--> statement-breakpoint
SELECT enable_tenant_rls('document_lines');
--> statement-breakpoint
SELECT enable_tenant_rls('payments');
--> statement-breakpoint
SELECT enable_tenant_rls('payment_allocations');
--> statement-breakpoint
SELECT enable_tenant_rls('ledger_entries');
--> statement-breakpoint
SELECT enable_tenant_rls('party_balances');
--> statement-breakpoint
SELECT enable_tenant_rls('idempotency_keys');
--> statement-breakpoint
-- Financial rows are never physically deleted; the ledger is never changed either. A draft's
-- lines are replaced while it is a draft (the trigger below refuses it once registered).
REVOKE DELETE, TRUNCATE ON points_of_sale, providers, commercial_documents, payments, payment_allocations FROM odontia_app, odontia_system;
--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON ledger_entries FROM odontia_app, odontia_system;
--> statement-breakpoint
-- A registered (purchase) or issued (sale) document is final (ARCHITECTURE §4): only what
-- allocations change (open_amount) and the stamps that go with it may move. `search_text` is
-- left out: a BEFORE trigger sees a stored generated column as NULL in NEW (it is computed after).
CREATE OR REPLACE FUNCTION odontia_final_document_guard() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF OLD.status <> 'draft' AND (
    to_jsonb(NEW) - ARRAY['open_amount', 'version', 'updated_at', 'updated_by', 'search_text']
  ) IS DISTINCT FROM (
    to_jsonb(OLD) - ARRAY['open_amount', 'version', 'updated_at', 'updated_by', 'search_text']
  ) THEN
    RAISE EXCEPTION 'commercial document % is %: it is never changed', OLD.id, OLD.status
      USING ERRCODE = 'P0001', HINT = 'document_final';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER commercial_documents_final BEFORE UPDATE ON commercial_documents
  FOR EACH ROW EXECUTE FUNCTION odontia_final_document_guard();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION odontia_final_lines_guard() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
DECLARE
  row_document uuid := coalesce(NEW.document_id, OLD.document_id);
  row_account uuid := coalesce(NEW.account_id, OLD.account_id);
BEGIN
  IF EXISTS (
    SELECT 1 FROM commercial_documents d
    WHERE d.account_id = row_account AND d.id = row_document AND d.status <> 'draft'
  ) THEN
    RAISE EXCEPTION 'the lines of commercial document % are final', row_document
      USING ERRCODE = 'P0001', HINT = 'document_final';
  END IF;
  RETURN coalesce(NEW, OLD);
END
$$;
--> statement-breakpoint
CREATE TRIGGER document_lines_final BEFORE INSERT OR UPDATE OR DELETE ON document_lines
  FOR EACH ROW EXECUTE FUNCTION odontia_final_lines_guard();
--> statement-breakpoint
-- A payment is never edited: pending → paid, the allocation of its remainder and its reversal
-- are the only changes, and a reversal is never undone.
CREATE OR REPLACE FUNCTION odontia_payment_guard() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF (
    to_jsonb(NEW) - ARRAY['status', 'paid_on', 'allocated_amount', 'reversed_at', 'reversed_by', 'reversal_reason', 'version', 'updated_at', 'updated_by', 'search_text']
  ) IS DISTINCT FROM (
    to_jsonb(OLD) - ARRAY['status', 'paid_on', 'allocated_amount', 'reversed_at', 'reversed_by', 'reversal_reason', 'version', 'updated_at', 'updated_by', 'search_text']
  ) OR (OLD.reversed_at IS NOT NULL AND NEW.reversed_at IS DISTINCT FROM OLD.reversed_at)
    OR (OLD.status = 'paid' AND NEW.status <> 'paid') THEN
    RAISE EXCEPTION 'payment % is never edited', OLD.id USING ERRCODE = 'P0001', HINT = 'payment_final';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER payments_final BEFORE UPDATE ON payments
  FOR EACH ROW EXECUTE FUNCTION odontia_payment_guard();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION odontia_allocation_guard() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF (to_jsonb(NEW) - 'reversed_at') IS DISTINCT FROM (to_jsonb(OLD) - 'reversed_at') OR OLD.reversed_at IS NOT NULL THEN
    RAISE EXCEPTION 'allocation % is never edited', OLD.id USING ERRCODE = 'P0001', HINT = 'allocation_final';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER payment_allocations_final BEFORE UPDATE ON payment_allocations
  FOR EACH ROW EXECUTE FUNCTION odontia_allocation_guard();
