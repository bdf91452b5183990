CREATE TABLE "spot_quotes" (
	"queue_seq" bigint PRIMARY KEY NOT NULL,
	"symbol" text NOT NULL,
	"book" text NOT NULL,
	"side" text NOT NULL,
	"price" numeric(38, 18) NOT NULL,
	"quantity" numeric(38, 18) NOT NULL
);
--> statement-breakpoint
ALTER TABLE "spot_orders" ADD COLUMN "queue_seq" bigint;--> statement-breakpoint
CREATE INDEX "spot_quotes_book_idx" ON "spot_quotes" USING btree ("symbol","book");