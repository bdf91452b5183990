import { transferBetweenWallets } from "@northstar/domain/funding";
import { ZTransferRequestSchema } from "@northstar/shared/contracts/funding";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectRefusal, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import { balanceOf, grant, userIdOf } from "../test/money.ts";
import { defineLegacyCall, type Envelope, registerLegacyCall } from "./define.ts";

/**
 * A legacy money call declared with `once` runs once per (user, rtoken): the rtoken every old
 * client sends makes a resent call answer its first result. The call here is a wallet transfer,
 * registered on an app of its own as a money call of SPEC section 7 would be.
 */
const transferCall = defineLegacyCall({
  name: "testTransfer",
  auth: "required",
  once: "testTransfer",
  input: ZTransferRequestSchema,
  async handle(ctx, input) {
    const user = ctx.auth?.user;
    if (!user) {
      throw new Error("auth required");
    }
    return { data: await transferBetweenWallets(ctx.deps.db, user, input, ctx.once) };
  },
});

let h: Harness;
let app: FastifyInstance;
beforeAll(async () => {
  h = await createHarness();
  app = Fastify();
  registerLegacyCall(app, h.deps, transferCall);
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await h?.close();
});

async function send(fields: Record<string, string>): Promise<Envelope> {
  const res = await app.inject({ method: "GET", url: `/web/testTransfer?${new URLSearchParams(fields)}` });
  return res.json() as Envelope;
}

describe("a legacy money call with `once`", () => {
  it("applies a resent call with the same rtoken once and answers the first result", async () => {
    const u = await h.registerByEmail();
    const userId = await userIdOf(h, u.token);
    await grant(h, userId, "1000");
    const fields = { token: u.token, from: "exchange", to: "contract", currency: "USDT", amount: "100" };
    const first = await send({ ...fields, rtoken: "abc123xyz" });
    const again = await send({ ...fields, rtoken: "abc123xyz" });
    expect(first.code, first.message).toBe(0);
    expect(again.data).toEqual(first.data);
    expect(await balanceOf(h, userId, "USDT", "contract")).toEqual({ available: "100", held: "0" });

    // Another rtoken is another intent; the same rtoken with another amount is refused by name.
    expect((await send({ ...fields, rtoken: "other12345" })).code).toBe(0);
    const changed = await send({ ...fields, amount: "5", rtoken: "abc123xyz", lang: "zh" });
    expectRefusal(changed, "IDEMPOTENCY_KEY_REUSED", { lang: "zh" });
    expect(changed.data).toMatchObject({ field: "rtoken" });
    const [row] = await query<{ n: number }>(
      h,
      "select count(*)::int as n from wallet_transfers where user_id = $1",
      [userId],
    );
    expect(row?.n).toBe(2);
    expect(await balanceOf(h, userId, "USDT", "contract")).toEqual({ available: "200", held: "0" });
  });
});
