import { randomBytes } from "node:crypto";
import { translate } from "@northstar/shared/i18n";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCli } from "../test/cli.ts";
import { expectTrpcRefusal, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import { admin, dataOf, operatorToken, PNG, uploadProof } from "../test/money.ts";

/**
 * Verification through the API: the application state machines, photos (type, size, privacy), the
 * gates' translated refusals, the questionnaire, the credit score, the back-office queue and the CLI.
 */
const logLines: string[] = [];
let h: Harness;
let op: string;
beforeAll(async () => {
  h = await createHarness({ logStream: { write: (line) => logLines.push(line) } });
  op = await operatorToken(h, "compliance");
});
afterAll(async () => {
  await h?.close();
});

type App = {
  id: number;
  level: string;
  status: string;
  rejectReason: string | null;
  rejectNote: string | null;
  details: Record<string, unknown>;
};
type User = { token: string };
const photo = (u: User) => uploadProof(h, u.token);
const passport = () => `P${randomBytes(4).toString("hex").toUpperCase().slice(0, 7)}`;

async function primaryInput(u: User, extra: Record<string, unknown> = {}) {
  return {
    document_type: 2,
    real_name: "Grace Hopper",
    document_number: passport(),
    front_upload_id: await photo(u),
    back_upload_id: await photo(u),
    handheld_upload_id: await photo(u),
    ...extra,
  };
}
const applyPrimary = async (u: User, input?: Record<string, unknown>) =>
  h.trpc("kyc.applyPrimary", input ?? (await primaryInput(u)), u.token);
const approve = (id: number, extra: Record<string, unknown> = {}) =>
  admin(h, "kyc.approve", { id, ...extra }, op);
const reject = (id: number, reason = "photoUnclear", note?: string) =>
  admin(h, "kyc.reject", { id, reason, note }, op);
const status = async (u: User) =>
  dataOf<{
    primary: App | null;
    advanced: App | null;
    address: App | null;
    credit: App | null;
    gates: Record<string, { allowed: boolean; next: string | null }>;
    risk: { level: string; maxPerOrderUsdt: string };
  }>(await h.trpc("kyc.status", undefined, u.token, "query"));
const uploadCount = async () =>
  (await query<{ n: number }>(h, "select count(*)::int as n from uploads"))[0]?.n;

async function approvedPrimary(): Promise<User> {
  const u = await h.registerByEmail();
  const app = dataOf<App>(await applyPrimary(u));
  dataOf(await approve(app.id));
  return u;
}

describe("primary KYC state machine", () => {
  it("applies once, refuses a second application while under review, and approves once", async () => {
    const u = await h.registerByEmail();
    expect((await status(u)).primary).toBeNull();
    const app = dataOf<App>(await applyPrimary(u));
    expect(app.status).toBe("under_review");
    expectTrpcRefusal(await applyPrimary(u), "KYC_UNDER_REVIEW");
    dataOf(await approve(app.id));
    expect((await status(u)).primary?.status).toBe("approved");
    // Approve twice, or reject after approval: the decision is final.
    expectTrpcRefusal(await approve(app.id), "ALREADY_REVIEWED");
    expectTrpcRefusal(await reject(app.id), "ALREADY_REVIEWED");
    // Change after approval: verified data cannot be changed or re-verified.
    expectTrpcRefusal(await applyPrimary(u), "KYC_ALREADY_VERIFIED", { lang: "en" });
    const rows = await query<{ n: number }>(
      h,
      "select count(*)::int as n from kyc_applications where id = $1",
      [String(app.id)],
    );
    expect(rows[0]?.n).toBe(1);
    const audit = await query<{
      action: string;
      details: { before: { status: string }; after: { status: string } };
    }>(h, "select action, details from audit_log where subject = $1 order by id", [
      `kyc_application:${app.id}`,
    ]);
    expect(audit.map((a) => [a.action, a.details.before.status, a.details.after.status])).toEqual([
      ["kyc.approve", "under_review", "approved"],
    ]);
  });

  it("shows the rejection reason in the user's language and lets the user apply again", async () => {
    const u = await h.registerByEmail();
    const first = dataOf<App>(await applyPrimary(u));
    expectTrpcRefusal(
      await admin(h, "kyc.reject", { id: first.id, reason: "nonsense" }, op),
      "REJECT_REASON_REQUIRED",
    );
    dataOf(await reject(first.id, "documentExpired", "Expired in 2020"));
    expectTrpcRefusal(await reject(first.id), "ALREADY_REVIEWED");
    expectTrpcRefusal(await approve(first.id), "ALREADY_REVIEWED");
    const seen = (await status(u)).primary;
    expect(seen).toMatchObject({
      status: "rejected",
      rejectReason: "documentExpired",
      rejectNote: "Expired in 2020",
    });
    expect(translate("zh", "kyc.reasons.documentExpired")).not.toBe(
      translate("en", "kyc.reasons.documentExpired"),
    );
    const audit = await query<{ details: { after: { reason: string } } }>(
      h,
      "select details from audit_log where subject = $1",
      [`kyc_application:${first.id}`],
    );
    expect(audit[0]?.details.after.reason).toBe("documentExpired");
    // Reapply after rejection: a new application under review; the rejected one stays as history.
    const second = dataOf<App>(await applyPrimary(u));
    expect(second.id).not.toBe(first.id);
    expect((await status(u)).primary).toMatchObject({ id: second.id, status: "under_review" });
  });

  it("records one application of 20 sent at once", async () => {
    const u = await h.registerByEmail();
    const input = await primaryInput(u);
    const results = await Promise.all(Array.from({ length: 20 }, () => applyPrimary(u, input)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expectTrpcRefusal(r, "KYC_UNDER_REVIEW");
    }
    const uid = (
      await query<{ id: number }>(h, "select user_id as id from kyc_applications order by id desc limit 1")
    )[0]?.id;
    const rows = await query<{ n: number }>(
      h,
      "select count(*)::int as n from kyc_applications where user_id = $1",
      [String(uid)],
    );
    expect(rows[0]?.n).toBe(1);
  });

  it("refuses bad input with a translated refusal naming the field, storing nothing", async () => {
    const u = await h.registerByEmail();
    const before = (await query<{ n: number }>(h, "select count(*)::int as n from kyc_applications"))[0]?.n;
    const bad = await applyPrimary(u, await primaryInput(u, { document_number: "12" }));
    expect(bad.body.error?.data).toMatchObject({
      errorCode: "DOCUMENT_NUMBER_FORMAT",
      field: "document_number",
    });
    const type = await applyPrimary(u, await primaryInput(u, { document_type: 6 }));
    expect(type.body.error?.data).toMatchObject({ errorCode: "FIELD_INVALID", field: "document_type" });
    const missing = await applyPrimary(u, await primaryInput(u, { handheld_upload_id: undefined }));
    expect(missing.body.error?.data).toMatchObject({ field: "handheld_upload_id" });
    const after = (await query<{ n: number }>(h, "select count(*)::int as n from kyc_applications"))[0]?.n;
    expect(after).toBe(before);
  });
});

describe("concurrent decisions and the decision history", () => {
  it("applies one of 10 concurrent approvals and rejections, and lists the decision once", async () => {
    const u = await h.registerByEmail();
    const app = dataOf<App>(await applyPrimary(u));
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? approve(app.id) : reject(app.id, "other"))),
    );
    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expectTrpcRefusal(r, "ALREADY_REVIEWED");
    }
    const audit = await query<{ n: number }>(
      h,
      "select count(*)::int as n from audit_log where subject = $1",
      [`kyc_application:${app.id}`],
    );
    expect(audit[0]?.n).toBe(1);
    const decisions = dataOf<{ id: number; status: string }[]>(
      await admin(h, "kyc.decisions", undefined, op, "query"),
    );
    expect(decisions.filter((d) => d.id === app.id)).toHaveLength(1);
    expect(decisions.every((d) => d.status !== "under_review")).toBe(true);
  });
});

