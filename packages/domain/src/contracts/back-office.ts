import { MoneyDecimal } from "@northstar/shared/money";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { listContractProducts, toProductView } from "./products.ts";

/** Every product, disabled ones included, for operators. */
export async function listContractProductsAdmin(db: DbOrTx, now = new Date()) {
  return (await listContractProducts(db, now, { withDisabled: true })).map(toProductView);
}

/** Open exposure per instrument and book: positions, lots long and short, margin held; by symbol. */
export async function contractExposure(db: DbOrTx) {
  const rows = await db.execute<{
    symbol: string;
    book: string;
    positions: number;
    long_lots: string;
    short_lots: string;
    margin: string;
  }>(sql`
    select symbol, book, count(*)::int as positions,
      coalesce(sum(lots) filter (where side = 'long'), 0)::text as long_lots,
      coalesce(sum(lots) filter (where side = 'short'), 0)::text as short_lots,
      coalesce(sum(margin), 0)::text as margin
    from contract_positions where status = 'holding'
    group by symbol, book order by symbol, book`);
  return rows.rows.map((r) => ({
    symbol: r.symbol,
    book: r.book,
    positions: Number(r.positions),
    long_lots: new MoneyDecimal(r.long_lots).toFixed(),
    short_lots: new MoneyDecimal(r.short_lots).toFixed(),
    margin: new MoneyDecimal(r.margin).toFixed(),
  }));
}

/**
 * The house's result per book: the balances of the contracts house and insurance accounts and the
 * fees contracts paid (from the journal), with the count of closes by reason.
 */
export async function contractHouseResult(db: DbOrTx) {
  const balances = await db.execute<{ system_code: string; book: string; balance: string }>(sql`
    select system_code, book, balance::text as balance from ledger_accounts
    where system_code in ('contracts_house', 'contracts_insurance') and currency = 'USDT'
    order by system_code, book`);
  const closes = await db.execute<{ reason: string; book: string; n: number; pnl: string; fee: string }>(sql`
    select reason, book, count(*)::int as n, coalesce(sum(pnl), 0)::text as pnl, coalesce(sum(fee), 0)::text as fee
    from contract_closes group by reason, book order by reason, book`);
  return {
    accounts: balances.rows.map((r) => ({
      account: r.system_code,
      book: r.book,
      balance: new MoneyDecimal(r.balance).toFixed(),
    })),
    closes: closes.rows.map((r) => ({
      reason: r.reason,
      book: r.book,
      count: Number(r.n),
      user_pnl: new MoneyDecimal(r.pnl).toFixed(),
      fees: new MoneyDecimal(r.fee).toFixed(),
    })),
  };
}

/** The liquidations log, newest first: which position, at which recorded tick and price, what it settled. */
export async function listLiquidations(db: DbOrTx, limit = 100) {
  const rows = await db.execute<{
    id: number;
    position_id: number;
    user_id: number;
    book: string;
    symbol: string;
    lots: string;
    price: string;
    tick_id: number | null;
    pnl: string;
    shortfall: string;
    created_at: Date;
  }>(sql`
    select id, position_id, user_id, book, symbol, lots::text, price::text, tick_id, pnl::text, shortfall::text, created_at
    from contract_closes where reason = 'liquidation' order by id desc limit ${limit}`);
  return rows.rows.map((r) => ({
    id: Number(r.id),
    position_id: Number(r.position_id),
    user_id: Number(r.user_id),
    book: r.book,
    symbol: r.symbol,
    lots: new MoneyDecimal(r.lots).toFixed(),
    price: new MoneyDecimal(r.price).toFixed(),
    tick_id: r.tick_id === null ? null : Number(r.tick_id),
    pnl: new MoneyDecimal(r.pnl).toFixed(),
    shortfall: new MoneyDecimal(r.shortfall).toFixed(),
    created_at: new Date(r.created_at).toISOString(),
  }));
}
