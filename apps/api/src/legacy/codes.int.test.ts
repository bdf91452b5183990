import type { Language } from "@northstar/shared/languages";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ageCodes,
  countUsers,
  expectRefusal,
  newEmail,
  query,
  registerForm,
  sendRegisterCode,
} from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

const emailCode = (email: string, lang: Language = "en") => sendRegisterCode(h, email, lang);
const form = registerForm;

/** Verification codes as web/getCode issues them and web/userRegister consumes them. */
describe("verification codes: single use, attempt-limited, rate-limited", () => {
  let before: number;
  beforeAll(async () => {
    before = await countUsers(h);
  });
  afterAll(async () => {
    // Only the registrations the tests meant to succeed created users.
    expect(await countUsers(h)).toBe(before);
  });

  it("refuses a wrong code, and the right one still works afterwards", async () => {
    const email = newEmail("wrong");
    const code = await emailCode(email);
    const wrong = code === "000000" ? "000001" : "000000";
    const res = await h.call("userRegister", form(email, wrong, { lang: "xby" }));
    expectRefusal(res, "CODE_WRONG", { lang: "xby" });
    expect(res.data).toMatchObject({ field: "code" });
    // A code for another address is not this address's code either.
    expectRefusal(await h.call("userRegister", form(newEmail("other"), code)), "CODE_WRONG");
    expect((await h.call("userRegister", form(email, code))).code).toBe(0);
    before += 1;
  });

  it("refuses a consumed code when it is presented again", async () => {
    const email = newEmail("reuse");
    const code = await emailCode(email);
    expect((await h.call("userRegister", form(email, code))).code).toBe(0);
    before += 1;
    expectRefusal(await h.call("userRegister", form(email, code)), "ACCOUNT_EXISTS");
    // Even with the account gone, the code stays spent.
    await query(h, "delete from sessions where user_id = (select id from users where email = $1)", [email]);
    await query(h, "delete from users where email = $1", [email]);
    before -= 1;
    expectRefusal(await h.call("userRegister", form(email, code)), "CODE_WRONG");
  });

  it("kills a code after 5 wrong attempts, even for the right code", async () => {
    const email = newEmail("attempts");
    const code = await emailCode(email);
    const wrong = code === "999999" ? "999998" : "999999";
    for (let i = 1; i <= 4; i++) {
      expectRefusal(await h.call("userRegister", form(email, wrong)), "CODE_WRONG");
    }
    expectRefusal(await h.call("userRegister", form(email, wrong)), "CODE_TOO_MANY_ATTEMPTS");
    expectRefusal(await h.call("userRegister", form(email, code, { lang: "ft" })), "CODE_TOO_MANY_ATTEMPTS", {
      lang: "ft",
    });
  });

  it("refuses a second code to the same address within 60 s", async () => {
    const email = newEmail("freq");
    await emailCode(email);
    const res = await h.call("getCode", { type: "email", account: email, purpose: "register", lang: "zh" });
    expect(res.data).toMatchObject({ error: "CODE_TOO_FREQUENT" });
    const seconds = Number(/\d+/.exec(res.message)?.[0]);
    expect(seconds).toBeGreaterThanOrEqual(55);
    expect(seconds).toBeLessThanOrEqual(60);
    expectRefusal(res, "CODE_TOO_FREQUENT", { lang: "zh", params: { seconds } });
    const [row] = await query<{ n: number }>(
      h,
      "select count(*)::int as n from verification_codes where target = $1",
      [email],
    );
    expect(row?.n).toBe(1);
  });

  it("refuses the 11th code to one address in a day", async () => {
    const email = newEmail("daily");
    for (let i = 0; i < 10; i++) {
      const res = await h.call("getCode", { type: "email", account: email, purpose: "register" });
      expect(res.code, `code ${i + 1}: ${res.message}`).toBe(0);
      await ageCodes(h, email, 61);
    }
    expectRefusal(
      await h.call("getCode", { type: "email", account: email, purpose: "register" }),
      "CODE_DAILY_LIMIT",
    );
    // The 24-hour window slides: once the oldest code is a day old, one more may go out.
    await query(
      h,
      `update verification_codes set created_at = now() - interval '25 hours'
       where id = (select min(id) from verification_codes where target = $1)`,
      [email],
    );
    expect((await h.call("getCode", { type: "email", account: email, purpose: "register" })).code).toBe(0);
  });
});
