import { randomBytes, randomUUID } from "node:crypto";
import { authenticateOperator } from "@northstar/domain/admin";
import { authenticate, createSession } from "@northstar/domain/identity";
import { isErrorCode, ResponseCode } from "@northstar/shared/errors";
import { hasKey } from "@northstar/shared/i18n";
import { can, OPERATOR_ROLES, type OperatorRole, type Permission } from "@northstar/shared/operators";
import fc from "fast-check";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { fieldKey } from "./http/errors.ts";
import { LEGACY_CALLS } from "./legacy/index.ts";
import { query, tokenHash } from "./test/fixtures.ts";
import { createHarness, type Harness } from "./test/harness.ts";
import { grant, signInOperator, userIdOf } from "./test/money.ts";
import { appRouter } from "./trpc/router.ts";

/**
 * No input makes the server fail. Every tRPC procedure of the app router and every legacy `web/*`
 * call of the legacy table (walked here, so a new one is covered without touching this file) gets
 * generated bad input: wrong types, missing fields, huge strings, over-precise decimals, negative,
 * NaN- and Infinity-like numbers, impossible dates, huge integers, nested objects, unicode, NUL bytes
 * and empty bodies, shaped after the procedure's own contract so that much of it gets past the
 * contract into the domain. Sent as a signed-in user (operator procedures as a signed-in operator
 * whose role holds the permission) through the real HTTP app, every answer must be a translated
 * refusal or a success, never a server fault.
 *
 * Deterministic: a fixed seed (FUZZ_SEED overrides it, FUZZ_RUNS the runs per call); fast-check
 * prints the seed and the counterexample of a failure.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_231);
const RUNS = Number(process.env.FUZZ_RUNS ?? 5);

let h: Harness;
let user = { token: "", id: 0 };
const operators = new Map<OperatorRole, { id: number; token: string }>();

beforeAll(async () => {
  // A generous per-address budget: the throttle is not what is tested here.
  h = await createHarness({ authRatePerMinute: 100_000 });
  await newUser();
  await furnish();
}, 60_000);
afterAll(async () => {
  await h?.close();
});

/**
 * Something for ids to find, so bad amounts and dates reach the domain past "not found": the user
 * has money, and there are an earn product and a launchpad offering open (ids 1 in a fresh database).
 */
