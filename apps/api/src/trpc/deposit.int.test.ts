import { translate } from "@northstar/shared/i18n";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectOk, expectTrpcRefusal, query, tokenOf } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import {
  ADDR,
  admin,
  balanceOf,
  dataOf,
  expectLedgerBalanced,
  norm,
  operatorToken,
  setDepositAddress,
  submitDeposit,
  txHash,
  uploadProof,
  userIdOf,
} from "../test/money.ts";

let h: Harness;
let op: string;
beforeAll(async () => {
  h = await createHarness();
  op = await operatorToken(h, "finance");
  await setDepositAddress(h, op, "USDT", "ERC20", ADDR.ERC20);
  await setDepositAddress(h, op, "BTC", "BTC", ADDR.BTC);
  await setDepositAddress(h, op, "ETH", "ERC20", ADDR.ERC20);
  await setDepositAddress(h, op, "TRX", "TRC20", ADDR.TRC20);
});
afterAll(async () => {
  await h?.close();
});

type Deposit = { id: number; userId: number; status: string; amount: string; currency: string };
const entriesFor = async (depositId: number) =>
  (
    await query<{ n: number }>(
      h,
      "select count(*)::int as n from journal_entries where reference_type = 'deposit' and reference_id = $1",
      [String(depositId)],
    )
  )[0]?.n;

describe("deposit.options", () => {
  it("lists the addresses operators set, with the policy minimum per currency, and the open channels", async () => {
    const u = await h.registerByEmail();
    const options = dataOf<{
      channels: { crypto: boolean; bank: boolean };
      addresses: { currency: string; chain: string; address: string; minimum: string }[];
    }>(await h.trpc("deposit.options", undefined, u.token, "query"));
    expect(options.channels).toEqual({ crypto: true, bank: false });
    const byCurrency = Object.fromEntries(options.addresses.map((a) => [`${a.currency}/${a.chain}`, a]));
    expect(byCurrency).toMatchObject({
      "USDT/ERC20": { address: ADDR.ERC20, minimum: "1" },
      "BTC/BTC": { address: ADDR.BTC, minimum: "0.001" },
      "ETH/ERC20": { address: ADDR.ERC20, minimum: "0.1" },
      "TRX/TRC20": { address: ADDR.TRC20, minimum: "10" },
    });
    expect(options.addresses).toHaveLength(4);

    // A new address replaces the old one for that currency and chain.
    const replaced = "0x000000000000000000000000000000000000dEaD";
    await setDepositAddress(h, op, "ETH", "ERC20", replaced);
    const again = dataOf<{ addresses: { currency: string; address: string }[] }>(
      await h.trpc("deposit.options", undefined, u.token, "query"),
    );
    expect(again.addresses.find((a) => a.currency === "ETH")?.address).toBe(replaced);
    await setDepositAddress(h, op, "ETH", "ERC20", ADDR.ERC20);
    expectTrpcRefusal(await h.trpc("deposit.options", undefined, undefined, "query"), "LOGIN_REQUIRED", {
      responseCode: 2000,
    });
  });
});

