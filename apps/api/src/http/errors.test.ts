import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AppError } from "@northstar/domain/errors";
import * as commonContracts from "@northstar/shared/contracts/common";
import * as contentContracts from "@northstar/shared/contracts/content";
import * as earnContracts from "@northstar/shared/contracts/earn";
import * as fundingContracts from "@northstar/shared/contracts/funding";
import * as identityContracts from "@northstar/shared/contracts/identity";
import { ZLoanRepayRequestSchema } from "@northstar/shared/contracts/loans";
import * as marketsContracts from "@northstar/shared/contracts/markets";
import * as spotContracts from "@northstar/shared/contracts/spot";
import { ERROR_CODES, type ErrorCode } from "@northstar/shared/errors";
import { hasKey, translate } from "@northstar/shared/i18n";
import { LANGUAGES } from "@northstar/shared/languages";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldKey, fromZodError, toRefusal } from "./errors.ts";

/** Every field name a request schema can report, walking objects, unions, pipes and arrays. */
function fieldNames(schema: unknown, out = new Set<string>()): Set<string> {
  const def = (schema as { _zod?: { def?: Record<string, unknown> } } | undefined)?._zod?.def;
  if (!def) {
    return out;
  }
  if (def.type === "object") {
    for (const [name, child] of Object.entries(def.shape as Record<string, unknown>)) {
      out.add(name);
      fieldNames(child, out);
    }
  }
  for (const key of ["in", "out", "left", "right", "innerType", "element"]) {
    fieldNames(def[key], out);
  }
  for (const option of (def.options as unknown[] | undefined) ?? []) {
    fieldNames(option, out);
  }
  return out;
}

/** Every zod schema the contracts export that an edge parses input with (answers' shapes are not). */
const requestSchemas = Object.entries({
  ...commonContracts,
  ...identityContracts,
  ...contentContracts,
  ...fundingContracts,
  ...marketsContracts,
  ...spotContracts,
}).filter(
  ([name, value]) =>
    value instanceof z.ZodType && !/ResponseSchema$|^ZSessionInfoSchema$|^ZContentItemSchema$/.test(name),
);

/** The `field` argument of every `new AppError(code, params, "field")` in the server's sources. */
function appErrorFields(): { file: string; field: string }[] {
  const roots = ["../../../../packages/domain/src", "../../../../apps/api/src"].map((r) =>
    new URL(r, import.meta.url).pathname.replace(/\/$/, ""),
  );
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
      d.isDirectory()
        ? d.name === "node_modules"
          ? []
          : walk(join(dir, d.name))
        : /\.tsx?$/.test(d.name) && !/\.test\.ts$/.test(d.name)
          ? [join(dir, d.name)]
          : [],
    );
  const call = /new AppError\(\s*"[A-Z_]+",\s*(\{(?:[^{}]|\{[^{}]*\})*\}|[A-Za-z_.]+),\s*"([A-Za-z_.]+)"/g;
  return roots
    .flatMap(walk)
    .flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(call)].map((m) => ({ file, field: m[2] as string })),
    );
}

describe("field names in refusals", () => {
  it("finds the request schemas to check", () => {
    expect(requestSchemas.length).toBeGreaterThanOrEqual(10);
    expect(fieldNames(identityContracts.ZRegisterRequestSchema)).toContain("agree");
    expect(fieldNames(identityContracts.ZUpdatePasswordRequestSchema)).toContain("old_password");
    expect(fieldNames(spotContracts.ZPlaceOrderRequestSchema)).toEqual(
      new Set([
        "symbol",
        "side",
        "type",
        "time_in_force",
        "price",
        "quantity",
        "quote_amount",
        "trade_password",
      ]),
    );
  });

  it.each(requestSchemas)("%s: every field has a catalog name in all 8 languages", (_, schema) => {
    const missing = [...fieldNames(schema)].filter((name) => !hasKey(fieldKey(name)));
    expect(missing).toEqual([]);
  });

  it("names every field a domain or edge refusal points at", () => {
    const found = appErrorFields();
    expect(found.map((f) => f.field)).toEqual(expect.arrayContaining(["tx_hash", "quote_amount", "symbol"]));
    expect(found.filter((f) => !hasKey(fieldKey(f.field)))).toEqual([]);
  });

  it("names the legacy envelope's own fields", () => {
    expect(["rtoken", "lang"].filter((name) => !hasKey(fieldKey(name)))).toEqual([]);
  });

  it("names a nested field by its last named segment", () => {
    expect(fieldKey("answers.0.answer")).toBe("fields.answer");
    expect(fieldKey("page_size")).toBe("fields.pageSize");
    expect(fieldKey("agree")).toBe("fields.agreement");
  });
});

