-- Issue 35: money in the clinic's currency only, budget lines billed by their customer, a day's
-- figures that cannot overflow and fold clinic by clinic, and issued sales dated in number order.
-- The three keys are NOT VALID: rows written before this migration are not re-checked (an issued
-- document cannot be changed anyway); every new or changed row is, and the clinic's currency can
-- no longer change under any of its documents or payments.
CREATE TABLE "day_figure_folds" (
	"account_id" uuid NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"retry_at" timestamp with time zone NOT NULL,
	"last_error" text,
	"failed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "day_figure_folds_account_id_pk" PRIMARY KEY("account_id")
);
--> statement-breakpoint
ALTER TABLE "day_figure_changes" ALTER COLUMN "amount" SET DATA TYPE numeric(20, 2);--> statement-breakpoint
ALTER TABLE "day_figures" ALTER COLUMN "amount" SET DATA TYPE numeric(20, 2);--> statement-breakpoint
ALTER TABLE "day_figures" ALTER COLUMN "amount" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "sale_sequences" ADD COLUMN "last_date" date;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_id_currency_unique" UNIQUE("id","system_currency");--> statement-breakpoint
ALTER TABLE "day_figure_folds" ADD CONSTRAINT "day_figure_folds_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commercial_documents" ADD CONSTRAINT "commercial_documents_currency_fk" FOREIGN KEY ("account_id","currency") REFERENCES "public"."accounts"("id","system_currency") ON DELETE no action ON UPDATE no action NOT VALID;--> statement-breakpoint
ALTER TABLE "document_lines" ADD CONSTRAINT "document_lines_source_line_fk" FOREIGN KEY ("account_id","source_line_id") REFERENCES "public"."document_lines"("account_id","id") ON DELETE no action ON UPDATE no action NOT VALID;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_currency_fk" FOREIGN KEY ("account_id","currency") REFERENCES "public"."accounts"("id","system_currency") ON DELETE no action ON UPDATE no action NOT VALID;--> statement-breakpoint
-- Hand-written (drizzle-kit does not write these):
SELECT enable_tenant_rls('day_figure_folds');--> statement-breakpoint
-- The series' last issued date, from the sales issued so far: an issue dated earlier is refused.
UPDATE sale_sequences q SET last_date = d.last_date
  FROM (SELECT account_id, point_of_service, document_type, max(date) AS last_date
        FROM commercial_documents WHERE side = 'sale' AND status = 'issued' AND point_of_service IS NOT NULL
        GROUP BY account_id, point_of_service, document_type) d
  WHERE q.account_id = d.account_id AND q.point_of_service = d.point_of_service AND q.document_type = d.document_type;--> statement-breakpoint
-- A sale line's source (a budget line) must be a line of an issued, accepted budget of the same
-- customer: the key above says "of this clinic", this trigger the rest. The service says it first
-- with a clear code; this is for whatever writes around it.
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
  ) THEN
    RAISE EXCEPTION 'source line % is not a line of an accepted budget of the same customer', NEW.source_line_id
      USING ERRCODE = '23503', CONSTRAINT = 'document_lines_source_line_fk';
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER document_lines_source_line BEFORE INSERT OR UPDATE OF source_line_id, document_id ON document_lines
  FOR EACH ROW EXECUTE FUNCTION odontia_check_source_line();