describe("deposit.create", () => {
  it("records a deposit with a proof uploaded through /uploads/proof, pending, crediting nothing yet", async () => {
    const u = await h.registerByEmail();
    const proof = await uploadProof(h, u.token);
    const hash = txHash();
    const created = dataOf<Deposit & { txHash: string; proofUploadId: string }>(
      await h.trpc(
        "deposit.create",
        { currency: "usdt", chain: "erc20", amount: "25.5", tx_hash: hash, proof_upload_id: proof },
        u.token,
      ),
    );
    expect(created).toMatchObject({
      status: "pending",
      currency: "USDT",
      txHash: hash,
      proofUploadId: proof,
    });
    expect(norm(created.amount)).toBe("25.5");
    expect(await balanceOf(h, await userIdOf(h, u.token))).toEqual({ available: "0", held: "0" });
    expect(await entriesFor(created.id)).toBe(0);
  });

  it("refuses amounts below each currency's minimum, and accepts the minimum itself", async () => {
    const u = await h.registerByEmail();
    const cases: [string, string, string, string][] = [
      ["USDT", "ERC20", "0.999999", "1"],
      ["BTC", "BTC", "0.00099999", "0.001"],
      ["ETH", "ERC20", "0.09999999", "0.1"],
      ["TRX", "TRC20", "9.999999", "10"],
    ];
    for (const [currency, chain, below, min] of cases) {
      expectTrpcRefusal(
        await submitDeposit(h, u.token, { currency, chain, amount: below }),
        "DEPOSIT_BELOW_MINIMUM",
        { params: { min, currency } },
      );
      expectOk(await submitDeposit(h, u.token, { currency, chain, amount: min }));
    }
  });

  it("refuses the closed bank channel with the spec's text", async () => {
    const u = await h.registerByEmail();
    const res = await h.trpc(
      "deposit.create",
      {
        channel: "bank",
        currency: "USDT",
        chain: "ERC20",
        amount: "100",
        tx_hash: txHash(),
        proof_upload_id: await uploadProof(h, u.token),
      },
      u.token,
    );
    expectTrpcRefusal(res, "RECHARGE_CHANNEL_CLOSED");
    expect(res.body.error?.message).toBe("This recharge channel has not been opened yet");
  });

  it("refuses a missing proof and another user's upload with PROOF_REQUIRED", async () => {
    const u = await h.registerByEmail();
    const other = await h.registerByEmail();
    const foreign = await uploadProof(h, other.token);
    const base = { currency: "USDT", chain: "ERC20", amount: "10", tx_hash: txHash() };
    expectTrpcRefusal(await h.trpc("deposit.create", base, u.token), "PROOF_REQUIRED");
    expectTrpcRefusal(
      await h.trpc("deposit.create", { ...base, proof_upload_id: "not-a-uuid" }, u.token),
      "PROOF_REQUIRED",
    );
    expectTrpcRefusal(
      await h.trpc("deposit.create", { ...base, proof_upload_id: foreign }, u.token),
      "PROOF_REQUIRED",
    );
    expectTrpcRefusal(
      await h.trpc(
        "deposit.create",
        { ...base, proof_upload_id: "00000000-0000-4000-8000-000000000000" },
        u.token,
      ),
      "PROOF_REQUIRED",
    );
    expect(dataOf<unknown[]>(await h.trpc("deposit.getMany", {}, u.token, "query"))).toEqual([]);
  });

  it("refuses a currency and chain without a deposit address", async () => {
    const u = await h.registerByEmail();
    expectTrpcRefusal(
      await submitDeposit(h, u.token, { currency: "USDT", chain: "SOL", amount: "10" }),
      "DEPOSIT_ADDRESS_MISSING",
    );
    expectTrpcRefusal(
      await submitDeposit(h, u.token, { currency: "BTC", chain: "ERC20", amount: "1" }),
      "DEPOSIT_ADDRESS_MISSING",
    );
    // An address the operator disabled is neither offered nor accepted.
    expectOk(
      await admin(
        h,
        "setDepositAddress",
        { currency: "TRX", chain: "TRC20", address: ADDR.TRC20, enabled: false },
        op,
      ),
    );
    try {
      const options = dataOf<{ addresses: { currency: string }[] }>(
        await h.trpc("deposit.options", undefined, u.token, "query"),
      );
      expect(options.addresses.map((a) => a.currency)).not.toContain("TRX");
      expectTrpcRefusal(
        await submitDeposit(h, u.token, { currency: "TRX", chain: "TRC20", amount: "100" }),
        "DEPOSIT_ADDRESS_MISSING",
      );
    } finally {
      await setDepositAddress(h, op, "TRX", "TRC20", ADDR.TRC20);
    }
  });

  it("refuses a tx hash already claimed, by anyone, until that claim is rejected", async () => {
    const u = await h.registerByEmail();
    const other = await h.registerByEmail();
    const hash = txHash();
    const first = dataOf<Deposit>(await submitDeposit(h, u.token, { amount: "10", tx_hash: hash }));
    expectTrpcRefusal(
      await submitDeposit(h, u.token, { amount: "10", tx_hash: hash }),
      "DEPOSIT_TX_HASH_USED",
    );
    expectTrpcRefusal(
      await submitDeposit(h, other.token, { amount: "10", tx_hash: hash }),
      "DEPOSIT_TX_HASH_USED",
    );
    // A hex hash names the same transaction in upper case.
    expectTrpcRefusal(
      await submitDeposit(h, other.token, { amount: "10", tx_hash: `0x${hash.slice(2).toUpperCase()}` }),
      "DEPOSIT_TX_HASH_USED",
    );
    expectOk(await admin(h, "rejectDeposit", { id: first.id, reason: "no such transaction" }, op));
    const second = dataOf<Deposit>(await submitDeposit(h, u.token, { amount: "10", tx_hash: hash }));
    expect(second.id).not.toBe(first.id);
    expectTrpcRefusal(
      await submitDeposit(h, u.token, { amount: "10", tx_hash: hash }),
      "DEPOSIT_TX_HASH_USED",
    );
  });

  it("refuses a demo account with REAL_ACCOUNT_REQUIRED", async () => {
    const demo = tokenOf(await h.call("tempLogin", { amount: "10000" }, "GET"));
    expectTrpcRefusal(await submitDeposit(h, demo, { amount: "100" }), "REAL_ACCOUNT_REQUIRED");
  });

  it("refuses malformed amounts with AMOUNT_INVALID, naming the field", async () => {
    const u = await h.registerByEmail();
    const proof = await uploadProof(h, u.token);
    for (const amount of ["0", "0.000", "-1", "1e5", "abc", "", "1.0000000000000000001", "1,5", " 12 3"]) {
      const res = await submitDeposit(h, u.token, { amount, proof_upload_id: proof });
      expectTrpcRefusal(res, "AMOUNT_INVALID");
      expect(res.body.error?.message).toBe("Please enter a valid amount");
      expect(res.body.error?.data.field).toBe("amount");
    }
    // More decimals than the currency holds cannot be credited either.
    expectTrpcRefusal(
      await submitDeposit(h, u.token, {
        currency: "BTC",
        chain: "BTC",
        amount: "0.001000001",
        proof_upload_id: proof,
      }),
      "AMOUNT_INVALID",
    );
    expect(dataOf<unknown[]>(await h.trpc("deposit.getMany", {}, u.token, "query"))).toEqual([]);
  });

  it("lists only the user's own deposits, newest first", async () => {
    const a = await h.registerByEmail();
    const b = await h.registerByEmail();
    const a1 = dataOf<Deposit>(await submitDeposit(h, a.token, { amount: "11" }));
    const b1 = dataOf<Deposit>(await submitDeposit(h, b.token, { amount: "22" }));
    const a2 = dataOf<Deposit>(await submitDeposit(h, a.token, { amount: "33" }));
    const listA = dataOf<Deposit[]>(await h.trpc("deposit.getMany", {}, a.token, "query"));
    expect(listA.map((d) => d.id)).toEqual([a2.id, a1.id]);
    const listB = dataOf<Deposit[]>(await h.trpc("deposit.getMany", {}, b.token, "query"));
    expect(listB.map((d) => d.id)).toEqual([b1.id]);
    expect(
      dataOf<Deposit[]>(await h.trpc("deposit.getMany", { page: 2, page_size: 1 }, a.token, "query")).map(
        (d) => d.id,
      ),
    ).toEqual([a1.id]);
  });
});

