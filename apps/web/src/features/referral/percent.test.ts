import { describe, expect, it } from "vitest";
import { percent } from "./percent.ts";

describe("percent", () => {
  it("writes a share as an exact percentage", () => {
    expect(percent("0.2")).toBe("20%");
    expect(percent("0.025")).toBe("2.5%");
    expect(percent("0")).toBe("0%");
  });
});
