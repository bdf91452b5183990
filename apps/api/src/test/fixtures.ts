import { createHash } from "node:crypto";
import { type ErrorCode, ResponseCode } from "@northstar/shared/errors";
import { translate } from "@northstar/shared/i18n";
import type { Language } from "@northstar/shared/languages";
import { expect } from "vitest";
import type { Envelope } from "../legacy/define.ts";
import type { Harness } from "./harness.ts";

/**
 * Test-only helpers over the harness. Direct SQL is for test setup that a user cannot do through the
 * API (ageing a code past the resend gap, expiring a session, freezing an account) and for checking
 * what a call left behind.
 */
export async function query<T = Record<string, unknown>>(
  h: Harness,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  const result = await h.db.$client.query(text, params);
  return result.rows as T[];
}

export async function countUsers(h: Harness): Promise<number> {
  const [row] = await query<{ n: number }>(h, "select count(*)::int as n from users");
  return row?.n ?? -1;
}

/** Moves every code sent to `target` back in time, so the resend gap no longer applies. */
export async function ageCodes(h: Harness, target: string, seconds = 120): Promise<void> {
  await query(
    h,
    "update verification_codes set created_at = created_at - make_interval(secs => $2) where target = $1",
    [target, seconds],
  );
}

/** The text of an error code in `lang`, as the catalog has it. */
export function errorText(
  code: ErrorCode,
  lang: Language = "en",
  params: Record<string, string | number> = {},
): string {
  return translate(lang, `errors.${code}`, params);
}

/** FIELD_INVALID's text naming a form field by its catalog key under `fields.`. */
export function fieldInvalidText(fieldKey: string, lang: Language = "en"): string {
  return errorText("FIELD_INVALID", lang, { field: translate(lang, `fields.${fieldKey}`) });
}

/** Asserts a legacy refusal: envelope code, domain error code and the exact translated message. */
export function expectRefusal(
  env: Envelope,
  code: ErrorCode,
  options: {
    lang?: Language;
    params?: Record<string, string | number>;
    responseCode?: number;
    message?: string;
  } = {},
): void {
  expect(env).toMatchObject({ data: { error: code } });
  expect(env.code).toBe(options.responseCode ?? ResponseCode.Refused);
  expect(env.message).toBe(options.message ?? errorText(code, options.lang, options.params));
  // A missing catalog key or parameter would show through as `fields.x`, `errors.X` or `{{name}}`.
  expect(env.message).not.toMatch(/\{\{|\b(errors|fields)\.[A-Za-z]/);
  expect(typeof env.time).toBe("number");
}

/** Waits for the SMS worker to log a code to `phone` (E.164); `after` is how many were already seen. */
export async function waitForSmsCode(
  h: Harness,
  phone: string,
  after = 0,
  timeoutMs = 10_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const mine = h.smsLog.filter((line) => line.startsWith(`[sms] to=${phone} `));
    const last = mine[mine.length - 1];
    if (last && mine.length > after) {
      const code = /\b(\d{6})\b/.exec(last.slice(`[sms] to=${phone} `.length))?.[1];
      if (code) {
        return code;
      }
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no code sent by SMS to ${phone}`);
}

/** Logs in by email and returns the session token, failing the test on a refusal. */
export async function loginByEmail(h: Harness, email: string, password: string): Promise<string> {
  const res = await h.call("userLogin", { type: "email", account: email, password });
  expect(res.code, res.message).toBe(0);
  return (res.data as { token: string }).token;
}

export function tokenOf(env: Envelope): string {
  const token = (env.data as { token?: unknown } | null)?.token;
  if (typeof token !== "string") {
    throw new Error(`no token in ${JSON.stringify(env)}`);
  }
  return token;
}

/** A fresh email address for one test. */
let seq = 0;
export function newEmail(tag = "t"): string {
  seq += 1;
  return `${tag}${seq}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** Inserts a user row directly (no email or phone, demo, frozen …) and opens a session for it. */
export async function insertUser(
  h: Harness,
  values: {
    email?: string | null;
    kind?: "real" | "demo";
    status?: "active" | "frozen";
    passwordHash: string;
  },
): Promise<number> {
  const uid = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
  const [row] = await query<{ id: number }>(
    h,
    `insert into users (uid, kind, status, email, password_hash, nationality, invite_code, nickname)
     values ($1, $2, $3, $4, $5, 'GB', $6, $7) returning id`,
    [
      uid,
      values.kind ?? "real",
      values.status ?? "active",
      values.email ?? null,
      values.passwordHash,
      `T${uid}`,
      `U${uid}`,
    ],
  );
  if (!row) {
    throw new Error("insert failed");
  }
  return Number(row.id);
}

/** Registers a user by phone through getCode and userRegister, reading the code from the SMS log. */
export async function registerByPhone(
  h: Harness,
  phone = "13812345678",
  areaCode = "86",
  password = "secret123",
): Promise<{ phone: string; areaCode: string; password: string; token: string }> {
  const target = `+${areaCode}${phone}`;
  const seen = h.smsLog.filter((line) => line.startsWith(`[sms] to=${target} `)).length;
  const sent = await h.call("getCode", {
    type: "phone",
    area_code: areaCode,
    account: phone,
    purpose: "register",
  });
  expect(sent.code, sent.message).toBe(0);
  const code = await waitForSmsCode(h, target, seen);
  const res = await h.call("userRegister", {
    type: "phone",
    area_code: areaCode,
    account: phone,
    password,
    confirm_password: password,
    code,
    nationality: "CN",
    agree: "1",
  });
  expect(res.code, res.message).toBe(0);
  return { phone, areaCode, password, token: tokenOf(res) };
}

/** How sessions store a token: its SHA-256 in hex. */
export function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The stored password hash of an existing user, to give a directly inserted user a known password. */
export async function passwordHashOf(h: Harness, email: string): Promise<string> {
  const [row] = await query<{ password_hash: string }>(
    h,
    "select password_hash from users where email = $1",
    [email],
  );
  if (!row) {
    throw new Error(`no user ${email}`);
  }
  return row.password_hash;
}

/** Sends a register code to `email` and reads it from the mailbox (the first mail to that address). */
export async function sendRegisterCode(h: Harness, email: string, lang: Language = "en"): Promise<string> {
  const sent = await h.call("getCode", { type: "email", account: email, purpose: "register", lang });
  expect(sent.code, sent.message).toBe(0);
  return h.mailbox.waitForCode(email);
}

/** The web/userRegister form for an email account, with `extra` fields replacing the defaults. */
export function registerForm(
  email: string,
  code: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    type: "email",
    account: email,
    password: "secret123",
    confirm_password: "secret123",
    code,
    nationality: "GB",
    agree: "1",
    ...extra,
  };
}

type TrpcResult = Awaited<ReturnType<Harness["trpc"]>>;

/** Asserts a tRPC refusal: envelope code in data.responseCode, the domain code and the translated message. */
export function expectTrpcRefusal(
  res: TrpcResult,
  code: ErrorCode,
  options: {
    lang?: Language;
    params?: Record<string, string | number>;
    responseCode?: number;
    message?: string;
  } = {},
): void {
  const responseCode = options.responseCode ?? ResponseCode.Refused;
  expect(res.body.error?.data).toMatchObject({ errorCode: code, responseCode });
  expect(res.body.error?.message).toBe(options.message ?? errorText(code, options.lang, options.params));
  expect(res.status).toBe(responseCode === ResponseCode.Refused ? 400 : 401);
}

export function expectOk(res: TrpcResult): void {
  expect(res.body.error, JSON.stringify(res.body.error)).toBeUndefined();
  expect(res.status).toBe(200);
}