describe("operator review of deposits", () => {
  it("confirms once: credits the exchange wallet, values it in USDT, and refuses a second confirm", async () => {
    const u = await h.registerByEmail();
    const userId = await userIdOf(h, u.token);
    const d = dataOf<Deposit>(
      await submitDeposit(h, u.token, { currency: "BTC", chain: "BTC", amount: "0.5" }),
    );
    const confirmed = dataOf<Deposit>(await admin(h, "confirmDeposit", { id: d.id }, op));
    expect(confirmed.status).toBe("success");
    expect(await balanceOf(h, userId, "BTC")).toEqual({ available: "0.5", held: "0" });

    const again = await admin(h, "confirmDeposit", { id: d.id }, op);
    expectTrpcRefusal(again, "ALREADY_REVIEWED");
    expectTrpcRefusal(await admin(h, "rejectDeposit", { id: d.id, reason: "late" }, op), "ALREADY_REVIEWED");
    expect(await balanceOf(h, userId, "BTC")).toEqual({ available: "0.5", held: "0" });
    expect(await entriesFor(d.id)).toBe(1);

    const [row] = await query<{ status: string; value_usdt: string; reviewed_by: string }>(
      h,
      "select status, value_usdt::text, reviewed_by::text from deposits where id = $1",
      [d.id],
    );
    expect(row?.status).toBe("success");
    expect(norm(row?.value_usdt)).toBe("45000");
    const user = dataOf<{ id: number }[] | unknown>(await h.trpc("deposit.getMany", {}, u.token, "query"));
    expect(user).toMatchObject([{ id: d.id, status: "success" }]);
  });

  it("lets exactly one of two parallel confirms through", async () => {
    const u = await h.registerByEmail();
    const userId = await userIdOf(h, u.token);
    const d = dataOf<Deposit>(await submitDeposit(h, u.token, { amount: "123.45" }));
    const op2 = await operatorToken(h, "admin");
    const results = await Promise.all([
      admin(h, "confirmDeposit", { id: d.id }, op),
      admin(h, "confirmDeposit", { id: d.id }, op2),
    ]);
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expectTrpcRefusal(refused[0] as (typeof results)[number], "ALREADY_REVIEWED");
    expect(await balanceOf(h, userId)).toEqual({ available: "123.45", held: "0" });
    expect(await entriesFor(d.id)).toBe(1);
  });

  it("rejects: failed with the reason, nothing credited, and no later confirm", async () => {
    const u = await h.registerByEmail();
    const userId = await userIdOf(h, u.token);
    const d = dataOf<Deposit>(await submitDeposit(h, u.token, { amount: "50" }));
    expectOk(await admin(h, "rejectDeposit", { id: d.id, reason: "proof unreadable" }, op));
    expectTrpcRefusal(await admin(h, "confirmDeposit", { id: d.id }, op), "ALREADY_REVIEWED");
    expect(await balanceOf(h, userId)).toEqual({ available: "0", held: "0" });
    expect(await entriesFor(d.id)).toBe(0);
    expect(dataOf(await h.trpc("deposit.getMany", {}, u.token, "query"))).toMatchObject([
      { id: d.id, status: "failed", rejectReason: "proof unreadable" },
    ]);
    expectTrpcRefusal(await admin(h, "confirmDeposit", { id: 999_999 }, op), "NOT_FOUND");
    expectTrpcRefusal(await admin(h, "rejectDeposit", { id: 999_999, reason: "x" }, op), "NOT_FOUND");
  });

  it("checks the operator's role and session", async () => {
    const u = await h.registerByEmail();
    const d = dataOf<Deposit>(await submitDeposit(h, u.token, { amount: "10" }));
    const support = await operatorToken(h, "support");
    const content = await operatorToken(h, "content");
    for (const token of [support, content]) {
      const res = await admin(h, "confirmDeposit", { id: d.id }, token);
      expectTrpcRefusal(res, "FORBIDDEN");
      expect(res.body.error?.message).toBe(translate("en", "errors.FORBIDDEN"));
      expectTrpcRefusal(await admin(h, "rejectDeposit", { id: d.id, reason: "x" }, token), "FORBIDDEN");
      expectTrpcRefusal(
        await admin(h, "setDepositAddress", { currency: "USDT", chain: "ERC20", address: ADDR.ERC20 }, token),
        "FORBIDDEN",
      );
    }
    expectTrpcRefusal(await admin(h, "confirmDeposit", { id: d.id }, undefined), "LOGIN_REQUIRED", {
      responseCode: 2000,
    });
    // A user's session is not an operator's.
    expectTrpcRefusal(await admin(h, "confirmDeposit", { id: d.id }, u.token), "LOGIN_REQUIRED", {
      responseCode: 2000,
    });
    expect(dataOf(await h.trpc("deposit.getMany", {}, u.token, "query"))).toMatchObject([
      { status: "pending" },
    ]);
  });

  it("writes an audit row for every confirm and reject, naming the operator", async () => {
    const u = await h.registerByEmail();
    const [d1, d2] = [
      dataOf<Deposit>(await submitDeposit(h, u.token, { amount: "10" })),
      dataOf<Deposit>(await submitDeposit(h, u.token, { amount: "20" })),
    ];
    const me = dataOf<{ id: number }>(await admin(h, "me", undefined, op, "query"));
    expectOk(await admin(h, "confirmDeposit", { id: d1.id }, op));
    expectOk(await admin(h, "rejectDeposit", { id: d2.id, reason: "duplicate" }, op));
    const rows = await query<{
      actor: string;
      action: string;
      subject: string;
      details: Record<string, unknown>;
    }>(
      h,
      "select actor, action, subject, details from audit_log where subject in ($1, $2) and action like 'deposit.%' order by id",
      [String(d1.id), String(d2.id)],
    );
    expect(rows).toEqual([
      {
        actor: `operator:${me.id}`,
        action: "deposit.confirm",
        subject: String(d1.id),
        details: expect.objectContaining({ currency: "USDT" }),
      },
      {
        actor: `operator:${me.id}`,
        action: "deposit.reject",
        subject: String(d2.id),
        details: { reason: "duplicate" },
      },
    ]);
    // A refused second review writes nothing.
    expectTrpcRefusal(await admin(h, "confirmDeposit", { id: d1.id }, op), "ALREADY_REVIEWED");
    const [count] = await query<{ n: number }>(
      h,
      "select count(*)::int as n from audit_log where subject = $1 and action like 'deposit.%'",
      [String(d1.id)],
    );
    expect(count?.n).toBe(1);
    await expectLedgerBalanced(h);
  });
});
