-- The patients' name index also carries the search key and the active flag, so a search that
-- matches thousands of patients reads its first page in name order from the index alone
-- (an index-only scan that filters as it walks) instead of fetching and sorting every match.
-- drizzle-kit cannot express INCLUDE; the schema keeps the index's key columns.
DROP INDEX IF EXISTS "patients_name_idx";
--> statement-breakpoint
CREATE INDEX "patients_name_idx" ON "patients" USING btree ("account_id","last_name","first_name","id") INCLUDE ("search_text","active") WHERE "patients"."deleted_at" is null;
