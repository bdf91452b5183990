import { saveContentText } from "@northstar/domain/content";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorText, expectRefusal, fieldInvalidText, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

interface Item {
  id: number;
  kind: string;
  title: string;
  summary: string;
  content: string;
  time: number;
}
interface Page {
  total: number;
  list: Item[];
  page: number;
  page_size: number;
}

async function texts(fields: Record<string, string>, method: "GET" | "POST" = "GET"): Promise<Page> {
  const res = await h.call("getTextsList", fields, method);
  expect(res.code, res.message).toBe(0);
  return res.data as Page;
}

const THAI = /[\u0E00-\u0E7F]/;

describe("web/getLogo", () => {
  it("answers the site name, logo and support address by GET and POST", async () => {
    for (const method of ["GET", "POST"] as const) {
      const res = await h.call("getLogo", {}, method);
      expect(res).toMatchObject({
        code: 0,
        data: { name: "Northstar", logo: "/logo.svg", support_email: "support@northstar.local" },
      });
    }
  });
});

describe("web/getTextsList", () => {
  it("answers the footer pages 1, 3 and 5 in English and in Thai with different titles", async () => {
    const english = { 1: "Company profile", 3: "User agreement", 5: "Privacy terms" } as const;
    for (const id of [1, 3, 5] as const) {
      const en = await texts({ id: String(id), lang: "en" });
      const ty = await texts({ id: String(id), lang: "ty" }, "POST");
      expect(en.total).toBe(1);
      expect(en.list[0]).toMatchObject({ id, kind: "page", title: english[id] });
      expect(ty.list[0]?.id).toBe(id);
      expect(ty.list[0]?.title).not.toBe(en.list[0]?.title);
      expect(ty.list[0]?.title).toMatch(THAI);
      expect(ty.list[0]?.content).toMatch(THAI);
      expect(en.list[0]?.content.length).toBeGreaterThan(50);
    }
    // An unknown language falls back to English rather than refusing.
    expect((await texts({ id: "1", lang: "xx" })).list[0]?.title).toBe(english[1]);
  });

  it("pages news newest first, and lists announcements apart", async () => {
    const all = await texts({ kind: "news", page_size: "50" });
    expect(all.total).toBeGreaterThanOrEqual(3);
    expect(all.list).toHaveLength(all.total);
    expect(all.list.every((i) => i.kind === "news")).toBe(true);
    const times = all.list.map((i) => i.time);
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const first = await texts({ kind: "news", page: "1", page_size: "2" });
    const second = await texts({ kind: "news", page: "2", page_size: "2" });
    expect(first).toMatchObject({ total: all.total, page: 1, page_size: 2 });
    expect(first.list).toHaveLength(2);
    expect([...first.list, ...second.list].map((i) => i.id)).toEqual(all.list.slice(0, 4).map((i) => i.id));
    expect((await texts({ kind: "news", page: "999", page_size: "10" })).list).toEqual([]);

    const defaults = await texts({});
    expect(defaults).toMatchObject({ page: 1, page_size: 10 });
    expect(defaults.list.every((i) => i.kind === "news")).toBe(true);

    const notices = await texts({ kind: "announcement", lang: "zh" });
    expect(notices.total).toBeGreaterThanOrEqual(2);
    expect(notices.list.every((i) => i.kind === "announcement")).toBe(true);
    expect(notices.list.map((i) => i.id).some((id) => all.list.some((n) => n.id === id))).toBe(false);
  });

  it("refuses an unknown or unpublished id with NOT_FOUND", async () => {
    expectRefusal(await h.call("getTextsList", { id: "9999", lang: "zh" }), "NOT_FOUND", { lang: "zh" });
    await query(h, "update content_texts set published = false where id = 2");
    expectRefusal(await h.call("getTextsList", { id: "2" }), "NOT_FOUND");
    await query(h, "update content_texts set published = true where id = 2");
  });

  it("refuses a bad page_size, page, kind or id with FIELD_INVALID naming the field", async () => {
    for (const page_size of ["0", "51", "abc", "-1", "2.5"]) {
      const res = await h.call("getTextsList", { page_size });
      expectRefusal(res, "FIELD_INVALID", { message: fieldInvalidText("pageSize") });
      expect(res.data).toMatchObject({ field: "page_size" });
    }
    expect(fieldInvalidText("pageSize")).toBe(errorText("FIELD_INVALID", "en", { field: "Page size" }));
    expectRefusal(await h.call("getTextsList", { page: "0" }), "FIELD_INVALID", {
      message: fieldInvalidText("page"),
    });
    expectRefusal(await h.call("getTextsList", { kind: "secret", lang: "ty" }), "FIELD_INVALID", {
      message: fieldInvalidText("kind", "ty"),
    });
    expectRefusal(await h.call("getTextsList", { id: "one" }), "FIELD_INVALID", {
      message: fieldInvalidText("id"),
    });
  });

  it("serves operator text sanitised, and falls back to English for a missing translation", async () => {
    const id = await saveContentText(h.db, {
      kind: "news",
      texts: {
        en: {
          title: " Maintenance ",
          body: '<p onclick="steal()">Tonight</p><script>alert(1)</script><a href="javascript:x()">x</a><img src="x" onerror="y()">',
        },
      },
    });
    const item = (await texts({ id: String(id), lang: "jp" })).list[0];
    expect(item?.title).toBe("Maintenance");
    expect(item?.content).toContain("<p>Tonight</p>");
    expect(item?.content).not.toMatch(/script|onclick|onerror|javascript:/i);
    expect((await texts({ kind: "news" })).list[0]?.id).toBe(id);
  });
});
