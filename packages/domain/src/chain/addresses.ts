import { and, asc, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { chainAddresses } from "./chain.table.ts";
import type { ChainConfig } from "./config.ts";
import { depositAddressAt } from "./derivation.ts";

export interface UserChainAddress {
  userId: number;
  network: string;
  address: string;
  derivationIndex: number;
}

/**
 * The user's deposit address on the chain, allocated on first ask: the next free derivation index of
 * the chain's xpub, taken under a lock of the chain's allocation so two users never share an index,
 * and kept for good (the same address every time after).
 */
export async function depositAddressFor(
  db: Db,
  config: ChainConfig,
  userId: number,
): Promise<UserChainAddress> {
  const found = await findAddress(db, config.network, userId);
  if (found) {
    return found;
  }
  const xpub = config.xpub;
  if (!xpub) {
    throw new AppError("DEPOSIT_ADDRESS_MISSING", {}, "chain");
  }
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`chain_addresses:${config.network}`}))`);
    const again = await findAddress(tx, config.network, userId);
    if (again) {
      return again;
    }
    const [{ next } = { next: 0 }] = await tx
      .select({ next: sql<number>`coalesce(max(${chainAddresses.derivationIndex}) + 1, 0)::int` })
      .from(chainAddresses)
      .where(eq(chainAddresses.network, config.network));
    const address = depositAddressAt(xpub, next).toLowerCase();
    await tx
      .insert(chainAddresses)
      .values({ network: config.network, userId, derivationIndex: next, address });
    return { userId, network: config.network, address, derivationIndex: next };
  });
}

async function findAddress(db: DbOrTx, network: string, userId: number): Promise<UserChainAddress | null> {
  const [row] = await db
    .select()
    .from(chainAddresses)
    .where(and(eq(chainAddresses.network, network), eq(chainAddresses.userId, userId)));
  return row
    ? { userId: row.userId, network: row.network, address: row.address, derivationIndex: row.derivationIndex }
    : null;
}

/**
 * Which of these (lower-case) addresses are users' deposit addresses on the chain: one query with the
 * addresses as one array parameter (a block's thousand recipients are one statement text, one plan).
 */
export async function ownersOf(
  db: DbOrTx,
  network: string,
  addresses: readonly string[],
): Promise<Map<string, UserChainAddress>> {
  if (addresses.length === 0) {
    return new Map();
  }
  const rows = await db
    .select()
    .from(chainAddresses)
    .where(
      and(
        eq(chainAddresses.network, network),
        sql`${chainAddresses.address} = any(${sql.param([...new Set(addresses)])}::text[])`,
      ),
    )
    .orderBy(asc(chainAddresses.id));
  return new Map(
    rows.map((r) => [
      r.address,
      { userId: r.userId, network: r.network, address: r.address, derivationIndex: r.derivationIndex },
    ]),
  );
}
