ALTER TABLE "settlement_lines" DROP CONSTRAINT "settlement_lines_account_id_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "settlement_lines" DROP CONSTRAINT "settlement_lines_account_id_settlement_id_settlements_account_id_id_fk";
--> statement-breakpoint
-- hand-written: a settlement's lines are written by the hundred thousand in one statement, so
-- their clinic and settlement are checked once per statement (one anti-join over the statement's
-- new rows) instead of two foreign-key lookups per row. A line whose (account_id, settlement_id) is
-- not a settlement is refused like a foreign key (23503); the settlement is never updated nor
-- deleted (trigger settlements_final, revoked grants), so the reference stays valid afterwards.
CREATE OR REPLACE FUNCTION odontia_settlement_lines_refs() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM (SELECT DISTINCT account_id, settlement_id FROM new_lines) l
    WHERE NOT EXISTS (SELECT 1 FROM settlements s WHERE s.account_id = l.account_id AND s.id = l.settlement_id)
  ) THEN
    RAISE EXCEPTION 'a settlement line must belong to a settlement of its clinic'
      USING ERRCODE = '23503', HINT = 'settlement_lines_settlement';
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER settlement_lines_refs AFTER INSERT ON settlement_lines
  REFERENCING NEW TABLE AS new_lines
  FOR EACH STATEMENT EXECUTE FUNCTION odontia_settlement_lines_refs();
