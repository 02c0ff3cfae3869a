CREATE TABLE "open_amount_changes" (
	"account_id" uuid NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "open_amount_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"side" text NOT NULL,
	"due_on" date NOT NULL,
	"owed" numeric(14, 2) NOT NULL,
	"credit" numeric(14, 2) NOT NULL,
	CONSTRAINT "open_amount_changes_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
CREATE TABLE "open_amounts_by_due" (
	"account_id" uuid NOT NULL,
	"side" text NOT NULL,
	"due_on" date NOT NULL,
	"owed" numeric(14, 2) DEFAULT '0' NOT NULL,
	"credit" numeric(14, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "open_amounts_by_due_account_id_side_due_on_pk" PRIMARY KEY("account_id","side","due_on")
);
--> statement-breakpoint
ALTER TABLE "open_amount_changes" ADD CONSTRAINT "open_amount_changes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "open_amounts_by_due" ADD CONSTRAINT "open_amounts_by_due_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Hand-written (drizzle-kit does not write these). Clinic tables: row-level security and grants;
-- money rows are never deleted by the app (the fold runs as the system role).
SELECT enable_tenant_rls('open_amounts_by_due');--> statement-breakpoint
SELECT enable_tenant_rls('open_amount_changes');--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON open_amounts_by_due FROM odontia_app;--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON open_amount_changes FROM odontia_app;--> statement-breakpoint
-- Each change of a document's open amount (issue, allocation, reversal, credit note applied,
-- deletion) is APPENDED as the difference it makes to its side and due date. Appending takes no
-- lock another writer waits on, so issues and collections stay as concurrent as before. A draft's
-- open amount is 0: it never counts.
CREATE OR REPLACE FUNCTION odontia_open_amount_change() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
DECLARE
  old_live boolean := TG_OP = 'UPDATE' AND OLD.open_amount <> 0 AND OLD.deleted_at IS NULL;
  new_live boolean := NEW.open_amount <> 0 AND NEW.deleted_at IS NULL;
  old_due date;
  new_due date := coalesce(NEW.due_date, NEW.date);
BEGIN
  IF old_live THEN
    old_due := coalesce(OLD.due_date, OLD.date);
  END IF;
  IF old_live AND new_live AND old_due = new_due AND OLD.side = NEW.side THEN
    IF OLD.open_amount <> NEW.open_amount THEN
      INSERT INTO open_amount_changes (account_id, side, due_on, owed, credit)
      VALUES (NEW.account_id, NEW.side, new_due,
        greatest(NEW.open_amount, 0) - greatest(OLD.open_amount, 0),
        greatest(-NEW.open_amount, 0) - greatest(-OLD.open_amount, 0));
    END IF;
    RETURN NULL;
  END IF;
  IF old_live THEN
    INSERT INTO open_amount_changes (account_id, side, due_on, owed, credit)
    VALUES (OLD.account_id, OLD.side, old_due, -greatest(OLD.open_amount, 0), -greatest(-OLD.open_amount, 0));
  END IF;
  IF new_live THEN
    INSERT INTO open_amount_changes (account_id, side, due_on, owed, credit)
    VALUES (NEW.account_id, NEW.side, new_due, greatest(NEW.open_amount, 0), greatest(-NEW.open_amount, 0));
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER commercial_documents_open_amounts
  AFTER INSERT OR UPDATE OF open_amount, due_date, date, side, deleted_at ON commercial_documents
  FOR EACH ROW EXECUTE FUNCTION odontia_open_amount_change();--> statement-breakpoint
-- What the clinics already have open.
INSERT INTO open_amounts_by_due (account_id, side, due_on, owed, credit)
SELECT account_id, side, coalesce(due_date, date),
  sum(greatest(open_amount, 0)), sum(greatest(-open_amount, 0))
FROM commercial_documents
WHERE open_amount <> 0 AND deleted_at IS NULL
GROUP BY 1, 2, 3;
