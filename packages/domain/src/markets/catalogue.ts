import {
  type FeedSource,
  type Instrument,
  type InstrumentCategory,
  type InstrumentInput,
  instrumentInputSchema,
  type TradingKind,
} from "@northstar/shared/markets";
import { MoneyDecimal } from "@northstar/shared/money";
import { and, asc, count, eq, ilike, inArray, or, type SQL, sql } from "drizzle-orm";
import { recordAudit } from "../audit/index.ts";
import { addCurrencies } from "../currencies/index.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { SEED_INSTRUMENTS, SEED_SPOT_CURRENCIES } from "./catalogue.seed.ts";
import { instruments, marketFavourites } from "./markets.table.ts";

/** An instrument as every reader sees it: decimals as plain strings without trailing zeros. */
export type InstrumentView = Instrument & { id: number };

const plain = (value: string) => new MoneyDecimal(value).toFixed();

function toView(row: typeof instruments.$inferSelect): InstrumentView {
  return {
    id: row.id,
    symbol: row.symbol,
    name: row.name,
    category: row.category as InstrumentCategory,
    base: row.base,
    quote: row.quote,
    tickSize: plain(row.tickSize),
    lotSize: plain(row.lotSize),
    minQty: plain(row.minQty),
    contractSize: plain(row.contractSize),
    maxLeverage: row.maxLeverage,
    displayDecimals: row.displayDecimals as 2 | 4 | 6,
    kinds: row.kinds as TradingKind[],
    tradingHours: row.tradingHours,
    referencePrice: plain(row.referencePrice),
    volatility: plain(row.volatility),
    feedSource: (row.feedSource as FeedSource | null) ?? null,
    sourceSymbol: row.sourceSymbol ?? null,
    sort: row.sort,
    enabled: row.enabled,
  };
}

export interface InstrumentFilter {
  category?: InstrumentCategory | undefined;
  kind?: TradingKind | undefined;
  /** Matches symbol, base or name, case-insensitively. */
  search?: string | undefined;
  symbols?: string[] | undefined;
  includeDisabled?: boolean | undefined;
  page?: number | undefined;
  pageSize?: number | undefined;
}

/**
 * One page of the catalogue. Filtering and paging happen in SQL on indexed columns, so a catalogue
 * of thousands of instruments costs a page, not the whole list.
 */
export async function listInstruments(
  db: DbOrTx,
  filter: InstrumentFilter = {},
): Promise<{ items: InstrumentView[]; total: number }> {
  const where: SQL[] = [];
  if (!filter.includeDisabled) {
    where.push(eq(instruments.enabled, true));
  }
  if (filter.category) {
    where.push(eq(instruments.category, filter.category));
  }
  if (filter.kind) {
    where.push(sql`${filter.kind} = any(${instruments.kinds})`);
  }
  if (filter.symbols) {
    where.push(inArray(instruments.symbol, filter.symbols.length ? filter.symbols : [""]));
  }
  const search = filter.search?.trim();
  if (search) {
    const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const match = or(
      ilike(instruments.symbol, pattern),
      ilike(instruments.base, pattern),
      ilike(instruments.name, pattern),
    );
    if (match) {
      where.push(match);
    }
  }
  const condition = where.length ? and(...where) : undefined;
  const pageSize = Math.min(Math.max(filter.pageSize ?? 50, 1), 500);
  const page = Math.max(filter.page ?? 1, 1);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(instruments)
      .where(condition)
      .orderBy(asc(instruments.sort), asc(instruments.symbol))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(instruments).where(condition),
  ]);
  return { items: rows.map(toView), total: total?.n ?? 0 };
}

/**
 * Every enabled instrument, for the feed and the worker (they need the whole catalogue); with
 * `withDisabled`, the disabled ones too (the spot matcher still settles their resting orders).
 */
export async function loadCatalogue(
  db: DbOrTx,
  options: { withDisabled?: boolean } = {},
): Promise<InstrumentView[]> {
  const rows = await db
    .select()
    .from(instruments)
    .where(options.withDisabled ? undefined : eq(instruments.enabled, true))
    .orderBy(asc(instruments.sort), asc(instruments.symbol));
  return rows.map(toView);
}

export async function getInstrument(db: DbOrTx, symbol: string): Promise<InstrumentView> {
  const [row] = await db.select().from(instruments).where(eq(instruments.symbol, symbol)).limit(1);
  if (!row) {
    throw new AppError("INSTRUMENT_NOT_FOUND", {}, "symbol");
  }
  return toView(row);
}