describe("toRefusal", () => {
  it("translates a zod issue that names a domain code, keeping the full path as the field", () => {
    const parsed = identityContracts.ZSetSecurityQuestionsRequestSchema.safeParse({
      answers: [
        { question_id: 1, answer: " " },
        { question_id: 2, answer: "b" },
        { question_id: 3, answer: "c" },
      ],
      login_password: "x",
    });
    expect(parsed.success).toBe(false);
    const refusal = toRefusal(parsed.error, "zh");
    expect(refusal).toMatchObject({ code: 1, errorCode: "FIELD_REQUIRED", field: "answers.0.answer" });
    expect(refusal.message).toBe(
      translate("zh", "errors.FIELD_REQUIRED", { field: translate("zh", "fields.answer") }),
    );
  });

  it("reports other zod issues as FIELD_INVALID naming the top-level field", () => {
    const error = z.object({ page: z.number() }).safeParse({ page: "x" }).error;
    expect(error).toBeDefined();
    expect(fromZodError(error as z.ZodError)).toMatchObject({ code: "FIELD_INVALID", field: "page" });
  });

  it("refuses an input that is not the shape at all (no field to name) as an unreadable request", () => {
    for (const input of [undefined, "x", 12, [], null]) {
      const error = z.object({ page: z.number() }).safeParse(input).error as z.ZodError;
      expect(fromZodError(error)).toMatchObject({ code: "MALFORMED_REQUEST" });
      const refusal = toRefusal(error, "hy");
      expect(refusal.message).not.toMatch(/\{\{/);
      expect(refusal.message).toBe(translate("hy", "errors.MALFORMED_REQUEST"));
    }
  });

  it("names the field of a cross-field refusal, and never shows a placeholder without one", () => {
    const product = earnContracts.ZEarnProductInputSchema.safeParse({
      family: "ai",
      name: "AI 7 days",
      currency: "USDT",
      cycle_days: 7,
      rate_min: "0.005",
      rate_max: "0.004",
      min_amount: "100",
      max_amount: "50",
      user_limit: "10000",
      user_count: 3,
      capacity: "100000",
      risk_level: "conservative",
      redemption_rule: "percent",
    });
    expect(fromZodError(product.error as z.ZodError)).toMatchObject({
      code: "FIELD_INVALID",
      field: "rate_max",
    });
    const pathless = z
      .object({ a: z.string() })
      .refine(() => false, { message: "FIELD_INVALID" })
      .safeParse({ a: "x" }).error as z.ZodError;
    expect(toRefusal(pathless, "ft").message).not.toMatch(/\{\{/);
  });

  it("fills an AppError's parameters and hides server faults", () => {
    expect(toRefusal(new AppError("PASSWORD_LENGTH", { min: 6, max: 24 }), "en").message).toBe(
      "The password must be 6 to 24 characters",
    );
    expect(toRefusal(new AppError("LOGIN_REQUIRED"), "en").code).toBe(2000);
    expect(toRefusal(new AppError("SESSION_ENDED"), "en").code).toBe(1000);
    const fault = toRefusal(new Error("connection refused at 10.0.0.5"), "ty");
    expect(fault).toEqual({
      code: 500,
      errorCode: "REQUEST_ERROR",
      message: translate("ty", "errors.REQUEST_ERROR"),
    });
  });
});

describe("a refusal's text names its field", () => {
  it("never leaves {{field}} in a message, in any language, whether the refusal names a field or not", () => {
    for (const lang of LANGUAGES) {
      for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
        for (const field of [undefined, "amount"]) {
          const { message } = toRefusal(new AppError(code, {}, field), lang);
          expect(message, `${lang} ${code} ${field}`).not.toContain("{{field}}");
        }
      }
    }
    expect(toRefusal(new AppError("FIELD_INVALID"), "en").message).toBe("Value is not valid");
    expect(toRefusal(new AppError("FIELD_INVALID", {}, "amount"), "en").message).toBe("Amount is not valid");
  });

  it("answers a request that is not the object its schema expects as unreadable, never with {{field}}", () => {
    const error = z.object({ id: z.number() }).safeParse("x").error as z.ZodError;
    for (const lang of LANGUAGES) {
      expect(toRefusal(error, lang).message).toBe(translate(lang, "errors.MALFORMED_REQUEST"));
      expect(toRefusal(error, lang).message).not.toContain("{{");
    }
  });

  it("carries a refinement's parameters: a loan amount finer than the cent names the two decimals", () => {
    const parsed = ZLoanRepayRequestSchema.safeParse({ loan_id: 1, amount: "1.005" });
    expect(toRefusal(parsed.error as z.ZodError, "en")).toMatchObject({
      errorCode: "AMOUNT_TOO_PRECISE",
      field: "amount",
      message: "Amount can have at most 2 decimal places",
    });
  });

  it("names the field of a product's inconsistent bounds", () => {
    const parsed = earnContracts.ZEarnProductInputSchema.safeParse({
      family: "ai",
      name: "AI 7",
      currency: "USDT",
      cycle_days: 7,
      rate_min: "0.005",
      rate_max: "0.004",
      min_amount: "100",
      max_amount: "10000",
      user_limit: "20000",
      user_count: 5,
      capacity: "1000000",
      risk_level: "balanced",
      redemption_rule: "percent",
    });
    expect(toRefusal(parsed.error as z.ZodError, "en")).toMatchObject({
      field: "rate_max",
      message: "Maximum rate is not valid",
    });
  });
});
