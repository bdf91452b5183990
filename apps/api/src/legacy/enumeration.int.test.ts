import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { SECRET_VERIFY_CHANNEL } from "@northstar/domain/identity";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ageCodes, expectRefusal, newEmail } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import type { Envelope } from "./define.ts";

// Whoever probes login or password reset must not learn whether an account exists.
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

/** What a client can compare between two answers: everything but the clock. */
const seen = ({ time: _time, ...rest }: Envelope) => rest;

describe("login with an unknown account", () => {
  it("answers exactly as a wrong password does, attempt after attempt, up to the lock", async () => {
    const known = await h.registerByEmail();
    const unknown = newEmail("ghost");
    const attempt = (account: string) =>
      h.call("userLogin", { type: "email", account, password: "wrong-pass", lang: "yn" });
    for (let i = 0; i < 6; i++) {
      const a = await attempt(known.email);
      const b = await attempt(unknown);
      expect(seen(b), `attempt ${i + 1}`).toEqual(seen(a));
    }
    // The sequence above went through the counter and the lock, not one answer repeated.
    expectRefusal(await attempt(unknown), "ACCOUNT_LOCKED", { lang: "yn", params: { minutes: 15 } });
  });

  it("does the same password-hash work as a wrong password on a known account", async () => {
    const known = await h.registerByEmail();
    // What each login compared: the cost parameters of every hash check, as the password module reports them.
    const hashWork = async (account: string) => {
      const seenChecks: unknown[] = [];
      const record = (message: unknown) => seenChecks.push(message);
      subscribe(SECRET_VERIFY_CHANNEL, record);
      try {
        await h.call("userLogin", { type: "email", account, password: "wrong-pass" });
      } finally {
        unsubscribe(SECRET_VERIFY_CHANNEL, record);
      }
      return seenChecks;
    };
    const knownWork = await hashWork(known.email);
    expect(knownWork).toHaveLength(1);
    // A different unknown address each time, first and later attempts alike.
    expect(await hashWork(newEmail("ghost"))).toEqual(knownWork);
    const ghost = newEmail("ghost");
    await hashWork(ghost);
    expect(await hashWork(ghost)).toEqual(knownWork);
  });
});

describe("password reset for an unknown account", () => {
  it("answers the code request and the reset as for a known account", async () => {
    const known = await h.registerByEmail();
    await ageCodes(h, known.email);
    const unknown = newEmail("ghost");
    const getCode = (account: string) =>
      h.call("getCode", { type: "email", account, purpose: "reset", lang: "ft" });
    expect(seen(await getCode(unknown))).toEqual(seen(await getCode(known.email)));
    // Asking again at once is refused the same way for both. The seconds left count from each
    // one's first request, so they may differ by the time between the requests (on a loaded machine
    // more than a second): the answers are compared with the number left out, and both numbers must
    // be close to the full wait.
    const secondsLeft = (e: Envelope) => Number(/\d+/.exec(e.message)?.[0]);
    const anySeconds = (e: Envelope) => ({ ...seen(e), message: e.message.replace(/\d+/, "#") });
    const again = await getCode(known.email);
    expect(secondsLeft(again)).toBeGreaterThan(50);
    expectRefusal(again, "CODE_TOO_FREQUENT", { lang: "ft", params: { seconds: secondsLeft(again) } });
    const unknownAgain = await getCode(unknown);
    expect(secondsLeft(unknownAgain)).toBeGreaterThan(50);
    expect(anySeconds(unknownAgain)).toEqual(anySeconds(again));

    const reset = (account: string) =>
      h.call("updatePassword", {
        mode: "reset",
        type: "email",
        account,
        code: "000000",
        password: "newpass123",
        confirm_password: "newpass123",
        lang: "ft",
      });
    const knownReset = await reset(known.email);
    expectRefusal(knownReset, "CODE_WRONG", { lang: "ft" });
    expect(seen(await reset(unknown))).toEqual(seen(knownReset));
  });
});
