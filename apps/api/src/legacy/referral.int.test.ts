import { translate } from "@northstar/shared/i18n";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectRefusal, newEmail, query, registerForm, sendRegisterCode } from "../test/fixtures.ts";
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

const storedCodeOf = async (token: string) => {
  const uid = ((await h.call("info", { token })).data as { uid: string }).uid;
  const [row] = await query<{ invite_code: string }>(h, "select invite_code from users where uid = $1", [
    uid,
  ]);
  return row?.invite_code ?? "";
};

describe("web/getMyPromotion", () => {
  it("answers my code, link and count by level; a demo account's code invites nobody", async () => {
    const inviter = await h.registerByEmail();
    const inviteCode = await codeOf(inviter.token);
    const email = newEmail("friend");
    const code = await sendRegisterCode(h, email);
    // A demo account's code is refused: the chain is of real accounts only.
    const demo = await h.call("tempLogin", { amount: "10000" }, "GET");
    // (The demo account is shown no code; the one stored for it is what a user could have copied.)
    const demoCode = await storedCodeOf((demo.data as { token: string }).token);
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

  it("a demo account is shown no invitation code (registration refuses it) but why, in its language; a real one is shown its code", async () => {
    const demo = await h.call("tempLogin", { amount: "10000", lang: "zh" }, "GET");
    const token = (demo.data as { token: string }).token;
    const info = (await h.call("info", { token })).data as Record<string, unknown>;
    expect([info.account_kind, info.invitation_code, info.invite_link]).toEqual(["demo", "", ""]);
    const promotion = await h.call("getMyPromotion", { token, lang: "zh" }, "GET");
    expect(promotion.code).toBe(0);
    expect(promotion.data).toMatchObject({
      invitation_code: "",
      invite_link: "",
      can_invite: 0,
      invite_notice: translate("zh", "referral.demoCannotInvite"),
    });
    const mine = await h.trpc("referral.mine", undefined, token, "query");
    expect(mine.body.result?.data).toMatchObject({ code: "", link: "", canInvite: false });

    const real = await h.registerByEmail();
    const shown = await codeOf(real.token);
    expect(shown).toBe(await storedCodeOf(real.token));
    const realPromotion = await h.call("getMyPromotion", { token: real.token, lang: "zh" }, "GET");
    expect(realPromotion.data).toMatchObject({ invitation_code: shown, can_invite: 1, invite_notice: "" });
    expect((await h.trpc("referral.mine", undefined, real.token, "query")).body.result?.data).toMatchObject({
      code: shown,
      canInvite: true,
    });
  });
});
