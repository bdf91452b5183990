import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { LiabilityProof } from "@northstar/shared/proofs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCli } from "../test/cli.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import { grant, userIdOf } from "../test/money.ts";

/**
 * The proof of liabilities through the API, the operator CLI and the standalone verifier: an
 * operator publishes, anyone lists the roots and totals, a user fetches their own proof, and
 * `pnpm verify-proof` accepts it as downloaded and refuses it changed by one cent.
 */
const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

const resultOf = <T>(r: { body: unknown }): T => (r.body as { result?: { data: T } }).result?.data as T;
const verify = (file: string) =>
  new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "scripts/verify-proof.ts", file],
      { cwd: ROOT, timeout: 60_000 },
      (error, stdout) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout }),
    );
  });

// The CLI and the verifier each start node with tsx; on a busy machine that alone can take seconds.
describe("proof of liabilities through the API", { timeout: 120_000 }, () => {
  it("publishes from the CLI; a user's own proof verifies in the standalone verifier and a changed one does not", async () => {
    const alice = await h.registerByEmail();
    const bob = await h.registerByEmail();
    await grant(h, await userIdOf(h, alice.token), "1234.56");
    await grant(h, await userIdOf(h, bob.token), "10");
    // Before any proof: a translated refusal.
    const none = await h.trpc("proofs.mine", {}, alice.token, "query");
    expect(JSON.stringify(none.body)).toContain("PROOF_NOT_FOUND");
    const published = await runAdminCli(h, "proof:publish");
    expect(published.code).toBe(0);
    const list = resultOf<
      {
        id: number;
        totals: { currency: string; total: string; buckets: { bucket: string; amount: string }[] }[];
      }[]
    >(await h.trpc("proofs.list", undefined, undefined, "query"));
    const usdt = list[0]?.totals.find((t) => t.currency === "USDT");
    expect(usdt?.total).toBe("1244.56");
    // The totals by bucket: all of it free to use here.
    expect(usdt?.buckets.find((b) => b.bucket === "available")).toEqual({
      bucket: "available",
      amount: "1244.56",
    });
    expect(usdt?.buckets.filter((b) => b.amount !== "0").length).toBe(1);
    const mine = resultOf<LiabilityProof>(await h.trpc("proofs.mine", {}, alice.token, "query"));
    expect(mine.leaf.balances[mine.currencies.indexOf("USDT")]).toBe("1234.56");
    const file = join(tmpdir(), `proof-${Date.now()}.json`);
    writeFileSync(file, JSON.stringify(mine));
    const ok = await verify(file);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("VERIFIED");
    const changed = {
      ...mine,
      leaf: { ...mine.leaf, balances: mine.leaf.balances.map((b) => (b === "1234.56" ? "1234.57" : b)) },
    };
    writeFileSync(file, JSON.stringify(changed));
    const bad = await verify(file);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain("FAILED");
    // Another user's proof is theirs alone: asking without a session is refused.
    const anonymous = await h.trpc("proofs.mine", {}, undefined, "query");
    expect(anonymous.status).toBeGreaterThanOrEqual(400);
  });
});
