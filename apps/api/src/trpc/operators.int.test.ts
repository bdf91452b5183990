import { randomBytes } from "node:crypto";
import { upsertOperator } from "@northstar/domain/admin";
import { getPolicy } from "@northstar/domain/policy";
import {
  can,
  OPERATOR_ROLES,
  type OperatorRole,
  PERMISSION_NAMES,
  type Permission,
} from "@northstar/shared/operators";
import { authenticator } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCli } from "../test/cli.ts";
import { expectTrpcRefusal, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import { dataOf, signInOperator, type TrpcResult } from "../test/money.ts";
import { appRouter } from "./router.ts";

/**
 * Operators: the one permission table enforced on every admin procedure, two-factor sign-in,
 * lockout, sessions, and the operator commands of `pnpm admin`.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

/** The namespaces of the back office's API. */
const ADMIN_NAMESPACES = [
  "admin",
  "adminEarn",
  "adminLaunchpad",
  "optionsAdmin",
  "adminProofs",
  "adminLoans",
  "c2cAdmin",
  "contractsAdmin",
  "referralAdmin",
  "rewardsAdmin",
  "contentAdmin",
  "apiKeysAdmin",
];
/** The only admin procedure open without an operator session. */
const PUBLIC_ADMIN = ["admin.login"];

type ProcDef = { _def: { type: "query" | "mutation" | "subscription"; meta?: { permission?: Permission } } };
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, ProcDef>).map(
  ([path, p]) => ({
    path,
    type: p._def.type,
    permission: p._def.meta?.permission,
  }),
);
const adminProcedures = procedures.filter(
  (p) => ADMIN_NAMESPACES.includes(p.path.split(".")[0] ?? "") && !PUBLIC_ADMIN.includes(p.path),
);

/** Calls any procedure over HTTP as the back office does. */
async function call(
  path: string,
  type: "query" | "mutation",
  input: unknown,
  opToken?: string,
  remoteAddress = "10.9.0.1",
): Promise<TrpcResult> {
  const headers: Record<string, string> = opToken ? { "x-operator-token": opToken } : {};
  const res =
    type === "mutation"
      ? await h.app.inject({
          method: "POST",
          url: `/trpc/${path}`,
          payload: JSON.stringify(input ?? {}),
          headers: { ...headers, "content-type": "application/json" },
          remoteAddress,
        })
      : await h.app.inject({
          method: "GET",
          url: `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input ?? {}))}`,
          headers,
          remoteAddress,
        });
  return { status: res.statusCode, body: res.json() };
}

const login = (input: { username: string; password: string; code?: string }, address?: string) =>
  call("admin.login", "mutation", input, undefined, address);

/** Every table's contents as one digest per table (the audit log aside, which records refusals). */
async function snapshot(): Promise<Record<string, string>> {
  const tables = await query<{ name: string }>(
    h,
    "select tablename as name from pg_tables where schemaname = 'public' and tablename <> 'audit_log' order by tablename",
  );
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await query<{ digest: string }>(
      h,
      `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from "${name}" t`,
    );
    out[name] = row?.digest ?? "";
  }
  return out;
}

/** A code of the step `offset` steps from now (the window accepts one step either side). */
const codeAt = (secret: string, offset = 0) =>
  authenticator.clone({ epoch: Date.now() + offset * 30_000 }).generate(secret);

async function newOperator(role: OperatorRole) {
  const username = `${role}-${randomBytes(3).toString("hex")}`;
  const password = randomBytes(12).toString("base64url");
  const { id } = await upsertOperator(h.db, { username, password, role, actor: "test" });
  return { id, username, password };
}

