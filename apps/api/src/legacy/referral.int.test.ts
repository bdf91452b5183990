import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectRefusal, newEmail, registerForm, sendRegisterCode } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";

/** web/getMyPromotion and the inviter chain fixed at registration. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

const codeOf = async (token: string) =>
  ((await h.call("info", { token })).data as { invitation_code: string }).invitation_code;

describe("web/getMyPromotion", () => {
  it("answers my code, link and count by level; a demo account's code invites nobody", async () => {
    const inviter = await h.registerByEmail();
    const inviteCode = await codeOf(inviter.token);
    const email = newEmail("friend");
    const code = await sendRegisterCode(h, email);
    // A demo account's code is refused: the chain is of real accounts only.
    const demo = await h.call("tempLogin", { amount: "10000" }, "GET");
    const demoCode = await codeOf((demo.data as { token: string }).token);
    expectRefusal(
      await h.call("userRegister", registerForm(email, code, { invite_code: demoCode })),
      "INVITE_CODE_INVALID",
    );
    expect((await h.call("userRegister", registerForm(email, code, { invite_code: inviteCode }))).code).toBe(
      0,
    );

    const res = await h.call("getMyPromotion", { token: inviter.token }, "GET");
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({
      invitation_code: inviteCode,
      invite_link: expect.stringMatching(new RegExp(`/register\\?code=${inviteCode}$`)),
      total_count: 1,
      total_income: [],
      levels: [
        { level: 1, rate: "0.2", count: 1, income: [] },
        { level: 2, rate: "0.1", count: 0, income: [] },
        { level: 3, rate: "0.05", count: 0, income: [] },
        { level: 4, rate: "0.02", count: 0, income: [] },
      ],
    });
    expect((await h.call("getMyPromotion", {}, "POST")).code).toBe(2000);
  });
});
