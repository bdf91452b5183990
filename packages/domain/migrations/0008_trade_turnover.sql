CREATE TABLE "trade_turnover" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"source" text NOT NULL,
	"reference" text NOT NULL,
	"value_usdt" numeric(38, 18) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "trade_turnover_reference_key" ON "trade_turnover" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "trade_turnover_user_idx" ON "trade_turnover" USING btree ("user_id");--> statement-breakpoint
-- Deposit claims now store one form of each transaction hash per chain (packages/shared/src/contracts/tx-hash.ts):
-- whitespace and invisible characters removed, hex in lower case, 0x kept on EVM chains and dropped on
-- TRON and Bitcoin-family chains. Existing rows take the same form. Where two live claims turn out to
-- be one transaction, the one already in that form (else the oldest) gets it and the others keep their
-- text for operators to review, so that the unique index still holds.
WITH cleaned AS (
	SELECT id, chain, status, tx_hash,
		regexp_replace(tx_hash, '[\s\u00a0\u00ad\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u3000\ufeff]', '', 'g') AS c
	FROM deposits
), normal AS (
	SELECT id, chain, status, tx_hash,
		CASE
			WHEN chain IN ('ERC20', 'BEP20', 'ARBITRUM', 'OPTIMISM', 'POLYGON', 'MATIC', 'AVAXC', 'BASE')
				AND c ~* '^(0x)?[0-9a-f]{64}$' THEN '0x' || lower(right(c, 64))
			WHEN chain IN ('TRC20', 'BTC', 'LTC', 'DOGE', 'BCH', 'XRP')
				AND c ~* '^(0x)?[0-9a-f]{64}$' THEN lower(right(c, 64))
			WHEN chain <> 'SOL' AND c ~* '^(0x)?[0-9a-f]+$' THEN lower(c)
			ELSE c
		END AS n
	FROM cleaned
), ranked AS (
	SELECT id, n, status,
		row_number() OVER (PARTITION BY chain, n, status = 'failed' ORDER BY tx_hash = n DESC, id) AS rn
	FROM normal
)
UPDATE deposits d SET tx_hash = r.n
FROM ranked r
WHERE d.id = r.id AND d.tx_hash <> r.n AND (r.status = 'failed' OR r.rn = 1);
