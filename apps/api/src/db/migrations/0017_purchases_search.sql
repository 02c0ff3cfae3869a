ALTER TABLE "commercial_documents" drop column "search_text";--> statement-breakpoint
ALTER TABLE "commercial_documents" ADD COLUMN "search_text" text GENERATED ALWAYS AS (odontia_search_text(point_of_service, document_number, issuer_snapshot ->> 'name', issuer_snapshot ->> 'taxId', counterparty_snapshot ->> 'name', counterparty_snapshot ->> 'taxId', notes)) STORED;--> statement-breakpoint
-- Hand-written: dropping the column dropped its search index; the same index again (0016).
-- A purchase's issuer is the provider (its name and tax id are searched); a sale's counterparty is the customer.
CREATE INDEX "commercial_documents_search_idx" ON "commercial_documents" USING gin (odontia_clinic_search_keys("account_id", "search_text"));
--> statement-breakpoint
-- Hand-written: the open documents' index also carries what aging sums (open_amount and the
-- dates), so the providers' current accounts read their aging from the index alone (an
-- index-only scan of the open documents) instead of the clinic's whole history: with 200,000
-- documents of which 30,000 open, the planner chose a sequential scan (80 ms) over the
-- partial index. drizzle-kit cannot express INCLUDE; the schema keeps the key columns.
DROP INDEX IF EXISTS "commercial_documents_open_idx";
--> statement-breakpoint
CREATE INDEX "commercial_documents_open_idx" ON "commercial_documents" USING btree ("account_id","side","provider_id","due_date","id") INCLUDE ("open_amount","date") WHERE "commercial_documents"."open_amount" <> 0 and "commercial_documents"."deleted_at" is null;
