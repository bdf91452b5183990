import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorText, expectOk, expectTrpcRefusal, query, tokenOf } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import {
  ADDR,
  admin,
  balanceOf,
  dataOf,
  norm,
  operatorToken,
  setDepositAddress,
  submitDeposit,
  txHash,
  uploadProof,
  userIdOf,
} from "../test/money.ts";

/** What a user sees and submits: deposit options, and every refusal of deposit.create. */
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

  it("normalises a tx hash per chain before the uniqueness check: 0x, case, spaces and invisible characters", async () => {
    const u = await h.registerByEmail();
    const other = await h.registerByEmail();
    const hex = txHash().slice(2);
    const first = dataOf<Deposit & { txHash: string }>(
      await submitDeposit(h, u.token, { amount: "10", tx_hash: `0x${hex.toUpperCase()}` }),
    );
    expect(first.txHash).toBe(`0x${hex}`);
    for (const variant of [
      hex,
      ` ${hex}\u200b`,
      `\ufeff0X${hex}\u00a0`,
      `${hex.slice(0, 30)} ${hex.slice(30)}`,
    ]) {
      const res = await submitDeposit(h, other.token, { amount: "10", tx_hash: variant });
      expectTrpcRefusal(res, "DEPOSIT_TX_HASH_USED");
      expect(res.body.error?.data.field).toBe("tx_hash");
    }
    // TRON and Bitcoin ids are bare hex: a pasted 0x or upper case names the same transaction.
    const tron = txHash().slice(2);
    const trx = dataOf<Deposit & { txHash: string }>(
      await submitDeposit(h, u.token, {
        currency: "TRX",
        chain: "TRC20",
        amount: "10",
        tx_hash: tron.toUpperCase(),
      }),
    );
    expect(trx.txHash).toBe(tron);
    expectTrpcRefusal(
      await submitDeposit(h, other.token, {
        currency: "TRX",
        chain: "TRC20",
        amount: "10",
        tx_hash: `0x${tron}`,
      }),
      "DEPOSIT_TX_HASH_USED",
    );
    expect(dataOf<unknown[]>(await h.trpc("deposit.getMany", {}, other.token, "query"))).toEqual([]);
  });

  it("refuses a tx hash that is not in its chain's format, naming the field in the user's language", async () => {
    const u = await h.registerByEmail();
    const hex = txHash().slice(2);
    const bad: [string, string, string][] = [
      ["USDT", "ERC20", hex.slice(1)],
      ["USDT", "ERC20", `0x${hex}00`],
      ["USDT", "ERC20", `0x${hex.slice(1)}g`],
      ["USDT", "ERC20", "hello"],
      ["BTC", "BTC", `${hex.slice(2)}`],
      ["TRX", "TRC20", `T${hex.slice(1)}`],
    ];
    for (const [currency, chain, tx_hash] of bad) {
      const res = await submitDeposit(h, u.token, { currency, chain, amount: "10", tx_hash });
      expectTrpcRefusal(res, "TX_HASH_FORMAT", { params: { chain } });
      expect(res.body.error?.data.field).toBe("tx_hash");
    }
    const jp = await h.app.inject({
      method: "POST",
      url: "/trpc/deposit.create",
      headers: { authorization: `Bearer ${u.token}`, "content-type": "application/json", lang: "jp" },
      payload: JSON.stringify({
        currency: "USDT",
        chain: "ERC20",
        amount: "10",
        tx_hash: "0x1234",
        proof_upload_id: await uploadProof(h, u.token),
      }),
    });
    expect(jp.json().error.message).toBe(errorText("TX_HASH_FORMAT", "jp", { chain: "ERC20" }));
    expect(dataOf<unknown[]>(await h.trpc("deposit.getMany", {}, u.token, "query"))).toEqual([]);
  });

  it("accepts one of several parallel claims of the same tx hash", async () => {
    const u = await h.registerByEmail();
    const proof = await uploadProof(h, u.token);
    const hash = txHash();
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        submitDeposit(h, u.token, { amount: "10", tx_hash: hash, proof_upload_id: proof }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expectTrpcRefusal(r, "DEPOSIT_TX_HASH_USED");
    }
    expect(dataOf<unknown[]>(await h.trpc("deposit.getMany", {}, u.token, "query"))).toHaveLength(1);
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
      "AMOUNT_TOO_PRECISE",
      { params: { field: "Amount", decimals: 8 } },
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
