-- The customers' and the providers' names in Spanish order, kept on write as the patients' are
-- (0027): the current accounts sort every party of the clinic by balance or by overdue with the
-- name as the tie-break, and computing odontia_sort_key for 20,000 names took ~30 ms a request.
DROP INDEX "customers_name_idx";--> statement-breakpoint
DROP INDEX "providers_name_idx";--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "name_key" text GENERATED ALWAYS AS (odontia_sort_key(name)) STORED;--> statement-breakpoint
ALTER TABLE "providers" ADD COLUMN "name_key" text GENERATED ALWAYS AS (odontia_sort_key(fantasy_name)) STORED;--> statement-breakpoint
CREATE INDEX "customers_name_idx" ON "customers" USING btree ("account_id","name_key" collate "C","id") WHERE "customers"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "providers_name_idx" ON "providers" USING btree ("account_id","name_key" collate "C","id") WHERE "providers"."deleted_at" is null;