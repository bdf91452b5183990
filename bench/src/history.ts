import type { createDb } from "@northstar/domain/db";

type Db = ReturnType<typeof createDb>["db"];

/**
 * A platform that has been running: other users with sessions and (empty) exchange accounts, their
 * finished orders, fills, turnover and read messages, then statistics gathered, as the database's
 * autovacuum keeps them in production. A benchmark on empty tables measures plans made for tables of
 * a few rows (whole-table scans the planner keeps using as they grow), which no running platform
 * has. Nothing here holds or moves money: the accounts are at zero and have no postings, so the
 * ledger reconciles as before. Sizes scale with `users`.
 */
export async function seedHistory(db: Db, users: number): Promise<Record<string, number>> {
  const orders = users * 5;
  // The turnover of past fills where the schema keeps it: on the fill itself (value_usdt), or, in a
  // checkout from before that (the baseline of an A/B run), a trade_turnover row per fill side.
  const onFill = (
    await db.execute<{ n: number }>(
      `select count(*)::int as n from information_schema.columns
       where table_name = 'spot_trades' and column_name = 'value_usdt'`,
    )
  ).rows[0]?.n;
  const statements = [
    `insert into users (uid, password_hash, nationality, invite_code, nickname, created_at)
     select 'hist' || i, 'x', 'GB', 'HIST' || i, 'hist' || i, now() - interval '30 days'
     from generate_series(1, ${users}) as i`,
    `insert into sessions (user_id, token_hash, expires_at, created_at, last_seen_at)
     select id, 'hist-session-' || id, now() - interval '1 day', now() - interval '30 days',
       now() - interval '2 days'
     from users where uid like 'hist%' order by id`,
    `insert into ledger_accounts (user_id, book, wallet, currency, bucket)
     select u.id, 'real', 'exchange', c.currency, b.bucket
     from users u, (values ('USDT'), ('BTC'), ('ETH')) as c(currency), (values ('available'), ('held')) as b(bucket)
     where u.uid like 'hist%' order by u.id`,
    `insert into spot_orders (user_id, book, symbol, base, quote, side, type, time_in_force, price,
       quantity, filled_qty, filled_quote, fee, fee_currency, hold_currency, held, status, client_key,
       request_hash, created_at, updated_at)
     select u.id, 'real', s.symbol, s.base, 'USDT', case when i % 2 = 0 then 'buy' else 'sell' end,
       'limit', 'gtc', s.price, 0.01, case when i % 3 = 0 then 0 else 0.01 end,
       case when i % 3 = 0 then 0 else s.price * 0.01 end, 0, 'USDT', 'USDT', 0,
       case when i % 3 = 0 then 'cancelled' else 'filled' end, 'hist-' || i, 'h',
       now() - interval '20 days', now() - interval '20 days'
     from generate_series(1, ${orders}) as i
     join (select id, row_number() over (order by id) as n from users where uid like 'hist%') as u
       on u.n = 1 + i % ${users}
     cross join lateral (select case when i % 2 = 0 then 'BTCUSDT' else 'ETHUSDT' end as symbol,
       case when i % 2 = 0 then 'BTC' else 'ETH' end as base,
       case when i % 2 = 0 then 60000 else 3000 end as price) as s`,
    `insert into spot_trades (symbol, book, price, quantity, quote_qty, taker_side, maker_order_id,
       taker_order_id, maker_user_id, taker_user_id, maker_fee, taker_fee, created_at${onFill ? ", value_usdt" : ""})
     select symbol, 'real', price, filled_qty, filled_quote, side, id, null, user_id, null, 0, 0,
       created_at${onFill ? ", filled_quote" : ""}
     from spot_orders where status = 'filled' and client_key like 'hist-%' order by id`,
    ...(onFill
      ? []
      : [
          `insert into trade_turnover (user_id, source, reference, value_usdt, created_at)
         select maker_user_id, 'spot', 'hist_trade:' || id, quote_qty, created_at
         from spot_trades where maker_user_id is not null order by id`,
        ]),
    `insert into user_messages (user_id, kind, params, event_key, read_at, created_at)
     select user_id, 'spot.filled', '{}'::jsonb, 'hist:' || id, now() - interval '19 days', created_at
     from spot_orders where status = 'filled' and client_key like 'hist-%' order by id`,
    "analyze",
  ];
  for (const statement of statements) {
    await db.execute(statement);
  }
  const counts = await db.execute<{ users: number; orders: number; trades: number; accounts: number }>(
    `select (select count(*) from users)::int as users, (select count(*) from spot_orders)::int as orders,
       (select count(*) from spot_trades)::int as trades, (select count(*) from ledger_accounts)::int as accounts`,
  );
  return counts.rows[0] ?? {};
}
