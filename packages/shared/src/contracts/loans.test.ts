import { describe, expect, it } from "vitest";
import {
  allocateRepayment,
  loanFeeDaysDue,
  loanInterest,
  loanLateFee,
  loanQuote,
  ZLoanApplyRequestSchema,
} from "./loans.ts";

describe("loan money", () => {
  it("rounds interest and late fees half up to the cent", () => {
    expect(loanInterest("1000", "0.001", 7)).toBe("7.00");
    expect(loanInterest("333.33", "0.0015", 10)).toBe("5.00"); // 4.99995
    expect(loanInterest("333.33", "0.0014", 10)).toBe("4.67"); // 4.66662
    expect(loanLateFee("1000", "0.005")).toBe("5.00");
    expect(loanLateFee("0.01", "0.0049")).toBe("0.00");
    expect(loanLateFee("101", "0.005")).toBe("0.51"); // 0.505
  });

  it("charges late-fee days only after the grace days", () => {
    expect(loanFeeDaysDue("2026-04-08", 3, "2026-04-11")).toBe(0);
    expect(loanFeeDaysDue("2026-04-08", 3, "2026-04-12")).toBe(1);
    expect(loanFeeDaysDue("2026-04-08", 0, "2026-04-01")).toBe(0);
    expect(loanFeeDaysDue("2026-04-28", 3, "2026-05-03")).toBe(2);
  });

  it("quotes the due day and the grace end", () => {
    const q = loanQuote({
      amount: "500",
      cycleDays: 30,
      dailyRate: "0.0005",
      overdueRate: "0.002",
      graceDays: 3,
      startDay: "2026-12-15",
    });
    expect(q).toMatchObject({
      interest: "7.50",
      total: "507.50",
      dueDay: "2027-01-14",
      graceEndDay: "2027-01-17",
    });
    expect(q.lateFeePerDay).toBe("1.00");
  });

  it("splits a repayment: late fees, then interest, then principal", () => {
    const owed = { lateFees: "10.00", interest: "7.00", principal: "1000.00" };
    expect(allocateRepayment("5", owed)).toEqual({ lateFees: "5.00", interest: "0.00", principal: "0.00" });
    expect(allocateRepayment("20", owed)).toEqual({ lateFees: "10.00", interest: "7.00", principal: "3.00" });
  });

  it("refuses amounts finer than a cent and an unticked agreement", () => {
    const base = { product_id: "1", amount: "100.001", cycle_days: "7", agree: "1" };
    expect(ZLoanApplyRequestSchema.safeParse(base).error?.issues[0]?.message).toBe("AMOUNT_TOO_PRECISE");
    const unticked = ZLoanApplyRequestSchema.safeParse({ ...base, amount: "100", agree: undefined });
    expect(unticked.error?.issues[0]?.message).toBe("AGREEMENT_REQUIRED");
  });
});
