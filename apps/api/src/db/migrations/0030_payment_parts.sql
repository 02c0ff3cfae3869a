-- Issue 35, item 13: one collection split across methods (cash + card), one receipt. The parts
-- are a column of the row (the payment's figure trigger sees them at insert, and the guard of
-- migration 0016 keeps them final with the rest of the row). Written by hand around drizzle-kit's
-- ADD COLUMN: the column is filled from each row's method before it becomes NOT NULL.
ALTER TABLE "payments" ADD COLUMN "parts" jsonb;--> statement-breakpoint
-- Every payment so far is one part: its method, amount and operation number. The guard of final
-- payments is lifted for this one statement (nothing a payment says changes); the day figures'
-- trigger sees the same figures before and after (the figure function below is not yet in place).
ALTER TABLE payments DISABLE TRIGGER payments_final;--> statement-breakpoint
UPDATE payments SET parts = jsonb_build_array(jsonb_strip_nulls(jsonb_build_object(
  'method', method, 'amount', amount::text, 'transactionNumber', transaction_number)));--> statement-breakpoint
ALTER TABLE payments ENABLE TRIGGER payments_final;--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "parts" SET NOT NULL;--> statement-breakpoint
-- The bounds of the shared contract (`collectionPartsField`): one to ten parts, each a known
-- method and an amount above 0 within numeric(14,2), an operation number of at most 60
-- characters, and together exactly the payment's amount.
CREATE OR REPLACE FUNCTION odontia_payment_parts_ok(parts jsonb, total numeric) RETURNS boolean
  LANGUAGE sql IMMUTABLE
  AS $$
  SELECT CASE WHEN jsonb_typeof(parts) = 'array' THEN jsonb_array_length(parts) BETWEEN 1 AND 10 ELSE false END
    AND NOT EXISTS (
      SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(parts) = 'array' THEN parts ELSE '[]'::jsonb END) p(part)
      WHERE jsonb_typeof(p.part) <> 'object'
        OR coalesce(p.part ->> 'method', '') NOT IN ('bank_transfer', 'cash_payment', 'credit_card', 'debit_card', 'wallet', 'bank_deposit')
        -- A CASE, not OR alone: SQL does not promise to test the pattern before the cast.
        OR CASE WHEN coalesce(p.part ->> 'amount', '') ~ '^[0-9]{1,12}(\.[0-9]{1,2})?$'
             THEN (p.part ->> 'amount')::numeric <= 0 ELSE true END
        OR length(coalesce(p.part ->> 'transactionNumber', '')) > 60)
    AND (SELECT sum(CASE WHEN coalesce(p.part ->> 'amount', '') ~ '^[0-9]{1,12}(\.[0-9]{1,2})?$'
                         THEN (p.part ->> 'amount')::numeric END)
         FROM jsonb_array_elements(CASE WHEN jsonb_typeof(parts) = 'array' THEN parts ELSE '[]'::jsonb END) p(part)) = total
$$;--> statement-breakpoint
ALTER TABLE payments ADD CONSTRAINT payments_parts CHECK (odontia_payment_parts_ok(parts, amount));--> statement-breakpoint
-- Collections and payments by method: each part under its own method (a split collection counts
-- once under each of its methods), none once reversed or while pending.
CREATE OR REPLACE FUNCTION odontia_payment_figures(y payments)
  RETURNS TABLE (figure text, key text, day date, amount numeric, count integer)
  LANGUAGE sql STABLE
  AS $$
  SELECT CASE y.side WHEN 'customer' THEN 'collected' ELSE 'paid_out' END, p.part ->> 'method', y.date,
    sum((p.part ->> 'amount')::numeric), 1
  FROM jsonb_array_elements(CASE WHEN y.id IS NULL THEN '[]'::jsonb ELSE y.parts END) AS p(part)
  WHERE y.id IS NOT NULL AND y.deleted_at IS NULL AND y.reversed_at IS NULL AND y.status = 'paid'
  GROUP BY p.part ->> 'method'
$$;