describe("advanced KYC, address proof and credit proof", () => {
  it("need primary KYC first, then follow the same machine", async () => {
    const fresh = await h.registerByEmail();
    const assets = [{ kind: "house", upload_id: await photo(fresh) }];
    const advancedInput = {
      occupation: 4,
      monthly_income: "3000",
      source_of_wealth: "Salary",
      expected_investment: "10000",
      assets,
    };
    expectTrpcRefusal(await h.trpc("kyc.applyAdvanced", advancedInput, fresh.token), "KYC_REQUIRED", {
      lang: "en",
    });

    const u = await approvedPrimary();
    const cases = [
      [
        "kyc.applyAdvanced",
        async () => ({ ...advancedInput, assets: [{ kind: "stocks", upload_id: await photo(u) }] }),
      ],
      [
        "kyc.applyAddress",
        async () => ({ address: "1 Main Street, Springfield", upload_id: await photo(u) }),
      ],
      ["kyc.applyCredit", async () => ({ note: "Bank statement", upload_id: await photo(u) })],
    ] as const;
    for (const [path, input] of cases) {
      const app = dataOf<App>(await h.trpc(path, await input(), u.token));
      expect(app.status).toBe("under_review");
      expectTrpcRefusal(await h.trpc(path, await input(), u.token), "KYC_UNDER_REVIEW");
      dataOf(await reject(app.id, "proofInsufficient"));
      const again = dataOf<App>(await h.trpc(path, await input(), u.token));
      dataOf(await approve(again.id, { assessment_points: 120 }));
      expectTrpcRefusal(await approve(again.id), "ALREADY_REVIEWED");
      expectTrpcRefusal(await h.trpc(path, await input(), u.token), "KYC_ALREADY_VERIFIED");
    }
    const s = await status(u);
    expect([s.primary?.status, s.advanced?.status, s.address?.status, s.credit?.status]).toEqual([
      "approved",
      "approved",
      "approved",
      "approved",
    ]);
    expect(s.gates.loans?.allowed).toBe(true);
    const credit = dataOf<{
      score: number;
      factors: { key: string; points: number }[];
      loanLimitUsdt: string;
    }>(await h.trpc("kyc.creditScore", undefined, u.token, "query"));
    // base 300 + primary 150 + advanced 150 + address 50 + age 0 + repayments 0 + assessment 120.
    expect(credit.score).toBe(770);
    expect(credit.factors.find((f) => f.key === "repayments")?.points).toBe(0);
    expect(credit.loanLimitUsdt).toBe("20000");
  });
});

