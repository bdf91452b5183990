import { randomBytes } from "node:crypto";
import { type OperatorRole, operatorTotp, upsertOperator } from "@northstar/domain/admin";
import { totpKeyring } from "@northstar/domain/identity";
import { type Book, getUserBalances, postEntry, reconcileLedger } from "@northstar/domain/ledger";
import { setPolicy } from "@northstar/domain/policy";
import { MoneyDecimal } from "@northstar/shared/money";
import { totpRequiredFor } from "@northstar/shared/operators";
import type { PolicyKey, PolicyValue } from "@northstar/shared/policy";
import { authenticator } from "otplib";
import { expect } from "vitest";
import { expectOk, query, tokenHash } from "./fixtures.ts";
import type { Harness } from "./harness.ts";

/**
 * Money-module test helpers over the harness: operators, proofs, deposits, balances. Money moves
 * only through the real API and ledger; direct SQL only reads, or sets up what a user cannot.
 */

/** A real 1×1 PNG. */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

/** Valid addresses per chain, for deposit addresses and the withdrawal address book. */
export const ADDR = {
  ERC20: "0x52908400098527886E0F7030069857D2E4169EE7",
  TRC20: "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7",
  BTC: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
} as const;

/** Decimal strings compare by value: "190" equals "190.000000000000000000". */
export const norm = (value: string | null | undefined) => new MoneyDecimal(value ?? "0").toFixed();

export const txHash = () => `0x${randomBytes(32).toString("hex")}`;

let opSeq = 0;

/**
 * Creates an operator with `role`, enrolled in two-factor sign-in with a known secret when the role
 * requires it (as an enrolled operator would be), and signs it in through admin.login with a code.
 */
export async function signInOperator(h: Harness, role: OperatorRole = "finance") {
  const username = `${role}-${++opSeq}-${randomBytes(2).toString("hex")}`;
  const password = randomBytes(12).toString("base64url");
  const { id } = await upsertOperator(h.db, { username, password, role, actor: "test" });
  let secret: string | undefined;
  if (totpRequiredFor(role)) {
    secret = authenticator.generateSecret(20);
    await h.db.insert(operatorTotp).values({
      operatorId: id,
      secret: totpKeyring().encrypt(secret, id, "operator_totp"),
      enabledAt: new Date(),
    });
  }
  const code = secret ? authenticator.generate(secret) : undefined;
  const token = dataOf<{ token: string }>(await h.trpc("admin.login", { username, password, code })).token;
  return { id, username, password, secret, token };
}

/** Creates an operator with `role`, signs it in (with a code when its role requires one); answers the token. */
export async function operatorToken(h: Harness, role: OperatorRole = "finance"): Promise<string> {
  return (await signInOperator(h, role)).token;
}

export type TrpcResult = Awaited<ReturnType<Harness["trpc"]>>;