describe("the permission table covers every admin procedure", () => {
  it("finds a declared, known permission on every admin procedure, and none outside the back office", () => {
    expect(adminProcedures.length).toBeGreaterThan(80);
    const missing = adminProcedures.filter((p) => !p.permission || !PERMISSION_NAMES.includes(p.permission));
    expect(missing.map((p) => p.path)).toEqual([]);
    const outside = procedures.filter((p) => p.permission && !adminProcedures.includes(p));
    expect(outside.map((p) => p.path)).toEqual([]);
  });

  it("refuses, for every role, every procedure whose permission the role lacks, changing nothing", {
    timeout: 180_000,
  }, async () => {
    const tokens = {} as Record<OperatorRole, string>;
    for (const role of OPERATOR_ROLES) {
      tokens[role] = (await signInOperator(h, role)).token;
    }
    const before = await snapshot();
    const [{ count: auditBefore } = { count: 0 }] = await query<{ count: number }>(
      h,
      "select count(*)::int as count from audit_log where action = 'operator.forbidden'",
    );
    let refused = 0;
    const wrong: string[] = [];
    for (const role of OPERATOR_ROLES) {
      for (const p of adminProcedures) {
        // An allowed mutation would do its work (sign out, run a job): only allowed queries are called.
        if (
          p.type === "subscription" ||
          !p.permission ||
          (can(role, p.permission) && p.type === "mutation")
        ) {
          continue;
        }
        const res = await call(p.path, p.type, {}, tokens[role]);
        const code = res.body.error?.data?.errorCode;
        if (!can(role, p.permission)) {
          refused += 1;
          if (code !== "FORBIDDEN") {
            wrong.push(`${role} ${p.path}: ${code ?? "ok"}`);
          }
        } else if (code === "FORBIDDEN" || code === "LOGIN_REQUIRED") {
          wrong.push(`${role} ${p.path} (allowed): ${code}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    // Every role lacks something, and a refusal is reported with the translated text.
    expect(refused).toBeGreaterThan(200);
    expectTrpcRefusal(await call("admin.setPolicy", "mutation", {}, tokens.support), "FORBIDDEN");
    refused += 1;
    const after = await snapshot();
    expect(after).toEqual(before);
    const [{ count: auditAfter } = { count: 0 }] = await query<{ count: number }>(
      h,
      "select count(*)::int as count from audit_log where action = 'operator.forbidden'",
    );
    expect(auditAfter - auditBefore).toBe(refused);
  });

  it("refuses every admin procedure without an operator session", async () => {
    for (const p of adminProcedures.slice(0, 20)) {
      if (p.type === "subscription") {
        continue;
      }
      const res = await call(p.path, p.type, {}, `not-a-token-${p.path}`);
      expect(res.body.error?.data?.errorCode, p.path).toBe("LOGIN_REQUIRED");
    }
  });
});

describe("two-factor sign-in", () => {
  it("sends finance and admin to enrolment first: nothing else until a first code is proved", async () => {
    for (const role of ["finance", "admin"] as const) {
      const op = await newOperator(role);
      const first = dataOf<{ token: string; enrolmentRequired: boolean }>(await login(op));
      expect(first.enrolmentRequired).toBe(true);
      expect(dataOf(await call("admin.me", "query", undefined, first.token))).toMatchObject({
        role,
        enrolmentRequired: true,
      });
      expectTrpcRefusal(
        await call("admin.user", "query", { query: "x@y.z" }, first.token),
        "OPERATOR_ENROLMENT_REQUIRED",
      );
      expectTrpcRefusal(
        await call("admin.account.sessions", "query", {}, first.token),
        "OPERATOR_ENROLMENT_REQUIRED",
      );
      const { secret, uri } = dataOf<{ secret: string; uri: string }>(
        await call("admin.account.startTwoFactor", "mutation", {}, first.token),
      );
      expect(uri).toMatch(/^otpauth:\/\/totp\//);
      expect(uri).toContain(secret);
      const wrongCode = codeAt(secret) === "000000" ? "111111" : "000000";
      expectTrpcRefusal(
        await call("admin.account.confirmTwoFactor", "mutation", { code: wrongCode }, first.token),
        "OPERATOR_TOTP_WRONG",
      );
      const enrolCode = codeAt(secret);
      dataOf(await call("admin.account.confirmTwoFactor", "mutation", { code: enrolCode }, first.token));
      // The same session now works.
      expect(dataOf(await call("admin.me", "query", undefined, first.token))).toMatchObject({
        enrolmentRequired: false,
      });
      expect(await call("admin.account.sessions", "query", {}, first.token)).toMatchObject({ status: 200 });
      // From now on the password alone is not enough; the code used to enrol is spent.
      expectTrpcRefusal(await login(op), "OPERATOR_TOTP_REQUIRED");
      expectTrpcRefusal(await login({ ...op, code: enrolCode }), "OPERATOR_TOTP_USED");
      const second = dataOf<{ token: string; enrolmentRequired: boolean }>(
        await login({ ...op, code: codeAt(secret, 1) }),
      );
      expect(second.enrolmentRequired).toBe(false);
      const audit = await query<{ action: string }>(
        h,
        "select action from audit_log where actor = $1 and action in ('operator.totp_enrolled', 'operator.login') order by id",
        [`operator:${op.id}`],
      );
      expect(audit.map((a) => a.action)).toEqual([
        "operator.login",
        "operator.totp_enrolled",
        "operator.login",
      ]);
    }
  });

  it("lets a support operator in with the password alone, and never stores the secret in clear", async () => {
    const op = await newOperator("support");
    const res = dataOf<{ token: string; enrolmentRequired: boolean }>(await login(op));
    expect(res.enrolmentRequired).toBe(false);
    expect(await call("admin.user", "query", { query: "nobody@example.com" }, res.token)).toMatchObject({
      body: { error: { data: { errorCode: "NOT_FOUND" } } },
    });
    const { secret } = dataOf<{ secret: string }>(
      await call("admin.account.startTwoFactor", "mutation", {}, res.token),
    );
    const [row] = await query<{ secret: string }>(
      h,
      "select secret from operator_totp where operator_id = $1",
      [op.id],
    );
    expect(row?.secret).toMatch(/^v1:/);
    expect(row?.secret).not.toContain(secret);
    // The audit entry of the call does not hold the secret either.
    const entries = await query<{ details: unknown }>(h, "select details from audit_log where actor = $1", [
      `operator:${op.id}`,
    ]);
    expect(JSON.stringify(entries)).not.toContain(secret);
  });

  it("locks the operator out after the policy's wrong codes, even with the right code, until the lock ends", async () => {
    const s = await signInOperator(h, "finance");
    const max = Number(await getPolicy(h.db, "security.operatorLogin.maxFailures"));
    const secret = s.secret ?? "";
    const right = codeAt(secret, 1);
    const wrongCode = right === "000000" ? "111111" : "000000";
    for (let i = 0; i < max; i++) {
      expectTrpcRefusal(
        await login({ username: s.username, password: s.password, code: wrongCode }, `10.8.0.${i}`),
        "OPERATOR_TOTP_WRONG",
      );
    }
    const locked = await login({ username: s.username, password: s.password, code: right }, "10.8.1.1");
    expect(locked.body.error?.data?.errorCode).toBe("OPERATOR_LOCKED");
    const sessions = await query<{ count: number }>(
      h,
      "select count(*)::int as count from operator_sessions where operator_id = $1",
      [s.id],
    );
    expect(sessions[0]?.count).toBe(1);
    // The lock ends (moved back in the database, as the clock would): the right code works again.
    await query(
      h,
      "update secret_attempts set locked_until = now() - interval '1 second' where subject = $1",
      [`operator-totp:${s.id}`],
    );
    expect(
      dataOf(await login({ username: s.username, password: s.password, code: right }, "10.8.1.2")),
    ).toHaveProperty("token");
  });

  it("refuses a replayed code, and of two sign-ins at once with one code only one gets in", async () => {
    const s = await signInOperator(h, "admin");
    const secret = s.secret ?? "";
    const code = codeAt(secret, 1);
    const results = await Promise.all(
      [1, 2, 3].map((i) => login({ username: s.username, password: s.password, code }, `10.7.0.${i}`)),
    );
    const codes = results.map((r) => r.body.error?.data?.errorCode ?? "ok").sort();
    expect(codes).toEqual(["OPERATOR_TOTP_USED", "OPERATOR_TOTP_USED", "ok"]);
    expectTrpcRefusal(
      await login({ username: s.username, password: s.password, code }),
      "OPERATOR_TOTP_USED",
    );
  });
});

describe("sessions", () => {
  it("lists an operator's own sessions, revokes one of them, and reaches no one else's", async () => {
    const op = await newOperator("support");
    const a = dataOf<{ token: string }>(await login(op)).token;
    const b = dataOf<{ token: string }>(await login(op)).token;
    const list = dataOf<{ id: number; current: boolean; address: string }[]>(
      await call("admin.account.sessions", "query", {}, a),
    );
    expect(list).toHaveLength(2);
    expect(list.filter((x) => x.current)).toHaveLength(1);
    const other = list.find((x) => !x.current);
    const stranger = await signInOperator(h, "compliance");
    expectTrpcRefusal(
      await call("admin.account.revokeSession", "mutation", { id: other?.id }, stranger.token),
      "NOT_FOUND",
    );
    expect(await call("admin.me", "query", undefined, b)).toMatchObject({ status: 200 });
    dataOf(await call("admin.account.revokeSession", "mutation", { id: other?.id }, a));
    expect((await call("admin.me", "query", undefined, b)).body.error?.data?.errorCode).toBe(
      "LOGIN_REQUIRED",
    );
    expect(await call("admin.me", "query", undefined, a)).toMatchObject({ status: 200 });
    // Signing out ends the session asking.
    dataOf(await call("admin.account.signOut", "mutation", {}, a));
    expect((await call("admin.me", "query", undefined, a)).body.error?.data?.errorCode).toBe(
      "LOGIN_REQUIRED",
    );
  });

  it("lets an administrator end another's sessions, and a disabled operator's sessions die at once", async () => {
    const boss = await signInOperator(h, "admin");
    const op = await newOperator("risk");
    const t1 = dataOf<{ token: string }>(await login(op)).token;
    expect(await call("admin.reconcile", "query", undefined, t1)).toMatchObject({ status: 200 });
    expect(
      dataOf(await call("admin.operators.revokeSessions", "mutation", { username: op.username }, boss.token)),
    ).toEqual({ sessionsEnded: 1 });
    expect((await call("admin.me", "query", undefined, t1)).body.error?.data?.errorCode).toBe(
      "LOGIN_REQUIRED",
    );

    const t2 = dataOf<{ token: string }>(await login(op)).token;
    expect(
      dataOf(
        await call(
          "admin.operators.setStatus",
          "mutation",
          { username: op.username, status: "disabled" },
          boss.token,
        ),
      ),
    ).toMatchObject({ status: "disabled", sessionsEnded: 1 });
    expect((await call("admin.me", "query", undefined, t2)).body.error?.data?.errorCode).toBe(
      "LOGIN_REQUIRED",
    );
    expectTrpcRefusal(await login(op), "OPERATOR_LOGIN_WRONG");
    // An administrator cannot disable themselves.
    expectTrpcRefusal(
      await call(
        "admin.operators.setStatus",
        "mutation",
        { username: boss.username, status: "disabled" },
        boss.token,
      ),
      "OPERATOR_SELF_CHANGE",
    );
    // The administrator sees their own recent actions, with the state before and after.
    const mine = dataOf<{ action: string; subject: string; details: Record<string, unknown> }[]>(
      await call("admin.account.actions", "query", {}, boss.token),
    );
    const disable = mine.find((x) => x.action === "operator.disable");
    expect(disable).toMatchObject({
      subject: op.username,
      details: { before: { status: "active" }, after: { status: "disabled" } },
    });
    expect(mine.map((x) => x.action)).toContain("api:admin.operators.setStatus");
  });
});

describe("pnpm admin operator:add|role|disable", { timeout: 120_000 }, () => {
  it("adds an operator with a password shown once, changes its role and disables it, all audited", async () => {
    const username = `cli-${randomBytes(3).toString("hex")}`;
    const added = await runAdminCli(h, "operator:add", username, "support");
    expect(added.code, added.stderr).toBe(0);
    const password = /password: (\S+)/.exec(added.stdout)?.[1] ?? "";
    expect(password.length).toBeGreaterThanOrEqual(18);
    const again = await runAdminCli(h, "operator:add", username, "support");
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("OPERATOR_EXISTS");
    const bad = await runAdminCli(h, "operator:add", `${username}x`, "superuser");
    expect(bad.code).toBe(2);

    const token = dataOf<{ token: string }>(await login({ username, password })).token;
    expectTrpcRefusal(await call("admin.reconcile", "query", undefined, token), "FORBIDDEN");
    const role = await runAdminCli(h, "operator:role", username, "risk");
    expect(role.code, role.stderr).toBe(0);
    // The new role applies to the live session at once.
    expect(await call("admin.reconcile", "query", undefined, token)).toMatchObject({ status: 200 });

    const disabled = await runAdminCli(h, "operator:disable", username);
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(disabled.stdout).toContain("sessions ended: 1");
    expect((await call("admin.me", "query", undefined, token)).body.error?.data?.errorCode).toBe(
      "LOGIN_REQUIRED",
    );
    const unknown = await runAdminCli(h, "operator:disable", `nobody-${randomBytes(3).toString("hex")}`);
    expect(unknown.code).toBe(1);

    const audit = await query<{ actor: string; action: string; details: Record<string, unknown> }>(
      h,
      "select actor, action, details from audit_log where subject = $1 and action like 'operator.%' order by id",
      [username],
    );
    expect(audit.filter((a) => a.action !== "operator.login")).toEqual([
      {
        actor: "cli",
        action: "operator.create",
        details: { before: null, after: { role: "support", status: "active" } },
      },
      {
        actor: "cli",
        action: "operator.role",
        details: { before: { role: "support" }, after: { role: "risk" } },
      },
      {
        actor: "cli",
        action: "operator.disable",
        details: { before: { status: "active" }, after: { status: "disabled" }, sessionsEnded: 1 },
      },
    ]);
  });
});
