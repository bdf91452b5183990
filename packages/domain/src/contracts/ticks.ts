import type { TRecordedTick } from "@northstar/shared/contracts/markets";
import { and, asc, desc, eq, gt, gte, lte } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import {
  type ProvenancedTick,
  provenanceColumns,
  TICKS_AROUND_LIMIT,
  TICKS_AROUND_MS,
  toRecordedTick,
} from "../markets/index.ts";
import { contractTicks } from "./contracts.table.ts";

export interface ContractTick {
  id: number;
  symbol: string;
  price: string;
  time: Date;
}

const columns = {
  id: contractTicks.id,
  symbol: contractTicks.symbol,
  price: contractTicks.price,
  time: contractTicks.time,
};

/**
 * Stores feed ticks as received, with their provenance (one statement for the batch), in order;
 * returns their rows. The recorder always passes provenance; a tick without it (a test's fixed
 * price) is stored without source fields.
 */
export async function recordContractTicks(
  db: DbOrTx,
  ticks: ({ symbol: string; price: string; time: number } | ProvenancedTick)[],
): Promise<ContractTick[]> {
  if (ticks.length === 0) {
    return [];
  }
  return db
    .insert(contractTicks)
    .values(
      ticks.map((t) => ({
        symbol: t.symbol,
        price: t.price,
        time: new Date(t.time),
        ...("source" in t ? provenanceColumns(t) : {}),
      })),
    )
    .returning(columns);
}

/** The latest recorded tick of a symbol whose time is not after `at`. */
export async function latestContractTick(db: DbOrTx, symbol: string, at: Date): Promise<ContractTick | null> {
  const [row] = await db
    .select(columns)
    .from(contractTicks)
    .where(and(eq(contractTicks.symbol, symbol), lte(contractTicks.time, at)))
    .orderBy(desc(contractTicks.time), desc(contractTicks.id))
    .limit(1);
  return row ?? null;
}

/** Recorded ticks after `afterId`, in id order (the order the recorder wrote them), at most `limit`. */
export async function contractTicksAfter(db: DbOrTx, afterId: number, limit = 5000): Promise<ContractTick[]> {
  return db
    .select(columns)
    .from(contractTicks)
    .where(gt(contractTicks.id, afterId))
    .orderBy(asc(contractTicks.id))
    .limit(limit);
}

/** The first recorded tick of a symbol at or after `at`, or null while none exists. */
export async function firstContractTickAtOrAfter(
  db: DbOrTx,
  symbol: string,
  at: Date,
): Promise<ContractTick | null> {
  const rows = await db
    .select(columns)
    .from(contractTicks)
    .where(and(eq(contractTicks.symbol, symbol), gt(contractTicks.time, new Date(at.getTime() - 1))))
    .orderBy(asc(contractTicks.time), asc(contractTicks.id))
    .limit(1);
  return rows[0] ?? null;
}

const recordedColumns = {
  ...columns,
  source: contractTicks.source,
  sourceSymbol: contractTicks.sourceSymbol,
  sourceTime: contractTicks.sourceTime,
  sourceId: contractTicks.sourceId,
  receivedAt: contractTicks.receivedAt,
};

/** One recorded tick with its provenance, or null when it is gone. */
export async function contractTickById(db: DbOrTx, id: number): Promise<TRecordedTick | null> {
  const [row] = await db.select(recordedColumns).from(contractTicks).where(eq(contractTicks.id, id));
  return row ? toRecordedTick(row) : null;
}

/** The recorded ticks of `symbol` within a minute either side of `at`, in time order. */
export async function contractTicksAround(db: DbOrTx, symbol: string, at: Date): Promise<TRecordedTick[]> {
  const rows = await db
    .select(recordedColumns)
    .from(contractTicks)
    .where(
      and(
        eq(contractTicks.symbol, symbol),
        gte(contractTicks.time, new Date(at.getTime() - TICKS_AROUND_MS)),
        lte(contractTicks.time, new Date(at.getTime() + TICKS_AROUND_MS)),
      ),
    )
    .orderBy(asc(contractTicks.time), asc(contractTicks.id))
    .limit(TICKS_AROUND_LIMIT);
  return rows.map(toRecordedTick);
}
