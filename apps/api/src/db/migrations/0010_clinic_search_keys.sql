-- Search as you type keyed by clinic (issue 21). The trigram indexes over search_text alone held
-- every clinic's rows under each trigram, so a clinic's search read (and the bitmap fetched) the
-- matches of the whole installation before the clinic filter: 3-7x slower among 300 clinics.
-- Each key is now a trigram of search_text hashed with the clinic as the seed, so the list of a
-- key holds one clinic's rows and a search's cost depends on that clinic's data only
-- (docs/decisions.md, "A clinic among 500"). Every row also carries the clinic's empty key, which
-- a query without any trigram asks for (it then reads the clinic's rows, never the others').
-- LIKE over search_text stays as the exact check of every row the index returns.
CREATE OR REPLACE FUNCTION odontia_clinic_search_keys(account uuid, search_text text) RETURNS bigint[]
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
  AS $$
DECLARE
  seed bigint := hashtext(account::text);
  keys bigint[] := ARRAY[hashtextextended('', seed)];
BEGIN
  FOR i IN 1 .. coalesce(length(search_text), 0) - 2 LOOP
    keys := keys || hashtextextended(substr(search_text, i, 3), seed);
  END LOOP;
  RETURN keys;
END
$$;
--> statement-breakpoint
-- The keys a search asks for: every trigram of every word (already through odontia_search_text);
-- the clinic's empty key when no word has three characters.
CREATE OR REPLACE FUNCTION odontia_clinic_search_query(account uuid, words text[]) RETURNS bigint[]
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
  AS $$
DECLARE
  seed bigint := hashtext(account::text);
  keys bigint[] := '{}';
  word text;
BEGIN
  FOREACH word IN ARRAY coalesce(words, '{}') LOOP
    FOR i IN 1 .. coalesce(length(word), 0) - 2 LOOP
      keys := keys || hashtextextended(substr(word, i, 3), seed);
    END LOOP;
  END LOOP;
  IF cardinality(keys) = 0 THEN
    keys := ARRAY[hashtextextended('', seed)];
  END IF;
  RETURN keys;
END
$$;
--> statement-breakpoint
DROP INDEX "inventory_items_search_idx";--> statement-breakpoint
DROP INDEX "patients_search_idx";--> statement-breakpoint
CREATE INDEX "inventory_items_search_idx" ON "inventory_items" USING gin (odontia_clinic_search_keys("account_id", "search_text"));--> statement-breakpoint
CREATE INDEX "patients_search_idx" ON "patients" USING gin (odontia_clinic_search_keys("account_id", "search_text"));
