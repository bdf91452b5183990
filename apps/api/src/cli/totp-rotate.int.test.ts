import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { confirmOperatorTotp, startOperatorTotp, verifyOperatorCode } from "@northstar/domain/admin";
import {
  loadTotpKeyring,
  parseTotpKey,
  reencryptTotpSecrets,
  TotpKeyring,
  useTotpKeyring,
  verifyGoogleCode,
} from "@northstar/domain/identity";
import { authenticator } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCli } from "../test/cli.ts";
import { expectOk, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import { dataOf, userIdOf } from "../test/money.ts";

/**
 * Google Authenticator secrets at rest: encrypted in the table, clear rows of before encrypted at
 * start, and `pnpm admin totp:rotate-key` moving every secret to a new key with codes still working.
 */
let h: Harness;
let dataDir: string;
const keyEnv = ["DATA_DIR", "TOTP_ENCRYPTION_KEY", "TOTP_ENCRYPTION_PREVIOUS_KEYS"] as const;
// Put back as found: test files share their process.
const savedEnv = keyEnv.map((key) => [key, process.env[key]] as const);
beforeAll(async () => {
  h = await createHarness();
  dataDir = mkdtempSync(join(tmpdir(), "northstar-data-"));
  // The CLI child inherits these: the key file in a directory of this test's own.
  process.env.DATA_DIR = dataDir;
  delete process.env.TOTP_ENCRYPTION_KEY;
  delete process.env.TOTP_ENCRYPTION_PREVIOUS_KEYS;
});
afterAll(async () => {
  await h?.close();
  rmSync(dataDir, { recursive: true, force: true });
  for (const [key, value] of savedEnv) {
    if (value === undefined) {
      delete process.env[key];
    } else {
      process.env[key] = value;
    }
  }
});

const codeAt = (secret: string, offset: number) =>
  authenticator.clone({ epoch: Date.now() + offset * 30_000 }).generate(secret);
const storedSecrets = () =>
  query<{ user_id: number; secret: string }>(h, "select user_id, secret from user_totp order by user_id");

describe("TOTP secrets at rest", { timeout: 120_000 }, () => {
  it("are stored encrypted, clear ones are encrypted at start, and rotation keeps codes working", async () => {
    useTotpKeyring(loadTotpKeyring({ dataDir }));
    const u = await h.registerByEmail();
    const userId = await userIdOf(h, u.token);
    const { secret } = dataOf<{ secret: string }>(await h.trpc("googleAuth.start", undefined, u.token));
    const [started] = await storedSecrets();
    expect(started?.secret).toMatch(/^v1:[0-9a-f]{8}:/);
    expect(started?.secret).not.toContain(secret);
    expectOk(await h.trpc("googleAuth.confirm", { code: codeAt(secret, 0) }, u.token));

    // A row from before secrets were encrypted, as an older version stored it.
    const legacy = await h.registerByEmail();
    const legacyId = await userIdOf(h, legacy.token);
    const legacySecret = authenticator.generateSecret(20);
    await query(h, "insert into user_totp (user_id, secret, enabled_at) values ($1, $2, now())", [
      legacyId,
      legacySecret,
    ]);
    expect(await reencryptTotpSecrets(h.db, loadTotpKeyring({ dataDir }), { onlyClear: true })).toEqual({
      total: 1,
      changed: 1,
    });
    for (const row of await storedSecrets()) {
      expect(row.secret).toMatch(/^v1:[0-9a-f]{8}:/);
      expect(row.secret).not.toContain(row.user_id === userId ? secret : legacySecret);
    }

    // An operator's second factor, under the same keyring (operator scope).
    const [op] = await query<{ id: number }>(h, "select id from operators where username = 'admin'");
    const operatorId = op?.id ?? 0;
    const operatorSecret = (await startOperatorTotp(h.db, operatorId, "Northstar")).secret;
    await confirmOperatorTotp(h.db, operatorId, codeAt(operatorSecret, 0));

    const run = await runAdminCli(h, "totp:rotate-key");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("2 of 2 secrets re-encrypted, 1 of 1 operators' secrets");
    const keys = readFileSync(join(dataDir, "totp-keys"), "utf8").trim().split("\n");
    expect(keys).toHaveLength(2);
    // Only the new key from here on: nothing may still need the old one.
    const onlyNew = new TotpKeyring([parseTotpKey(keys[0] ?? "")]);
    useTotpKeyring(onlyNew);
    for (const row of await storedSecrets()) {
      expect(row.secret.startsWith(`v1:${onlyNew.currentId}:`)).toBe(true);
    }
    await verifyGoogleCode(h.db, userId, codeAt(secret, 1));
    await verifyGoogleCode(h.db, legacyId, codeAt(legacySecret, 0));
    const [operatorRow] = await query<{ secret: string }>(
      h,
      "select secret from operator_totp where operator_id = $1",
      [operatorId],
    );
    expect(operatorRow?.secret.startsWith(`v1:${onlyNew.currentId}:`)).toBe(true);
    await verifyOperatorCode(h.db, operatorId, codeAt(operatorSecret, 1));
    const audit = await query<{ details: { key: string; reencrypted: number } }>(
      h,
      "select details from audit_log where action = 'totp.rotate_key' and actor = 'cli'",
    );
    expect(audit).toEqual([
      {
        details: expect.objectContaining({ key: onlyNew.currentId, reencrypted: 2, operatorsReencrypted: 1 }),
      },
    ]);
  });

  it("a rotation that meets a secret under a key it lacks changes nothing", async () => {
    const before = await storedSecrets();
    const stranger = new TotpKeyring([parseTotpKey(Buffer.alloc(32, 1).toString("base64"))]);
    await expect(reencryptTotpSecrets(h.db, stranger)).rejects.toThrow(/not configured/);
    expect(await storedSecrets()).toEqual(before);
  });
});
