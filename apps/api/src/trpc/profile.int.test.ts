import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorText, expectOk, expectTrpcRefusal, fieldInvalidText } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("identity security questions", () => {
  it("sets three answers and verifies them case- and space-insensitively", async () => {
    const u = await h.registerByEmail();
    const answers = [
      { question_id: 1, answer: "Paris" },
      { question_id: 2, answer: "Rex the dog" },
      { question_id: 3, answer: "blue" },
    ];
    const set = (input: unknown) => h.trpc("identity.setSecurityQuestions", input, u.token);
    expectTrpcRefusal(await set({ answers, login_password: "wrong-pass" }), "OLD_PASSWORD_WRONG");
    const dup = answers.map((a) => ({ ...a, question_id: 1 }));
    const dupRes = await set({ answers: dup, login_password: u.password });
    expectTrpcRefusal(dupRes, "FIELD_INVALID", { message: fieldInvalidText("answers") });
    expect(dupRes.body.error?.data.field).toBe("answers");
    expectTrpcRefusal(
      await set({ answers: answers.slice(0, 2), login_password: u.password }),
      "FIELD_INVALID",
      {
        message: fieldInvalidText("answers"),
      },
    );
    const blank = [{ question_id: 1, answer: " " }, ...answers.slice(1)];
    expectTrpcRefusal(await set({ answers: blank, login_password: u.password }), "FIELD_REQUIRED", {
      message: errorText("FIELD_REQUIRED", "en", { field: "Answer" }),
    });
    expect((await h.call("info", { token: u.token })).data).toMatchObject({ security_questions: 0 });

    expectOk(await set({ answers, login_password: u.password }));
    expect((await h.call("info", { token: u.token })).data).toMatchObject({ security_questions: 1 });
    const verify = (question_id: number, answer: string) =>
      h.trpc("identity.verifySecurityAnswer", { question_id, answer }, u.token);
    expectOk(await verify(1, "  PARIS "));
    expectOk(await verify(2, "rex  the DOG"));
    expectTrpcRefusal(await verify(1, "London"), "SECURITY_ANSWER_WRONG");
    expectTrpcRefusal(await verify(3, "Paris"), "SECURITY_ANSWER_WRONG");
    expectTrpcRefusal(await verify(4, "x"), "FIELD_INVALID", { message: fieldInvalidText("questionId") });
  });
});

describe("identity.updateNickname", () => {
  it("stores a valid nickname and refuses empty, too long or markup", async () => {
    const u = await h.registerByEmail();
    const update = (nickname: string) => h.trpc("identity.updateNickname", { nickname }, u.token);
    for (const bad of ["", "   ", "x".repeat(21), "<script>alert(1)</script>", "a<b", "tab\there"]) {
      expectTrpcRefusal(await update(bad), "NICKNAME_INVALID", { params: { max: 20 } });
    }
    expectOk(await update("  Trader 乔 "));
    expect((await h.call("info", { token: u.token })).data).toMatchObject({
      nickname: "Trader 乔",
      name: "Trader 乔",
    });
    expectOk(await update("二".repeat(20)));
  });
});