/** Calls an admin procedure as the back office does, with the operator token header. */
export async function admin(
  h: Harness,
  path: string,
  input: unknown,
  opToken: string | undefined,
  kind: "query" | "mutation" = "mutation",
): Promise<TrpcResult> {
  const headers: Record<string, string> = opToken ? { "x-operator-token": opToken } : {};
  const url = `/trpc/admin.${path}`;
  const response =
    kind === "mutation"
      ? await h.app.inject({
          method: "POST",
          url,
          payload: JSON.stringify(input ?? {}),
          headers: { ...headers, "content-type": "application/json" },
        })
      : await h.app.inject({
          method: "GET",
          url: `${url}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
          headers,
        });
  return { status: response.statusCode, body: response.json() };
}

/** The data of a successful tRPC answer, failing the test otherwise. */
export function dataOf<T = Record<string, unknown>>(res: TrpcResult): T {
  expectOk(res);
  return res.body.result?.data as T;
}

/** Uploads a proof image through POST /uploads/proof and answers its id. */
export async function uploadProof(h: Harness, token: string, bytes: Buffer = PNG): Promise<string> {
  const boundary = `----northstar${randomBytes(8).toString("hex")}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="proof.png"\r\n` +
      "Content-Type: image/png\r\n\r\n",
  );
  const res = await h.app.inject({
    method: "POST",
    url: "/uploads/proof",
    headers: {
      "content-type": `multipart/form-data; boundary=${boundary}`,
      authorization: `Bearer ${token}`,
    },
    payload: Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  });
  expect(res.statusCode).toBe(200);
  const body = res.json() as { code: number; message: string; data: { id: string } };
  expect(body.code, body.message).toBe(0);
  return body.data.id;
}

/** The user id behind a session token. */
export async function userIdOf(h: Harness, token: string): Promise<number> {
  const [row] = await query<{ user_id: string }>(h, "select user_id from sessions where token_hash = $1", [
    tokenHash(token),
  ]);
  if (!row) {
    throw new Error("no session for token");
  }
  return Number(row.user_id);
}

/** A user's available and held balance of one wallet and currency, normalised. */
export async function balanceOf(
  h: Harness,
  userId: number,
  currency = "USDT",
  wallet = "exchange",
  book: Book = "real",
): Promise<{ available: string; held: string }> {
  const row = (await getUserBalances(h.db, userId, book)).find(
    (b) => b.wallet === wallet && b.currency === currency,
  );
  return { available: norm(row?.available), held: norm(row?.held) };
}

/** A system account's balance (fees, house, clearing…), normalised. */
export async function systemBalance(h: Harness, code: string, currency = "USDT", book: Book = "real") {
  const [row] = await query<{ balance: string }>(
    h,
    "select balance::text from ledger_accounts where system_code = $1 and currency = $2 and book = $3",
    [code, currency, book],
  );
  return norm(row?.balance);
}

export async function expectLedgerBalanced(h: Harness) {
  const report = await reconcileLedger(h.db);
  expect(report.mismatchedAccounts).toEqual([]);
  expect(report.unbalancedCurrencies).toEqual([]);
  expect(report.unbalancedEntries).toEqual([]);
  expect(report.ok).toBe(true);
  return report;
}

export function policy<K extends PolicyKey>(h: Harness, key: K, value: PolicyValue<K>) {
  return setPolicy(h.db, key, value, "test");
}

/** Sets a deposit address through admin.setDepositAddress. */
export async function setDepositAddress(
  h: Harness,
  op: string,
  currency: string,
  chain: string,
  address: string,
) {
  expectOk(await admin(h, "setDepositAddress", { currency, chain, address }, op));
}

/** Submits a deposit with a fresh proof and tx hash; answers the raw tRPC result. */
export async function submitDeposit(
  h: Harness,
  token: string,
  input: { currency?: string; chain?: string; amount: string; tx_hash?: string; proof_upload_id?: string },
) {
  return h.trpc(
    "deposit.create",
    {
      currency: "USDT",
      chain: "ERC20",
      tx_hash: txHash(),
      proof_upload_id: input.proof_upload_id ?? (await uploadProof(h, token)),
      ...input,
    },
    token,
  );
}

/**
 * A real deposit end to end: the user submits with a proof, a finance operator confirms. The
 * deposit address for the currency and chain must already be set. Answers the deposit id.
 */
export async function depositAndConfirm(
  h: Harness,
  token: string,
  op: string,
  amount: string,
  currency = "USDT",
  chain = "ERC20",
): Promise<number> {
  const { id } = dataOf<{ id: number }>(await submitDeposit(h, token, { currency, chain, amount }));
  dataOf(await admin(h, "confirmDeposit", { id }, op));
  return id;
}

let grantSeq = 0;
/**
 * Credits a user's exchange wallet through the ledger from the test-grant clearing account, with
 * no deposit row: a balance that carries no turnover requirement, for tests of other rules.
 */
export async function grant(h: Harness, userId: number, amount: string, currency = "USDT") {
  const key = `test-grant:${userId}:${++grantSeq}:${randomBytes(3).toString("hex")}`;
  await postEntry(h.db, {
    idempotencyKey: key,
    kind: "test.grant",
    reference: { type: "test", id: key },
    postings: [
      { account: { system: "deposit_clearing:test", book: "real", currency }, amount: `-${amount}` },
      { account: { userId, book: "real", wallet: "exchange", currency }, amount },
    ],
  });
}

/** Sets the user's first trade password through identity.setTradePassword. */
export async function setTradePassword(h: Harness, u: { token: string; password: string }, pwd = "123456") {
  expectOk(
    await h.trpc(
      "identity.setTradePassword",
      { login_password: u.password, trade_password: pwd, confirm_password: pwd },
      u.token,
    ),
  );
}

/** Adds a withdrawal address through withdrawalAddress.create; answers its id. */
export async function addAddress(
  h: Harness,
  token: string,
  chain: keyof typeof ADDR = "ERC20",
  currency = "USDT",
): Promise<number> {
  return dataOf<{ id: number }>(
    await h.trpc("withdrawalAddress.create", { currency, chain, address: ADDR[chain] }, token),
  ).id;
}
