-- A posting's entry and account are checked once per inserting statement instead of by two foreign
-- keys. A foreign key runs a lookup per row and locks the row it finds (FOR KEY SHARE): on an entry
-- the same statement has just written, that lock is one more write and WAL record per posting. The
-- ledger writes its postings a batch per statement, so one query over the statement's new rows does
-- the same check for all of them.
ALTER TABLE "postings" DROP CONSTRAINT "postings_entry_id_journal_entries_id_fk";--> statement-breakpoint
ALTER TABLE "postings" DROP CONSTRAINT "postings_account_id_ledger_accounts_id_fk";--> statement-breakpoint
-- Each id is looked up through its primary key by a scalar subquery, which the planner never turns
-- into a join: a join planned while the statement's rows were few and kept by the function could
-- scan all of journal_entries.
CREATE FUNCTION "postings_references_exist"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM new_postings p
    WHERE (SELECT e.id FROM journal_entries e WHERE e.id = p.entry_id) IS NULL
       OR (SELECT a.id FROM ledger_accounts a WHERE a.id = p.account_id) IS NULL
  ) THEN
    RAISE EXCEPTION 'a posting names a journal entry or ledger account that does not exist'
      USING ERRCODE = 'foreign_key_violation', TABLE = 'postings';
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "postings_references_exist" AFTER INSERT ON "postings"
  REFERENCING NEW TABLE AS new_postings
  FOR EACH STATEMENT EXECUTE FUNCTION "postings_references_exist"();--> statement-breakpoint
-- What the check found must stay true: entries and accounts are never deleted or given another id
-- (the ledger is append-only; a balance is corrected by a new entry).
CREATE FUNCTION "ledger_rows_are_permanent"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% on % is refused: ledger rows are permanent', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'restrict_violation', TABLE = TG_TABLE_NAME;
END $$;--> statement-breakpoint
CREATE TRIGGER "journal_entries_permanent" BEFORE DELETE OR TRUNCATE OR UPDATE OF "id" ON "journal_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger_rows_are_permanent"();--> statement-breakpoint
CREATE TRIGGER "ledger_accounts_permanent" BEFORE DELETE OR TRUNCATE OR UPDATE OF "id" ON "ledger_accounts"
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger_rows_are_permanent"();--> statement-breakpoint
CREATE TRIGGER "postings_permanent" BEFORE DELETE OR TRUNCATE OR UPDATE ON "postings"
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger_rows_are_permanent"();