async function furnish() {
  await grant(h, user.id, "1000000");
  const { token } = await signInOperator(h, "admin");
  const create = async (path: string, input: unknown) => {
    const res = await h.app.inject({
      method: "POST",
      url: `/trpc/${path}`,
      payload: JSON.stringify(input),
      headers: { "content-type": "application/json", "x-operator-token": token },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  await create("adminEarn.createProduct", {
    family: "ai",
    name: "Fuzz 7 days",
    currency: "USDT",
    cycle_days: 7,
    rate_min: "0.004",
    rate_max: "0.004",
    min_amount: "1",
    max_amount: "5000",
    user_limit: "10000",
    user_count: 3,
    capacity: "100000",
    risk_level: "conservative",
    redemption_rule: "percent",
  });
  await create("adminLaunchpad.create", {
    coin: "FUZZ",
    name: "Fuzz coin",
    issue_price: "1",
    subscribe_price: "0.5",
    total_quantity: "100000",
    min_quantity: "0.00000001",
    max_quantity: "1000",
    starts_at: new Date(Date.now() - 3_600_000).toISOString(),
    ends_at: new Date(Date.now() + 3_600_000).toISOString(),
    lock_days: 7,
    listing_day: "2027-02-01",
    circulation: "1000000",
  });
}

async function newUser() {
  const { token } = await h.registerByEmail();
  user = { token, id: await userIdOf(h, token) };
}

const userLive = () =>
  authenticate(h.db, user.token).then(
    () => true,
    () => false,
  );

/**
 * A live user session. A call may have signed it out or changed the password (a new session of the
 * same user, opened directly, is quicker than signing in), or frozen the user (a new user then).
 */
async function userToken(): Promise<string> {
  if (!(await userLive())) {
    user.token = await createSession(h.db, user.id);
    if (!(await userLive())) {
      await newUser();
    }
  }
  return user.token;
}

const operatorLive = (token: string) =>
  authenticateOperator(h.db, token).then(
    (op) => Boolean(op && !op.enrolmentRequired),
    () => false,
  );

/** A live session of an operator whose role holds `permission` (admin first), renewed as for users. */
async function operatorTokenFor(permission: Permission): Promise<string> {
  const role = (["admin", ...OPERATOR_ROLES] as OperatorRole[]).find((r) => can(r, permission)) ?? "admin";
  const current = operators.get(role);
  if (current && (await operatorLive(current.token))) {
    return current.token;
  }
  if (current) {
    const token = randomBytes(32).toString("base64url");
    await query(
      h,
      "insert into operator_sessions (operator_id, token_hash, expires_at) values ($1, $2, now() + interval '1 hour')",
      [current.id, tokenHash(token)],
    );
    if (await operatorLive(token)) {
      current.token = token;
      return token;
    }
  }
  const { id, token } = await signInOperator(h, role);
  operators.set(role, { id, token });
  return token;
}

// ---------------------------------------------------------------------------------------------------
// Generators

const HUGE = "9".repeat(400);
/** Strings that break naive parsing: numbers, decimals, dates, unicode, control characters, sizes. */
const NASTY_STRINGS = [
  "",
  " ",
  "0",
  "-0",
  "1",
  "2",
  "3",
  "-1",
  "-0.000000000000000001",
  "0.0000000000000000001",
  "1.0000000000000000001",
  "1.1234567890123456789",
  "0.0000000000000000000001",
  "123.12345678901234567890123",
  `1.${"1".repeat(30)}`,
  "1e18",
  "1e309",
  "-1e309",
  "1e-400",
  "NaN",
  "nan",
  "Infinity",
  "-Infinity",
  "+Infinity",
  "0x1F",
  "1,5",
  "1_000",
  " 12 ",
  "99999999999999999999.99",
  "100000000000000000000000000000",
  "99999999999999999999999999999999999",
  HUGE,
  `${HUGE}.${HUGE}`,
  "2147483648",
  "9223372036854775808",
  "-9223372036854775809",
  "2026-02-30",
  "2025-02-29",
  "2026-04-31",
  "2026-13-01",
  "2026-00-10",
  "0000-01-01",
  "9999-12-31",
  "275760-09-14",
  "2026-02-30T25:61:61Z",
  "2026-01-01T00:00:00+99:00",
  "00000000-0000-0000-0000-000000000000",
  "not-a-uuid",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "😀🇯🇵",
  "Ωmega ünïcödé 漢字 ภาษาไทย",
  "<script>alert(1)</script>",
  "' or 1=1 --",
  "%00",
  "../../etc/passwd",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "x".repeat(20_000),
  "é".repeat(100_000),
];
const nastyString = fc.oneof(
  fc.constantFrom(...NASTY_STRINGS),
  fc.string({ unit: "binary", maxLength: 24 }),
  fc.integer().map(String),
  fc.double({ noNaN: false }).map(String),
);

/** Numbers past every integer column, fractions where integers go, and the edges of JSON. */
const NASTY_NUMBERS = [
  0,
  -0,
  1,
  2,
  3,
  -1,
  0.5,
  -0.000001,
  1e-19,
  0.1 + 0.2,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 53,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  -Number.MAX_SAFE_INTEGER - 2,
  1e21,
  1e308,
  -1e308,
  Number.MIN_VALUE,
];
const nastyNumber = fc.oneof(fc.constantFrom(...NASTY_NUMBERS), fc.integer(), fc.double());

/** Every nasty scalar, to find those a contract lets through to the domain. */
const POOL: unknown[] = [...NASTY_STRINGS, ...NASTY_NUMBERS, true, false];

/** Anything of a wrong kind: nested objects and arrays, scalars, nulls. */
const wrongKind = fc.oneof(
  fc.constantFrom(null, true, false, [], {}, [[[]]], { "": { "": {} } }, { __proto__: { a: 1 } }),
  nastyString,
  nastyNumber,
  fc.jsonValue({ maxDepth: 3 }),
  fc.letrec((tie) => ({
    nested: fc.oneof(
      { depthSize: "small" },
      fc.integer(),
      fc.dictionary(fc.string({ maxLength: 6 }), tie("nested"), { maxKeys: 3 }),
      fc.array(tie("nested"), { maxLength: 3 }),
    ),
  })).nested,
);

type Def = { type: string; [key: string]: unknown };
const defOf = (schema: unknown): Def | undefined =>
  (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;

/**
 * Values shaped after a zod schema (objects keep their keys, enums their values), each leaf often
 * replaced by a nasty value of the right kind or of a wrong one; keys are sometimes left out.
 */
function shaped(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  if (!def || depth > 6) {
    return wrongKind;
  }
  const inner = (s: unknown) => shaped(s, depth + 1);
  if (!CONTAINERS.has(def.type)) {
    // A leaf: the nasty values its own contract accepts reach the domain, so they come most often.
    const accepted = POOL.filter((value) => contractRefuses(schema, value) === false);
    const own = leaf(def, inner);
    return accepted.length > 0
      ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...accepted) }, { weight: 2, arbitrary: own })
      : own;
  }
  switch (def.type) {
    case "object": {
      const shape = def.shape as Record<string, unknown>;
      const model = Object.fromEntries(
        Object.entries(shape).map(([key, value]) => [
          key,
          fc.oneof({ weight: 5, arbitrary: inner(value) }, { weight: 1, arbitrary: wrongKind }),
        ]),
      );
      return fc.oneof(
        { weight: 4, arbitrary: fc.record(model) },
        { weight: 1, arbitrary: fc.record(model, { requiredKeys: [] }) },
      );
    }
    case "array":
    case "set":
      return fc.array(inner(def.element ?? def.valueType), { maxLength: 4 });
    case "tuple":
      return fc.tuple(...(def.items as unknown[]).map(inner));
    case "record":
    case "map":
      return fc.dictionary(fc.oneof(nastyString, fc.string({ maxLength: 8 })), inner(def.valueType), {
        maxKeys: 4,
      });
    case "optional":
      return fc.oneof(
        { weight: 4, arbitrary: inner(def.innerType) },
        { weight: 1, arbitrary: fc.constant(undefined) },
      );
    case "nullable":
      return fc.oneof(
        { weight: 4, arbitrary: inner(def.innerType) },
        { weight: 1, arbitrary: fc.constant(null) },
      );
    case "default":
    case "prefault":
    case "catch":
    case "readonly":
    case "nonoptional":
    case "success":
      return inner(def.innerType);
    case "lazy":
      return inner((def.getter as () => unknown)());
    case "union":
      return fc.oneof(...(def.options as unknown[]).map(inner));
    case "intersection":
      return fc.oneof(inner(def.left), inner(def.right));
    default:
      return wrongKind;
  }
}

/** Schemas whose values are built from their parts; every other one is a leaf. */
const CONTAINERS = new Set([
  "object",
  "array",
  "set",
  "tuple",
  "record",
  "map",
  "optional",
  "nullable",
  "default",
  "prefault",
  "catch",
  "readonly",
  "nonoptional",
  "success",
  "lazy",
  "union",
  "intersection",
]);

/** A leaf's own values of its kind (and, for a pipe or transform, what its input reads). */
function leaf(def: Def, inner: (s: unknown) => fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  switch (def.type) {
    case "string":
    case "template_literal":
      return nastyString;
    case "number":
    case "int":
      return nastyNumber;
    case "bigint":
      return fc.oneof(nastyNumber, nastyString);
    case "boolean":
      return fc.oneof(fc.boolean(), fc.constantFrom("1", "true", "on", 0, 1));
    case "date":
      return nastyString;
    case "enum":
      return fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...Object.values(def.entries as Record<string, unknown>)) },
        { weight: 1, arbitrary: nastyString },
      );
    case "literal":
      return fc.constantFrom(...(def.values as unknown[]));
    case "pipe":
      // A preprocess's input is anything; otherwise what the first schema reads.
      return defOf(def.in)?.type === "transform" ? fc.oneof(inner(def.out), wrongKind) : inner(def.in);
    default:
      return wrongKind;
  }
}

