ALTER TABLE "commercial_documents" drop column "search_text";--> statement-breakpoint
ALTER TABLE "commercial_documents" ADD COLUMN "search_text" text GENERATED ALWAYS AS (odontia_search_text(point_of_service, document_number, issuer_snapshot ->> 'name', issuer_snapshot ->> 'taxId', counterparty_snapshot ->> 'name', counterparty_snapshot ->> 'taxId', notes)) STORED;--> statement-breakpoint
-- Hand-written: dropping the column dropped its search index; the same index again (0016).
-- A purchase's issuer is the provider (its name and tax id are searched); a sale's counterparty is the customer.
CREATE INDEX "commercial_documents_search_idx" ON "commercial_documents" USING gin (odontia_clinic_search_keys("account_id", "search_text"));
--> statement-breakpoint
-- Hand-written: a BEFORE UPDATE trigger sees NEW's stored generated columns as NULL (they are
-- computed after it), so the guards of 0016 took every allocation on a registered document or a
-- payment for a change of `search_text` and refused it. They compare without that column now (it
-- is derived from the others, which they still compare).
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
