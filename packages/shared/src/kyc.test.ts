import { describe, expect, it } from "vitest";
import {
  areAnswersComplete,
  creditScore,
  isDocumentNumberValid,
  loanLimitFor,
  MAX_QUESTIONNAIRE_SCORE,
  maskDocumentNumber,
  QUESTIONS,
  riskLevelAllows,
  scoreQuestionnaire,
} from "./kyc.ts";
import { policyDefaults } from "./policy/index.ts";

const thresholds = policyDefaults()["kyc.risk.thresholds"];
const points = policyDefaults()["kyc.credit.points"];

describe("the risk questionnaire", () => {
  it("has the option counts of SPEC section 3", () => {
    expect(Object.fromEntries(QUESTIONS.map((q) => [q.id, q.points.length]))).toEqual({
      accountPurpose: 6,
      investmentPurpose: 4,
      amountRange: 6,
      monthlyTrades: 4,
      occupation: 12,
    });
    expect(MAX_QUESTIONNAIRE_SCORE).toBe(17);
  });

  it("sums the chosen options' points and maps the score to a level at the thresholds", () => {
    const lowest = {
      accountPurpose: 1,
      investmentPurpose: 1,
      amountRange: 1,
      monthlyTrades: 1,
      occupation: 9,
    };
    expect(scoreQuestionnaire(lowest, thresholds)).toEqual({ score: 0, level: "conservative" });
    // 2 + 1 + 2 + 0 + 0 = 5: one below balanced.
    const five = { accountPurpose: 3, investmentPurpose: 2, amountRange: 3, monthlyTrades: 1, occupation: 9 };
    expect(scoreQuestionnaire(five, thresholds)).toEqual({ score: 5, level: "conservative" });
    expect(scoreQuestionnaire({ ...five, occupation: 1 }, thresholds)).toEqual({
      score: 6,
      level: "balanced",
    });
    // 4 + 4 + 3 + 0 + 0 = 11: one below aggressive.
    const eleven = {
      accountPurpose: 5,
      investmentPurpose: 4,
      amountRange: 4,
      monthlyTrades: 1,
      occupation: 9,
    };
    expect(scoreQuestionnaire(eleven, thresholds)).toEqual({ score: 11, level: "balanced" });
    expect(scoreQuestionnaire({ ...eleven, occupation: 1 }, thresholds)).toEqual({
      score: 12,
      level: "aggressive",
    });
    const highest = {
      accountPurpose: 5,
      investmentPurpose: 4,
      amountRange: 6,
      monthlyTrades: 4,
      occupation: 4,
    };
    expect(scoreQuestionnaire(highest, thresholds)).toEqual({ score: 17, level: "aggressive" });
    expect(scoreQuestionnaire(five, { balanced: 3, aggressive: 5 }).level).toBe("aggressive");
  });

  it("refuses incomplete or out-of-range answers", () => {
    const full = {
      accountPurpose: 1,
      investmentPurpose: 1,
      amountRange: 1,
      monthlyTrades: 1,
      occupation: 12,
    };
    expect(areAnswersComplete(full)).toBe(true);
    expect(areAnswersComplete({ ...full, occupation: 13 })).toBe(false);
    expect(areAnswersComplete({ ...full, monthlyTrades: 0 })).toBe(false);
    expect(areAnswersComplete({ ...full, amountRange: 1.5 })).toBe(false);
    const { occupation: _, ...missing } = full;
    expect(areAnswersComplete(missing)).toBe(false);
    expect(() => scoreQuestionnaire({ ...full, investmentPurpose: 5 }, thresholds)).toThrow(RangeError);
  });
});

describe("the credit score formula", () => {
  const none = {
    primary: false,
    advanced: false,
    address: false,
    accountMonths: 0,
    repayments: { onTime: 0, late: 0 },
    assessment: 0,
  };
  it("adds each factor's points within 0..max", () => {
    expect(creditScore(none, points).score).toBe(300);
    const all = {
      primary: true,
      advanced: true,
      address: true,
      accountMonths: 5,
      repayments: { onTime: 2, late: 0 },
      assessment: 100,
    };
    const result = creditScore(all, points);
    expect(result.score).toBe(300 + 150 + 150 + 50 + 25 + 20 + 100);
    expect(result.factors.find((f) => f.key === "accountAge")?.points).toBe(25);
    expect(
      creditScore({ ...all, accountMonths: 1000 }, points).factors.find((f) => f.key === "accountAge")
        ?.points,
    ).toBe(100);
    expect(creditScore({ ...none, repayments: { onTime: 0, late: 100 } }, points).score).toBe(0);
    expect(creditScore({ ...all, repayments: { onTime: 1000, late: 0 } }, points).score).toBe(1000);
    expect(creditScore({ ...none, assessment: 5000 }, points).score).toBe(300 + 200);
  });
  it("gives the loan limit of the highest row reached", () => {
    const table = policyDefaults()["kyc.credit.loanLimits"];
    expect(loanLimitFor(300, table)).toBe("0");
    expect(loanLimitFor(450, table)).toBe("1000");
    expect(loanLimitFor(749, table)).toBe("5000");
    expect(loanLimitFor(1000, table)).toBe("50000");
  });
});

describe("document numbers", () => {
  it("checks passports by the ICAO format and others by characters and length", () => {
    expect(isDocumentNumberValid(2, "X1234567")).toBe(true);
    expect(isDocumentNumberValid(2, "X12345678901")).toBe(false);
    expect(isDocumentNumberValid(1, "110101-1990")).toBe(true);
    expect(isDocumentNumberValid(1, "A<script>")).toBe(false);
  });
  it("masks all but the first two and last two characters", () => {
    expect(maskDocumentNumber("X1234567")).toBe("X1****67");
    expect(maskDocumentNumber("ABC")).toBe("***");
  });
});

describe("riskLevelAllows (the server's rule, shown by the web before the buy button)", () => {
  it("lets a user buy up to their own level, an unassessed one up to the policy's level", () => {
    expect(riskLevelAllows("balanced", "aggressive", "conservative")).toBe(false);
    expect(riskLevelAllows("balanced", "balanced", "conservative")).toBe(true);
    expect(riskLevelAllows("aggressive", "conservative", "conservative")).toBe(true);
    expect(riskLevelAllows("notAssessed", "conservative", "conservative")).toBe(true);
    expect(riskLevelAllows("notAssessed", "balanced", "conservative")).toBe(false);
    expect(riskLevelAllows("notAssessed", "conservative", "none")).toBe(false);
  });
});
