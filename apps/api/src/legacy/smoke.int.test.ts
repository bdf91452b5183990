import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../test/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("smoke", () => {
  it("registers, logs in and reads web/info", async () => {
    const { email, password } = await h.registerByEmail();
    const login = await h.call("userLogin", { type: "email", account: email, password, lang: "zh" });
    expect(login.code).toBe(0);
    expect(login.event).toBe("login");
    const token = (login.data as { token: string }).token;
    const info = await h.call("info", { token }, "GET");
    expect(info.code).toBe(0);
    expect((info.data as { email: string }).email).toBe(email);
  });
});
