import { describe, expect, it } from "vitest";
import { displayAccount, headerName, maskEmail, maskPhone } from "./display.ts";

describe("displayAccount (SPEC section 3: the phone or else the email, cut to 12 characters)", () => {
  it("prefers the phone over the email", () => {
    expect(displayAccount("13812345678", "someone@example.com")).toBe("13812345678");
  });

  it("falls back to the email when there is no phone", () => {
    expect(displayAccount(null, "ab@example.com")).toBe("ab@example.c");
    expect(displayAccount("", "a@b.co")).toBe("a@b.co");
    expect(displayAccount(undefined, "averyveryverylongname@example.com")).toBe("averyveryver");
  });

  it("cuts to 12 characters, and is empty when there is neither", () => {
    expect(displayAccount("1234567890123456", null)).toBe("123456789012");
    expect(displayAccount("123456789012", null)).toBe("123456789012");
    expect(displayAccount(null, null)).toBe("");
    expect(displayAccount(undefined, "")).toBe("");
  });
});

describe("maskPhone (SPEC section 3: first 3, asterisks, last 6)", () => {
  it("masks a Chinese mobile number", () => {
    expect(maskPhone("13812345678")).toBe("138**345678");
  });

  it("keeps first 3 and last 6 with as many asterisks as hidden characters", () => {
    expect(maskPhone("447911123456")).toBe("447***123456");
    expect(maskPhone("1234567890")).toBe("123*567890");
    const long = "123456789012345";
    expect(maskPhone(long)).toBe(`123${"*".repeat(6)}012345`);
    expect(maskPhone(long)).toHaveLength(long.length);
  });

  it("never shows a short number whole", () => {
    expect(maskPhone("123456789")).toBe("123******");
    expect(maskPhone("12345")).toBe("123**");
    expect(maskPhone("123")).toBe("123");
    expect(maskPhone("")).toBe("");
  });
});

describe("maskEmail", () => {
  it("shows the first two characters and the domain", () => {
    expect(maskEmail("someone@example.com")).toBe("so***@example.com");
    expect(maskEmail("a@example.com")).toBe("a@example.com");
  });
});

describe("headerName (the nickname, or else the masked phone or email)", () => {
  it("shows the nickname when there is one", () => {
    expect(headerName({ nickname: "Ada", phone: "13812345678", email: "ada@example.com" })).toBe("Ada");
  });

  it("masks the phone by SPEC section 3's rule when there is no nickname", () => {
    expect(headerName({ nickname: "", phone: "13812345678", email: "ada@example.com" })).toBe("138**345678");
    expect(headerName({ nickname: "  ", phone: "13812345678" })).toBe("138**345678");
  });

  it("masks the email instead of cutting it", () => {
    expect(headerName({ nickname: "", phone: "", email: "averyveryverylongname@example.com" })).toBe(
      "av***@example.com",
    );
    expect(headerName({})).toBe("");
  });
});
