CREATE TABLE "payer_presentation_lines" (
	"account_id" uuid NOT NULL,
	"split_line_id" uuid NOT NULL,
	"presentation_id" uuid NOT NULL,
	"date" date NOT NULL,
	CONSTRAINT "payer_presentation_lines_account_id_date_split_line_id_pk" PRIMARY KEY("account_id","date","split_line_id")
);
--> statement-breakpoint
-- hand-written: the lines already presented move to the new table before their column goes.
INSERT INTO payer_presentation_lines (account_id, split_line_id, presentation_id, date)
  SELECT account_id, id, presentation_id, date FROM payer_split_lines WHERE presentation_id IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "payer_split_lines" DROP CONSTRAINT "payer_split_lines_account_id_presentation_id_payer_presentations_account_id_id_fk";
--> statement-breakpoint
DROP INDEX "payer_split_lines_unpresented_idx";--> statement-breakpoint
DROP INDEX "payer_split_lines_presentation_idx";--> statement-breakpoint
CREATE INDEX "payer_presentation_lines_presentation_idx" ON "payer_presentation_lines" USING btree ("account_id","presentation_id","date","split_line_id");--> statement-breakpoint
CREATE INDEX "payer_split_lines_presentable_idx" ON "payer_split_lines" USING btree ("account_id","payer_id","date","id") WHERE "payer_split_lines"."payer_document_id" is not null;--> statement-breakpoint
-- hand-written: the trigger that let presentation_id change only from null goes with the column.
DROP TRIGGER payer_split_lines_presented_once ON payer_split_lines;
--> statement-breakpoint
ALTER TABLE "payer_split_lines" DROP COLUMN "presentation_id";
--> statement-breakpoint
-- hand-written: row-level security; a presented line stays presented (never updated nor deleted);
-- the references of a build's lines (their split line, invoiced, of that date and of the
-- presentation's payer, and their presentation, both of the row's clinic) checked once per statement instead of
-- two foreign-key look-ups per row; a wrong one is refused like a foreign key (23503).
SELECT enable_tenant_rls('payer_presentation_lines');
--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON payer_presentation_lines FROM odontia_app, odontia_system;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION odontia_payer_presentation_lines_refs() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM new_lines l
    LEFT JOIN payer_presentations p ON p.account_id = l.account_id AND p.id = l.presentation_id
    WHERE p.id IS NULL OR NOT EXISTS (
      SELECT 1 FROM payer_split_lines s
      WHERE s.account_id = l.account_id AND s.payer_id = p.payer_id AND s.date = l.date AND s.id = l.split_line_id
        AND s.payer_document_id IS NOT NULL)
  ) THEN
    RAISE EXCEPTION 'a presented line must be a split line of its presentation''s payer and clinic'
      USING ERRCODE = '23503', HINT = 'payer_presentation_lines_refs';
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER payer_presentation_lines_refs AFTER INSERT ON payer_presentation_lines
  REFERENCING NEW TABLE AS new_lines
  FOR EACH STATEMENT EXECUTE FUNCTION odontia_payer_presentation_lines_refs();
