-- Names in Spanish order (issue 34): "Álvarez", "álvaro", "Gómez", "Gutiérrez", "Núñez", "Ñandú",
-- "Oliva" — not the byte order of the stored text ("Gutiérrez" before "Gómez", "Álvarez" last).
-- PGlite has no ICU and a server's collations vary by installation, so the lists sort by a key
-- compared byte by byte (collate "C"), the same on both: the name lower-cased without accents,
-- except ñ, which becomes "n~" ('~' sorts after every letter: "nz" < "ñ" < "o"). unaccent() is
-- only STABLE; naming its dictionary makes the wrapper safe to declare IMMUTABLE, as
-- odontia_search_text (0002), and so usable in the indexes below. lower() on the C collation:
-- the same letters on every installation, whatever its locale.
CREATE OR REPLACE FUNCTION odontia_sort_key(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, replace(replace(value, 'ñ', 'n~'), 'Ñ', 'n~')) COLLATE "C") $$;
--> statement-breakpoint
-- Every list sorted by a name walks an index built on that key (db/spanish-order.ts writes the
-- lists' ORDER BY with the same expression): the old name indexes are replaced. The patients keep
-- theirs in stored columns (backfilled here): their list and searches sort thousands of rows.
DROP INDEX "treatments_name_idx";--> statement-breakpoint
DROP INDEX "customers_name_idx";--> statement-breakpoint
DROP INDEX "providers_name_idx";--> statement-breakpoint
DROP INDEX "inventory_items_name_idx";--> statement-breakpoint
DROP INDEX "patients_name_idx";--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "last_name_key" text GENERATED ALWAYS AS (odontia_sort_key(last_name)) STORED;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "first_name_key" text GENERATED ALWAYS AS (odontia_sort_key(first_name)) STORED;--> statement-breakpoint
CREATE INDEX "users_name_idx" ON "users" USING btree ("account_id",odontia_sort_key("complete_name") collate "C","id");--> statement-breakpoint
CREATE INDEX "patients_first_name_idx" ON "patients" USING btree ("account_id","first_name_key" collate "C","last_name_key" collate "C","id") WHERE "patients"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "treatments_name_idx" ON "treatments" USING btree ("account_id",odontia_sort_key("name") collate "C","id") WHERE "treatments"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "customers_name_idx" ON "customers" USING btree ("account_id",odontia_sort_key("name") collate "C","id") WHERE "customers"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "providers_name_idx" ON "providers" USING btree ("account_id",odontia_sort_key("fantasy_name") collate "C","id") WHERE "providers"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "inventory_items_name_idx" ON "inventory_items" USING btree ("account_id","kind",odontia_sort_key("name") collate "C","id");--> statement-breakpoint
-- As 0006: INCLUDE (search_text, active), which drizzle-kit cannot express.
CREATE INDEX "patients_name_idx" ON "patients" USING btree ("account_id","last_name_key" collate "C","first_name_key" collate "C","id") INCLUDE ("search_text","active") WHERE "patients"."deleted_at" is null;