describe("photos", () => {
  it("refuses a wrong type or an oversized file and stores nothing", async () => {
    const u = await h.registerByEmail();
    const before = await uploadCount();
    const gif = Buffer.concat([Buffer.from("GIF89a"), randomBytes(100)]);
    const big = Buffer.concat([PNG, Buffer.alloc(8 * 1024 * 1024)]);
    for (const [bytes, code] of [
      [gif, "UPLOAD_TYPE"],
      [big, "UPLOAD_TOO_LARGE"],
    ] as const) {
      const boundary = `----kyc${randomBytes(6).toString("hex")}`;
      const res = await h.app.inject({
        method: "POST",
        url: "/uploads/proof",
        headers: {
          "content-type": `multipart/form-data; boundary=${boundary}`,
          authorization: `Bearer ${u.token}`,
          lang: "zh",
        },
        payload: Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="id.png"\r\nContent-Type: image/png\r\n\r\n`,
          ),
          bytes,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
      });
      const body = res.json() as { code: number; message: string; data: { error: string } };
      expect(body.data.error).toBe(code);
      expect(body.message).toBe(translate("zh", `errors.${code}`, { mb: 8 }));
    }
    expect(await uploadCount()).toBe(before);
  });

  it("keeps another user's photos unreachable by id in an application and by URL", async () => {
    const owner = await h.registerByEmail();
    const thief = await h.registerByEmail();
    const ownerPhoto = await photo(owner);
    const stolen = await applyPrimary(thief, await primaryInput(thief, { handheld_upload_id: ownerPhoto }));
    expectTrpcRefusal(stolen, "NOT_FOUND");
    expect(stolen.body.error?.data).toMatchObject({ field: "handheld_upload_id" });
    const asThief = await h.app.inject({
      method: "GET",
      url: `/uploads/${ownerPhoto}`,
      headers: { authorization: `Bearer ${thief.token}` },
    });
    expect(asThief.statusCode).toBe(404);
    const anonymous = await h.app.inject({ method: "GET", url: `/uploads/${ownerPhoto}` });
    expect(anonymous.statusCode).toBe(404);
    const asOwner = await h.app.inject({
      method: "GET",
      url: `/uploads/${ownerPhoto}`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(asOwner.statusCode).toBe(200);
    const asOperator = await h.app.inject({
      method: "GET",
      url: `/uploads/${ownerPhoto}`,
      headers: { "x-operator-token": op },
    });
    expect(asOperator.statusCode).toBe(200);
    // Once it is an application's photo (an identity document), only compliance operators and
    // administrators may open it; a finance operator, who sees deposit proofs, gets nothing.
    dataOf<App>(await applyPrimary(owner, await primaryInput(owner, { handheld_upload_id: ownerPhoto })));
    const finance = await operatorToken(h, "finance");
    const photoAs = (token: string) =>
      h.app.inject({ method: "GET", url: `/uploads/${ownerPhoto}`, headers: { "x-operator-token": token } });
    expect((await photoAs(finance)).statusCode).toBe(404);
    expect((await photoAs(op)).statusCode).toBe(200);
    expect((await photoAs(await operatorToken(h, "admin"))).statusCode).toBe(200);
    const proof = await uploadProof(h, owner.token);
    expect(
      (
        await h.app.inject({
          method: "GET",
          url: `/uploads/${proof}`,
          headers: { "x-operator-token": finance },
        })
      ).statusCode,
    ).toBe(200);
    // The queue of another user's applications is for operators only, and of those for compliance
    // and administrators: identity documents are not for finance, support or content operators.
    expectTrpcRefusal(await admin(h, "kyc.queue", {}, undefined, "query"), "LOGIN_REQUIRED", {
      responseCode: 2000,
    });
    for (const role of ["finance", "support", "content"] as const) {
      const other = await operatorToken(h, role);
      expectTrpcRefusal(await admin(h, "kyc.queue", {}, other, "query"), "FORBIDDEN");
      expectTrpcRefusal(await admin(h, "kyc.approve", { id: 1 }, other), "FORBIDDEN");
    }
  });
});

describe("gates, questionnaire, queue and logs", () => {
  it("refuses the credit score before primary KYC with SPEC section 8's text in the user's language", async () => {
    const u = await h.registerByEmail();
    const gates = (await status(u)).gates;
    expect(gates).toMatchObject({
      loans: { allowed: false, next: "primary" },
      c2c: { allowed: false, next: "primary" },
      creditScore: { allowed: false, next: "primary" },
    });
    for (const lang of ["en", "zh", "ty"] as const) {
      const res = await h.app.inject({
        method: "GET",
        url: "/trpc/kyc.creditScore",
        headers: { authorization: `Bearer ${u.token}`, lang },
      });
      const body = res.json() as { error: { message: string; data: { errorCode: string } } };
      expect(body.error.data.errorCode).toBe("KYC_REQUIRED");
      expect(body.error.message).toBe(translate(lang, "errors.KYC_REQUIRED"));
    }
    expect(translate("en", "errors.KYC_REQUIRED")).toBe("Please complete KYC first");
  });

  it("scores the questionnaire into a risk level and its maximum per order", async () => {
    const u = await h.registerByEmail();
    expect((await status(u)).risk).toMatchObject({ level: "notAssessed", maxPerOrderUsdt: "1000" });
    const bad = await h.trpc(
      "kyc.submitQuestionnaire",
      {
        answers: { accountPurpose: 7, investmentPurpose: 1, amountRange: 1, monthlyTrades: 1, occupation: 1 },
      },
      u.token,
    );
    expect(bad.body.error?.data).toMatchObject({
      errorCode: "FIELD_INVALID",
      field: "answers.accountPurpose",
    });
    const risk = dataOf<{ level: string; score: number; maxPerOrderUsdt: string }>(
      await h.trpc(
        "kyc.submitQuestionnaire",
        {
          answers: {
            accountPurpose: 3,
            investmentPurpose: 3,
            amountRange: 3,
            monthlyTrades: 1,
            occupation: 1,
          },
        },
        u.token,
      ),
    );
    expect(risk).toMatchObject({ level: "balanced", score: 7, maxPerOrderUsdt: "100000" });
  });

  it("shows the whole document number only while under review, masks it after, and keeps it out of the logs", async () => {
    const u = await h.registerByEmail();
    logLines.length = 0;
    const input = await primaryInput(u, { real_name: "Zelda Quartermaine", document_number: "Q7654321" });
    const app = dataOf<App>(await applyPrimary(u, input));
    const queue = dataOf<{ id: number; details: { documentNumber: string } }[]>(
      await admin(h, "kyc.queue", { status: "under_review", level: "primary" }, op, "query"),
    );
    const row = queue.find((r) => r.id === app.id);
    // The reviewer compares it with the photo of the document.
    expect(row?.details.documentNumber).toBe("Q7654321");
    expect((await status(u)).primary?.details).toMatchObject({ documentNumber: "Q7****21" });
    await approve(app.id);
    const decided = dataOf<{ id: number; details: { documentNumber: string } }[]>(
      await admin(h, "kyc.queue", { status: "approved", level: "primary" }, op, "query"),
    );
    expect(decided.find((r) => r.id === app.id)?.details.documentNumber).toBe("Q7****21");
    expect(JSON.stringify(decided)).not.toContain("Q7654321");
    const log = logLines.join("\n");
    expect(log.length).toBeGreaterThan(0);
    expect(log).not.toContain("Q7654321");
    expect(log).not.toContain("Quartermaine");
  });
});

describe("pnpm admin kyc:*", { timeout: 120_000 }, () => {
  it("lists, approves and rejects from the command line, audited as the cli operator", async () => {
    const a = await h.registerByEmail();
    const b = await h.registerByEmail();
    const first = dataOf<App>(await applyPrimary(a));
    const second = dataOf<App>(await applyPrimary(b));
    const list = await runAdminCli(h, "kyc:list", "under_review", "primary");
    expect(list.code, list.stderr).toBe(0);
    const ids = (JSON.parse(list.stdout) as { id: number }[]).map((r) => r.id);
    expect(ids).toEqual(expect.arrayContaining([first.id, second.id]));
    const ok = await runAdminCli(h, "kyc:approve", String(first.id));
    expect(ok.code, ok.stderr).toBe(0);
    const twice = await runAdminCli(h, "kyc:approve", String(first.id));
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain("ALREADY_REVIEWED");
    const no = await runAdminCli(h, "kyc:reject", String(second.id), "photoEdited", "Edited", "corner");
    expect(no.code, no.stderr).toBe(0);
    expect((await status(b)).primary).toMatchObject({
      status: "rejected",
      rejectReason: "photoEdited",
      rejectNote: "Edited corner",
    });
    const audit = await query<{ actor: string }>(h, "select actor from audit_log where subject = $1", [
      `kyc_application:${first.id}`,
    ]);
    expect(audit.map((r) => r.actor)).toEqual(["cli"]);
  });
});
