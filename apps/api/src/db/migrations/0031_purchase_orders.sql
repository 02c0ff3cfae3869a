CREATE TABLE "purchase_order_sends" (
	"account_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"sent_to" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_by" uuid NOT NULL,
	CONSTRAINT "purchase_order_sends_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
ALTER TABLE "commercial_documents" ADD COLUMN "delivery_date" date;--> statement-breakpoint
ALTER TABLE "purchase_order_sends" ADD CONSTRAINT "purchase_order_sends_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_order_sends" ADD CONSTRAINT "purchase_order_sends_account_id_document_id_commercial_documents_account_id_id_fk" FOREIGN KEY ("account_id","document_id") REFERENCES "public"."commercial_documents"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_order_sends" ADD CONSTRAINT "purchase_order_sends_account_id_sent_by_users_account_id_id_fk" FOREIGN KEY ("account_id","sent_by") REFERENCES "public"."users"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "purchase_order_sends_document_idx" ON "purchase_order_sends" USING btree ("account_id","document_id","sent_at");--> statement-breakpoint
CREATE UNIQUE INDEX "commercial_documents_purchase_order_number_unique" ON "commercial_documents" USING btree ("account_id","sequence_number") WHERE "commercial_documents"."side" = 'purchase' and "commercial_documents"."document_type" = 'purchase_order' and "commercial_documents"."sequence_number" is not null;--> statement-breakpoint
-- Hand-written (drizzle-kit does not write these): row-level security, forced, the clinic's policy and the app roles' grants.
SELECT enable_tenant_rls('purchase_order_sends');--> statement-breakpoint
-- A sending is a fact: never changed nor removed.
REVOKE UPDATE, DELETE, TRUNCATE ON purchase_order_sends FROM odontia_app, odontia_system;--> statement-breakpoint
-- Issue 35: a line's source is, on the sales side, a line of an issued, accepted budget of the
-- same customer (0028); on the purchase side, a line of a registered purchase order of the same
-- provider, received by a delivery note or an invoice. The key says "of this clinic", this
-- trigger the rest; the services say it first with a clear code.
CREATE OR REPLACE FUNCTION odontia_check_source_line() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF NEW.source_line_id IS NULL THEN
    RETURN NEW;
  END IF;
  IF NOT EXISTS (
    SELECT 1
    FROM document_lines s
    JOIN commercial_documents b ON b.account_id = s.account_id AND b.id = s.document_id
    JOIN commercial_documents d ON d.account_id = NEW.account_id AND d.id = NEW.document_id
    JOIN budget_decisions a ON a.account_id = b.account_id AND a.document_id = b.id AND a.decision = 'accepted'
    WHERE s.account_id = NEW.account_id AND s.id = NEW.source_line_id
      AND b.side = 'sale' AND b.document_type = 'budget' AND b.status = 'issued' AND b.deleted_at IS NULL
      AND d.side = 'sale' AND d.customer_id = b.customer_id
  ) AND NOT EXISTS (
    SELECT 1
    FROM document_lines s
    JOIN commercial_documents o ON o.account_id = s.account_id AND o.id = s.document_id
    JOIN commercial_documents d ON d.account_id = NEW.account_id AND d.id = NEW.document_id
    WHERE s.account_id = NEW.account_id AND s.id = NEW.source_line_id
      AND o.side = 'purchase' AND o.document_type = 'purchase_order' AND o.status = 'registered'
      AND o.deleted_at IS NULL
      AND d.side = 'purchase' AND d.document_type IN ('delivery_note', 'invoice') AND d.provider_id = o.provider_id
  ) THEN
    RAISE EXCEPTION 'source line % is not a line of an accepted budget of the same customer nor of a registered order of the same provider', NEW.source_line_id
      USING ERRCODE = '23503', CONSTRAINT = 'document_lines_source_line_fk';
  END IF;
  RETURN NEW;
END
$$;
