-- Spot matchers sharded by market: each shard's matcher numbers its markets' queue places alone, so a
-- market-maker quote's place is unique within its market and book (the key covers all three); the
-- key's leading columns serve the lookups by market and book the old index did.
DROP INDEX "spot_quotes_book_idx";--> statement-breakpoint
ALTER TABLE "spot_quotes" DROP CONSTRAINT "spot_quotes_pkey";--> statement-breakpoint
ALTER TABLE "spot_quotes" ADD CONSTRAINT "spot_quotes_symbol_book_queue_seq_pk" PRIMARY KEY("symbol","book","queue_seq");