/** What a procedure or call is sent: mostly contract-shaped, sometimes anything, sometimes nothing. */
function inputFor(schema: unknown): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 6, arbitrary: shaped(schema) },
    { weight: 2, arbitrary: wrongKind },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/** The value as it arrives after JSON (undefined keys gone, NaN and Infinity as null). */
const overJson = (value: unknown) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

/** Whether the contract refuses the value (undefined when a transform threw: the server will tell). */
function contractRefuses(schema: unknown, value: unknown): boolean | undefined {
  if (!schema) {
    return false;
  }
  try {
    return !(schema as z.ZodType).safeParse(value).success;
  } catch {
    return undefined;
  }
}

const UNTRANSLATED = /\{\{|\b(errors|fields)\.[A-Za-z]/;

/** Every field name a schema can report in a refusal, through objects, wrappers, pipes and unions. */
function fieldNames(schema: unknown, out = new Set<string>()): Set<string> {
  const def = defOf(schema);
  if (!def) {
    return out;
  }
  if (def.type === "object") {
    for (const [name, child] of Object.entries(def.shape as Record<string, unknown>)) {
      out.add(name);
      fieldNames(child, out);
    }
  }
  for (const key of ["in", "out", "left", "right", "innerType", "element", "valueType"]) {
    fieldNames(def[key], out);
  }
  for (const option of (def.options as unknown[] | undefined) ?? []) {
    fieldNames(option, out);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// tRPC

type ProcedureDef = {
  _def: {
    type: "query" | "mutation" | "subscription";
    inputs: unknown[];
    meta?: { permission?: Permission };
  };
};
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, ProcedureDef>)
  .filter(([, p]) => p._def.type !== "subscription")
  .map(([path, p]) => ({
    path,
    type: p._def.type as "query" | "mutation",
    input: p._def.inputs.length === 1 ? p._def.inputs[0] : undefined,
    permission: p._def.meta?.permission,
  }));

/** Mostly a fresh key, as the web sends with every money action; now and then a malformed one. */
const idempotencyKey = fc.oneof(
  { weight: 5, arbitrary: fc.constant("fresh").map(() => randomUUID()) },
  { weight: 1, arbitrary: fc.constantFrom("", "x", "a".repeat(65), "bad key!", "../..") },
);

type TrpcAnswer = {
  error?: {
    message: string;
    data?: { httpStatus?: number; responseCode?: number; errorCode?: string; field?: string | null };
  };
};

async function callProcedure(
  proc: (typeof procedures)[number],
  input: unknown,
  key: string,
): Promise<{ status: number; body: TrpcAnswer; raw: string }> {
  const headers: Record<string, string> = { lang: "hy" };
  if (proc.permission) {
    headers["x-operator-token"] = await operatorTokenFor(proc.permission);
  } else {
    headers.authorization = `Bearer ${await userToken()}`;
  }
  const res =
    proc.type === "mutation"
      ? await h.app.inject({
          method: "POST",
          url: `/trpc/${proc.path}`,
          payload: input === undefined ? "" : JSON.stringify(input),
          // A fresh key, as the web sends with every money action.
          headers: { ...headers, "content-type": "application/json", "idempotency-key": key },
        })
      : await h.app.inject({
          method: "GET",
          url: `/trpc/${proc.path}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
          headers,
        });
  let body: TrpcAnswer = {};
  try {
    body = res.json() as TrpcAnswer;
  } catch {
    // Left empty: the assertions below say what was wrong.
  }
  return { status: res.statusCode, body, raw: res.body.slice(0, 600) };
}

// Concurrent, a few procedures at a time, to keep the walk short; a procedure that ends the session
// others use only makes theirs a refusal until it is renewed.
describe.concurrent("no tRPC procedure answers a server fault to bad input", () => {
  it("walks the whole router", () => {
    expect(procedures.length).toBeGreaterThan(200);
  });

  it("names every input field of every procedure and legacy call in all 8 languages", () => {
    // A refusal names its field from the catalog; a missing name showed as "fields.proofId".
    const missing = [
      ...procedures.map((p) => [p.path, p.input] as const),
      ...LEGACY_CALLS.map((c) => [`web/${c.name}`, c.input] as const),
    ].flatMap(([where, schema]) =>
      [...fieldNames(schema)].filter((name) => !hasKey(fieldKey(name))).map((name) => `${where}: ${name}`),
    );
    expect(missing).toEqual([]);
  });

  for (const proc of procedures) {
    it(`${proc.type} ${proc.path}`, { timeout: 60_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(inputFor(proc.input), idempotencyKey, async (input, key) => {
          const res = await callProcedure(proc, input, key);
          const what = `${proc.path} ← ${JSON.stringify(input)?.slice(0, 300)}: HTTP ${res.status} ${res.raw}`;
          expect(res.status, what).toBeLessThan(500);
          if (res.status === 200) {
            // A success is fine only for an input the contract takes.
            expect(contractRefuses(proc.input, overJson(input)), what).not.toBe(true);
            return;
          }
          const data = res.body.error?.data;
          expect(res.status, what).toBeGreaterThanOrEqual(400);
          expect([ResponseCode.Refused, ResponseCode.NotLoggedIn, ResponseCode.SessionEnded], what).toContain(
            data?.responseCode,
          );
          expect(isErrorCode(data?.errorCode) && data?.errorCode !== "REQUEST_ERROR", what).toBe(true);
          expect(res.body.error?.message, what).not.toMatch(UNTRANSLATED);
          if (data?.errorCode === "FIELD_INVALID") {
            expect(data.field, what).toEqual(expect.any(String));
          }
        }),
        {
          seed: SEED,
          numRuns: RUNS,
          endOnFailure: true,
          // The plainest bad inputs always: nothing, a scalar, a nested object.
          examples: [
            [undefined, randomUUID()],
            ["x", randomUUID()],
            [{ a: { b: { c: [1e308] } } }, randomUUID()],
          ],
        },
      );
    });
  }
});

describe("text with a NUL character (PostgreSQL cannot store it)", () => {
  it("is refused naming the field, for a procedure that writes the text, saving nothing", async () => {
    const token = await userToken();
    // The walk above may have saved some settings for this user already: they stay as they were.
    const settings = () => query(h, "select * from c2c_payment_settings where user_id = $1", [user.id]);
    const before = await settings();
    const res = await h.trpc(
      "c2c.savePaymentSettings",
      // As the property test found it (FUZZ_SEED=99).
      {
        name: "Ann Lee",
        bank_name: "Bank",
        bank_number: "undefined",
        alipay_account: "2147483648",
        weixin_nickname: "a\u0000b",
        weixin_account: "ann",
      },
      token,
    );
    // It was a server fault: invalid byte sequence for encoding "UTF8": 0x00.
    expect(res.status).toBe(400);
    expect(res.body.error?.data).toMatchObject({ errorCode: "FIELD_INVALID", field: "weixin_nickname" });
    expect(await settings()).toEqual(before);
    // Deep in an object, or in a key, it is refused too; without a field the catalog names, as unreadable.
    const nested = await h.trpc("c2c.savePaymentSettings", { name: "Ann", "x\u0000": 1 }, token);
    expect(nested.body.error?.data).toMatchObject({ errorCode: "MALFORMED_REQUEST" });
  });

  it("is refused naming the field in a legacy call", async () => {
    const env = await h.call("userLogin", { type: "email", account: "a\u0000b@example.com", password: "x" });
    expect(env).toMatchObject({ code: 1, data: { error: "FIELD_INVALID", field: "account" } });
  });
});

// ---------------------------------------------------------------------------------------------------
// Legacy web/* calls

/** Form fields as strings; a JSON body may carry anything, and the app reads only its scalars. */
function formOf(value: unknown): Record<string, string> {
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    return {};
  }
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v !== undefined && v !== null) {
      out[key] = typeof v === "object" ? JSON.stringify(v) : String(v);
    }
  }
  return out;
}

const LEGACY_METHODS = ["POST form", "GET", "POST json", "POST multipart", "POST empty"] as const;

/** One legacy call as a client may send it: a query, a form, JSON (anything), multipart, or nothing. */
function legacyRequestFor(
  name: string,
  method: (typeof LEGACY_METHODS)[number],
  input: unknown,
  fields: Record<string, string>,
): InjectOptions {
  const url = `/web/${name}`;
  const form = new URLSearchParams(fields).toString();
  switch (method) {
    case "GET":
      return { method: "GET", url: `${url}?${form}` };
    case "POST json":
      return {
        method: "POST",
        url,
        payload: JSON.stringify({ ...(typeof input === "object" ? input : { input }), ...fields }),
        headers: { "content-type": "application/json" },
      };
    case "POST multipart": {
      const boundary = `----fuzz${randomBytes(6).toString("hex")}`;
      const parts = Object.entries(fields).map(
        ([key, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`,
      );
      return {
        method: "POST",
        url,
        payload: `${parts.join("")}--${boundary}--\r\n`,
        headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      };
    }
    case "POST empty":
      return { method: "POST", url, headers: { "content-type": "application/x-www-form-urlencoded" } };
    default:
      return {
        method: "POST",
        url,
        payload: form,
        headers: { "content-type": "application/x-www-form-urlencoded" },
      };
  }
}

const legacyRequest = fc.record({
  method: fc.constantFrom(...LEGACY_METHODS),
  withToken: fc.oneof(
    { weight: 5, arbitrary: fc.constant(true) },
    { weight: 1, arbitrary: fc.constant(false) },
  ),
  rtoken: fc.oneof(
    fc.constant(undefined),
    fc.constant("fresh"),
    fc.constantFrom("", "x", "bad token!", "a".repeat(64)),
  ),
  lang: fc.constantFrom("en", "xby", "jp", "hy", "ty", "yn", "zh", "ft", "??", ""),
});

describe("no legacy web/* call answers a server fault to bad input", () => {
  it("walks the whole legacy table", () => {
    expect(LEGACY_CALLS.length).toBeGreaterThanOrEqual(22);
  });

  for (const call of LEGACY_CALLS) {
    it(`web/${call.name}`, { timeout: 60_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(inputFor(call.input), legacyRequest, async (input, req) => {
          const fields = formOf(input);
          if (req.withToken) {
            fields.token = await userToken();
          }
          if (req.rtoken !== undefined) {
            fields.rtoken = req.rtoken === "fresh" ? randomBytes(6).toString("hex") : req.rtoken;
          }
          fields.lang = req.lang;
          const form = new URLSearchParams(fields).toString();
          const res = await h.app.inject(legacyRequestFor(call.name, req.method, input, fields));
          const what = `web/${call.name} ${req.method} ← ${form.slice(0, 300)}: HTTP ${res.statusCode} ${res.body.slice(0, 600)}`;
          expect(res.statusCode, what).toBe(200);
          const env = res.json() as { code: number; message: string; data: unknown; time: number };
          expect(typeof env.time, what).toBe("number");
          expect(
            [
              ResponseCode.Ok,
              ResponseCode.Refused,
              ResponseCode.NotLoggedIn,
              ResponseCode.SessionEnded,
              ResponseCode.Quiet,
            ],
            what,
          ).toContain(env.code);
          expect(env.message, what).not.toMatch(UNTRANSLATED);
          if (env.code === ResponseCode.Refused) {
            const data = env.data as { error?: string; field?: string };
            expect(isErrorCode(data.error), what).toBe(true);
            if (data.error === "FIELD_INVALID") {
              expect(data.field, what).toEqual(expect.any(String));
            }
          }
          if (env.code === ResponseCode.Ok && (req.method === "GET" || req.method === "POST form")) {
            // A success only for fields the contract takes.
            expect(contractRefuses(call.input, { ...fields }), what).not.toBe(true);
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    });
  }
});
