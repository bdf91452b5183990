import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { translate } from "@northstar/shared/i18n";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { hashSecret, type User, users } from "../identity/index.ts";
import { setPolicy } from "../policy/index.ts";
import { seedDatabase } from "../setup/index.ts";
import { createTestDatabase } from "../test-support/index.ts";
import { storeUpload } from "../uploads/index.ts";
import { applyAdvancedKyc, applyPrimaryKyc } from "./applications.ts";
import { assertGate, getVerificationGates } from "./gates.ts";
import { approveKycApplication } from "./review.ts";
import { assertWithinRiskLimit, submitQuestionnaire } from "./risk.ts";

/** The two functions other modules call: the risk limit per level, and the verification gates. */
let db: Db;
let uploadDir: string;
let teardown: () => Promise<void>;
let passwordHash: string;
beforeAll(async () => {
  const database = await createTestDatabase();
  const conn = createDb(database.url, { max: 10 });
  conn.pool.on("error", () => {});
  db = conn.db;
  await seedDatabase(db);
  passwordHash = await hashSecret("secret12");
  uploadDir = await mkdtemp(join(tmpdir(), "kyc-gates-"));
  teardown = async () => {
    await conn.close();
    await database.drop();
    await rm(uploadDir, { recursive: true, force: true });
  };
});
afterAll(async () => {
  await teardown?.();
});

async function newUser(): Promise<User> {
  const uid = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
  const [user] = await db
    .insert(users)
    .values({
      uid,
      passwordHash,
      nationality: "GB",
      inviteCode: `K${randomBytes(4).toString("hex")}`,
      nickname: `U${uid}`,
    })
    .returning();
  if (!user) {
    throw new Error("insert failed");
  }
  return user;
}

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)]);
const photo = async (user: User) =>
  (await storeUpload(db, uploadDir, { ownerUserId: user.id, purpose: "proof", bytes: PNG })).id;
const operator = { operatorId: 1, actor: "operator:1" };

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/** Answers giving each level with the default thresholds (balanced from 6, aggressive from 12). */
const CONSERVATIVE = {
  accountPurpose: 1,
  investmentPurpose: 1,
  amountRange: 1,
  monthlyTrades: 1,
  occupation: 9,
};
const BALANCED = { accountPurpose: 3, investmentPurpose: 3, amountRange: 3, monthlyTrades: 1, occupation: 1 };
const AGGRESSIVE = {
  accountPurpose: 5,
  investmentPurpose: 4,
  amountRange: 5,
  monthlyTrades: 4,
  occupation: 4,
};

