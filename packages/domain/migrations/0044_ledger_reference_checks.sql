-- A posting's entry and account are checked once per inserting statement instead of by two foreign
-- keys. A foreign key runs a lookup per row and locks the row it finds (FOR KEY SHARE): on an entry
-- the same statement has just written, that lock is one more write and WAL record per posting. The
-- ledger writes its postings a batch per statement, so one lookup of the statement's entries and one
-- of its accounts do the same check for all of them.
ALTER TABLE "postings" DROP CONSTRAINT "postings_entry_id_journal_entries_id_fk";--> statement-breakpoint
ALTER TABLE "postings" DROP CONSTRAINT "postings_account_id_ledger_accounts_id_fk";--> statement-breakpoint
-- The ids go to the lookups as arrays: each is found through its primary key whatever the tables'
-- sizes were when the function's plan was made (joined with the new rows, a plan kept from a small
-- table scanned all of journal_entries).
CREATE FUNCTION "postings_references_exist"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  entries bigint[];
  accounts bigint[];
BEGIN
  SELECT array_agg(DISTINCT entry_id), array_agg(DISTINCT account_id) INTO entries, accounts FROM new_postings;
  IF (SELECT count(*) FROM journal_entries WHERE id = ANY (entries)) <> cardinality(entries)
     OR (SELECT count(*) FROM ledger_accounts WHERE id = ANY (accounts)) <> cardinality(accounts) THEN
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