/** Adds or edits an instrument (operators). Validated by the shared schema; audited. */
export async function saveInstrument(db: Db, input: InstrumentInput, actor: string): Promise<InstrumentView> {
  const parsed = instrumentInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError(
      "FIELD_INVALID",
      { field: String(issue?.path[0] ?? "") },
      String(issue?.path[0] ?? ""),
    );
  }
  const value = parsed.data;
  if (new MoneyDecimal(value.minQty).lt(value.lotSize)) {
    throw new AppError("FIELD_INVALID", { field: "minQty" }, "minQty");
  }
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(instruments)
      .where(eq(instruments.symbol, value.symbol))
      .limit(1)
      .for("update");
    // Resting spot orders are held in whole ticks and lots of the grid they were placed on.
    const gridChanged =
      before &&
      (!new MoneyDecimal(before.tickSize).eq(value.tickSize) ||
        !new MoneyDecimal(before.lotSize).eq(value.lotSize));
    if (gridChanged && (await hasOpenOrders(tx, value.symbol))) {
      throw new AppError("INSTRUMENT_HAS_OPEN_ORDERS", {}, "tickSize");
    }
    const [row] = await tx
      .insert(instruments)
      .values(value)
      .onConflictDoUpdate({ target: instruments.symbol, set: { ...value, updatedAt: new Date() } })
      .returning();
    if (!row) {
      throw new AppError("REQUEST_ERROR");
    }
    await recordAudit(tx, {
      actor,
      action: before ? "instrument.update" : "instrument.create",
      subject: value.symbol,
      details: { before: before ? toView(before) : null, after: toView(row) },
    });
    return toView(row);
  });
}

type OpenOrdersCheck = (tx: DbOrTx, symbol: string) => Promise<boolean>;
const openOrdersChecks = new Set<OpenOrdersCheck>();

/**
 * Lets a trading module above markets (spot) say whether a market has resting orders, so the
 * catalogue can refuse a grid change under them without reading that module's tables.
 */
export function addOpenOrdersCheck(check: OpenOrdersCheck): void {
  openOrdersChecks.add(check);
}

async function hasOpenOrders(tx: DbOrTx, symbol: string): Promise<boolean> {
  for (const check of openOrdersChecks) {
    if (await check(tx, symbol)) {
      return true;
    }
  }
  return false;
}

/** Enables or disables an instrument (operators); a disabled one disappears from every list and feed. */
export async function setInstrumentEnabled(
  db: Db,
  symbol: string,
  enabled: boolean,
  actor: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(instruments)
      .set({ enabled, updatedAt: new Date() })
      .where(eq(instruments.symbol, symbol))
      .returning({ id: instruments.id });
    if (updated.length === 0) {
      throw new AppError("INSTRUMENT_NOT_FOUND", {}, "symbol");
    }
    await recordAudit(tx, {
      actor,
      action: enabled ? "instrument.enable" : "instrument.disable",
      subject: symbol,
    });
  });
}

export async function listFavourites(db: DbOrTx, userId: number): Promise<string[]> {
  const rows = await db
    .select({ symbol: marketFavourites.symbol })
    .from(marketFavourites)
    .where(eq(marketFavourites.userId, userId))
    .orderBy(asc(marketFavourites.createdAt), asc(marketFavourites.symbol));
  return rows.map((r) => r.symbol);
}

/** Marks or unmarks a favourite. Only instruments of the catalogue can be marked. */
export async function setFavourite(
  db: DbOrTx,
  userId: number,
  symbol: string,
  favourite: boolean,
): Promise<string[]> {
  if (favourite) {
    await getInstrument(db, symbol);
    await db.insert(marketFavourites).values({ userId, symbol }).onConflictDoNothing();
  } else {
    await db
      .delete(marketFavourites)
      .where(and(eq(marketFavourites.userId, userId), eq(marketFavourites.symbol, symbol)));
  }
  return listFavourites(db, userId);
}

/** Seeds the catalogue and the currencies its spot markets need. Idempotent: existing rows stay as edited. */
export async function seedCatalogue(db: DbOrTx): Promise<void> {
  await addCurrencies(
    db,
    SEED_SPOT_CURRENCIES.map((c, i) => ({
      code: c.code,
      name: c.name,
      decimals: 8,
      displayDecimals: c.display,
      sort: 100 + i,
    })),
  );
  await db
    .insert(instruments)
    .values(SEED_INSTRUMENTS.map((row, i) => ({ ...instrumentInputSchema.parse(row), sort: i })))
    .onConflictDoNothing();
}