describe("assertWithinRiskLimit", () => {
  it("lets a not-assessed user invest up to the not-assessed cap and refuses one cent more", async () => {
    const user = await newUser();
    await assertWithinRiskLimit(db, String(user.id), "1000");
    const error = await refusal(assertWithinRiskLimit(db, String(user.id), "1000.01"));
    expect(error.code).toBe("RISK_LIMIT_EXCEEDED");
    expect(translate("zh", `errors.${error.code}`, error.params)).toContain("1000");
  });

  it.each([
    ["conservative", CONSERVATIVE, "10000"],
    ["balanced", BALANCED, "100000"],
    ["aggressive", AGGRESSIVE, "1000000"],
  ] as const)("caps a %s user at %s's policy maximum", async (level, answers, cap) => {
    const user = await newUser();
    const profile = await submitQuestionnaire(db, user.id, answers);
    expect(profile.level).toBe(level);
    await assertWithinRiskLimit(db, String(user.id), cap);
    const error = await refusal(assertWithinRiskLimit(db, String(user.id), `${cap}.000001`));
    expect(error.code).toBe("RISK_LIMIT_EXCEEDED");
    expect(error.params.max).toBe(cap);
  });

  it("follows the latest questionnaire and the operator's policy", async () => {
    const user = await newUser();
    await submitQuestionnaire(db, user.id, AGGRESSIVE);
    await submitQuestionnaire(db, user.id, CONSERVATIVE);
    expect((await refusal(assertWithinRiskLimit(db, String(user.id), "10001"))).code).toBe(
      "RISK_LIMIT_EXCEEDED",
    );
    await setPolicy(
      db,
      "kyc.risk.maxPerOrderUsdt",
      { notAssessed: "0", conservative: "20000", balanced: "100000", aggressive: "1000000" },
      "test",
    );
    await assertWithinRiskLimit(db, String(user.id), "20000");
    const fresh = await newUser();
    expect((await refusal(assertWithinRiskLimit(db, String(fresh.id), "0.01"))).code).toBe(
      "RISK_LIMIT_EXCEEDED",
    );
    await setPolicy(
      db,
      "kyc.risk.maxPerOrderUsdt",
      { notAssessed: "1000", conservative: "10000", balanced: "100000", aggressive: "1000000" },
      "test",
    );
  });

  it("refuses a malformed amount or user id", async () => {
    const user = await newUser();
    expect((await refusal(assertWithinRiskLimit(db, String(user.id), "abc"))).code).toBe("AMOUNT_INVALID");
    expect((await refusal(assertWithinRiskLimit(db, String(user.id), "-5"))).code).toBe("AMOUNT_INVALID");
    expect((await refusal(assertWithinRiskLimit(db, "1 or 1=1", "5"))).code).toBe("NOT_FOUND");
  });
});

describe("getVerificationGates", () => {
  it("opens C2C and the credit score with primary KYC, loans only with advanced too", async () => {
    const user = await newUser();
    let gates = await getVerificationGates(db, String(user.id));
    expect(gates.primary).toBe("unverified");
    expect(gates.gates).toEqual({
      loans: { allowed: false, next: "primary", errorCode: "KYC_REQUIRED" },
      c2c: { allowed: false, next: "primary", errorCode: "KYC_REQUIRED" },
      creditScore: { allowed: false, next: "primary", errorCode: "KYC_REQUIRED" },
    });
    const error = await refusal(assertGate(db, user.id, "c2c"));
    expect(translate("en", `errors.${error.code}`)).toBe("Please complete KYC first");
    expect(translate("zh", `errors.${error.code}`)).not.toBe(translate("en", `errors.${error.code}`));

    const primary = await applyPrimaryKyc(db, user, {
      document_type: 2,
      real_name: "Ada Lovelace",
      document_number: "X1234567",
      front_upload_id: await photo(user),
      back_upload_id: await photo(user),
      handheld_upload_id: await photo(user),
    });
    gates = await getVerificationGates(db, String(user.id));
    expect(gates.primary).toBe("under_review");
    expect(gates.gates.c2c.allowed).toBe(false);

    await approveKycApplication(db, { applicationId: primary.id, ...operator });
    gates = await getVerificationGates(db, String(user.id));
    expect(gates.gates.c2c.allowed).toBe(true);
    expect(gates.gates.creditScore.allowed).toBe(true);
    expect(gates.gates.loans).toEqual({
      allowed: false,
      next: "advanced",
      errorCode: "ADVANCED_KYC_REQUIRED",
    });
    const loans = await refusal(assertGate(db, user.id, "loans"));
    expect(translate("en", `errors.${loans.code}`)).toBe("Please complete advanced verification first");

    const advanced = await applyAdvancedKyc(db, user, {
      occupation: 3,
      monthly_income: "5000",
      source_of_wealth: "Salary",
      expected_investment: "20000",
      assets: [{ kind: "bankDeposit", upload_id: await photo(user) }],
    });
    await approveKycApplication(db, { applicationId: advanced.id, ...operator });
    gates = await getVerificationGates(db, String(user.id));
    expect(gates.gates.loans.allowed).toBe(true);
    await assertGate(db, user.id, "loans");
  });
});
