import { getBannerDetail, listActiveBanners } from "@northstar/domain/content";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectTrpcRefusal, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import { dataOf, operatorToken, type TrpcResult } from "../test/money.ts";

let h: Harness;
let content: string;
beforeAll(async () => {
  h = await createHarness();
  content = await operatorToken(h, "content");
});
afterAll(async () => {
  await h?.close();
});

/** A back-office call as the web app makes it, with the operator header and a language. */
async function op(
  path: string,
  input: unknown,
  token = content,
  kind: "query" | "mutation" = "mutation",
  lang = "en",
): Promise<TrpcResult> {
  const headers = { "x-operator-token": token, lang };
  const res =
    kind === "mutation"
      ? await h.app.inject({
          method: "POST",
          url: `/trpc/contentAdmin.${path}`,
          payload: JSON.stringify(input ?? {}),
          headers: { ...headers, "content-type": "application/json" },
        })
      : await h.app.inject({
          method: "GET",
          url: `/trpc/contentAdmin.${path}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
          headers,
        });
  return { status: res.statusCode, body: res.json() };
}

async function pub<T>(path: string, input?: unknown, lang = "en"): Promise<T> {
  const res = await h.app.inject({
    method: "GET",
    url: `/trpc/content.${path}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
    headers: { lang },
  });
  return dataOf<T>({ status: res.statusCode, body: res.json() });
}

async function pubRes(path: string, input?: unknown): Promise<TrpcResult> {
  const res = await h.app.inject({
    method: "GET",
    url: `/trpc/content.${path}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
  });
  return { status: res.statusCode, body: res.json() };
}

interface Centre {
  id: number;
  name: string;
  articles: { id: number; title: string }[];
}

const counts = async () =>
  (
    await query<{ texts: number; cats: number; banners: number; audit: number }>(
      h,
      `select (select count(*)::int from content_texts) as texts, (select count(*)::int from help_categories) as cats,
              (select count(*)::int from banners) as banners, (select count(*)::int from audit_log) as audit`,
    )
  )[0];

describe("help centre, banners and the article editor", () => {
  it("sanitises bodies (no scripts, no event handlers) and the preview shows exactly what is stored", async () => {
    const dirty = `<p onclick="steal()">Hi <b>there</b></p><script>alert(1)</script><img src="https://x.test/a.png" onerror="x()"><a href="javascript:evil()">x</a>`;
    const preview = dataOf<{ html: string }>(await op("preview", { html: dirty }));
    expect(preview.html).not.toMatch(/script|onclick|onerror|javascript:/);
    expect(preview.html).toContain("<b>there</b>");
    const cat = dataOf<{ id: number }>(
      await op("saveHelpCategory", { names: { en: "Sanitising" }, sort: 50 }),
    );
    const { id } = dataOf<{ id: number }>(
      await op("saveArticle", {
        kind: "help",
        categoryId: cat.id,
        texts: { en: { title: "Clean", body: dirty } },
        published: true,
      }),
    );
    const article = await pub<{ content: string; category: { name: string } }>("helpArticle", { id });
    expect(article.content).toBe(preview.html);
    expect(article.category.name).toBe("Sanitising");
    const audit = await query<{ action: string; actor: string }>(
      h,
      "select action, actor from audit_log where subject = $1 order by id",
      [`content:${id}`],
    );
    expect(audit.map((a) => a.action)).toEqual(["content.article.create"]);
    expect(audit[0]?.actor).toMatch(/^operator:\d+$/);
  });

  it("lists categories in sort order with their published articles, per language; drafts stay hidden", async () => {
    const second = dataOf<{ id: number }>(
      await op("saveHelpCategory", { names: { en: "Second", zh: "第二" }, sort: 20 }),
    );
    const first = dataOf<{ id: number }>(
      await op("saveHelpCategory", { names: { en: "First", zh: "第一" }, sort: 10 }),
    );
    const empty = dataOf<{ id: number }>(await op("saveHelpCategory", { names: { en: "Empty" }, sort: 5 }));
    const save = async (categoryId: number, title: string, published: boolean, sort = 0) =>
      dataOf<{ id: number }>(
        await op("saveArticle", {
          kind: "help",
          categoryId,
          sort,
          published,
          texts: {
            en: { title, body: `<p>${title}</p>` },
            zh: { title: `中文 ${title}`, body: "<p>中文</p>" },
          },
        }),
      ).id;
    const b = await save(first.id, "B", true, 2);
    const a = await save(first.id, "A", true, 1);
    const draft = await save(second.id, "Draft", false);
    const c = await save(second.id, "C", true);

    const centre = await pub<Centre[]>("helpCentre");
    const ours = centre.filter((x) => [first.id, second.id, empty.id].includes(x.id));
    expect(ours.map((x) => x.name)).toEqual(["First", "Second"]);
    expect(ours[0]?.articles.map((x) => x.id)).toEqual([a, b]);
    expect(ours[1]?.articles.map((x) => x.id)).toEqual([c]);
    const zh = await pub<Centre[]>("helpCentre", undefined, "zh");
    expect(zh.find((x) => x.id === first.id)?.name).toBe("第一");
    expect(zh.find((x) => x.id === first.id)?.articles[0]?.title).toBe("中文 A");

    // A draft is not listed nor opened; published, it is; withdrawn, it is gone again.
    expect((await pubRes("helpArticle", { id: draft })).body.error?.data.errorCode).toBe("NOT_FOUND");
    dataOf(await op("setArticlePublished", { id: draft, published: true }));
    expect((await pub<{ title: string }>("helpArticle", { id: draft })).title).toBe("Draft");
    dataOf(await op("setArticlePublished", { id: c, published: false }));
    const after = await pub<Centre[]>("helpCentre");
    expect(after.find((x) => x.id === second.id)?.articles.map((x) => x.id)).toEqual([draft]);
    expect((await pubRes("helpArticle", { id: c })).body.error?.data.errorCode).toBe("NOT_FOUND");
    // Unpublished news stays out of the legacy list too.
    const news = dataOf<{ id: number }>(
      await op("saveArticle", { kind: "news", texts: { en: { title: "Secret news", body: "x" } } }),
    ).id;
    const listed = await h.call("getTextsList", { kind: "news", page_size: "50" }, "GET");
    expect((listed.data as { list: { id: number }[] }).list.map((i) => i.id)).not.toContain(news);
    const byId = await h.call("getTextsList", { id: String(news) }, "GET");
    expect(byId.code).not.toBe(0);
  });

  it("shows a banner only while published and inside its window", async () => {
    const t0 = Math.floor(Date.UTC(2031, 0, 1) / 1000);
    const { id } = dataOf<{ id: number }>(
      await op("saveBanner", {
        texts: {
          en: { title: "Spring", body: "<p>Spring offer</p>" },
          ty: { title: "ฤดูใบไม้ผลิ", body: "<p>ข้อเสนอ</p>" },
        },
        image: "/icons/icon-512.png",
        published: true,
        startsAt: t0,
        endsAt: t0 + 3600,
      }),
    );
    const at = (s: number) => new Date(s * 1000);
    const ids = async (s: number) => (await listActiveBanners(h.db, "en", at(s))).map((b) => b.id);
    expect(await ids(t0 - 1)).not.toContain(id);
    expect(await ids(t0)).toContain(id);
    expect(await ids(t0 + 3599)).toContain(id);
    expect(await ids(t0 + 3600)).not.toContain(id);
    expect((await getBannerDetail(h.db, "ty", id, at(t0 + 10))).title).toBe("ฤดูใบไม้ผลิ");
    await expect(getBannerDetail(h.db, "en", id, at(t0 + 3600))).rejects.toMatchObject({ code: "NOT_FOUND" });
    dataOf(await op("setBannerPublished", { id, published: false }));
    expect(await ids(t0 + 10)).not.toContain(id);

    // Without a window it shows now, through the public API, until withdrawn.
    const open = dataOf<{ id: number }>(
      await op("saveBanner", {
        texts: { en: { title: "Open", body: "<p>Now</p>" } },
        image: "/logo.svg",
        published: true,
      }),
    ).id;
    expect((await pub<{ id: number }[]>("banners")).map((b) => b.id)).toContain(open);
    expect((await pub<{ content: string }>("banner", { id: open })).content).toBe("<p>Now</p>");
    expect((await pub<{ id: number }[]>("banners")).map((b) => b.id)).not.toContain(id);
  });

  it("refuses bad input, translated, changing nothing", async () => {
    const before = await counts();
    const cat =
      (await query<{ id: number }>(h, "select max(id)::int as id from help_categories"))[0]?.id ?? 0;
    const cases: [string, unknown, Parameters<typeof expectTrpcRefusal>[1], string][] = [
      [
        "saveArticle",
        { kind: "news", texts: { en: { title: "  ", body: "x" } } },
        "CONTENT_TITLE_REQUIRED",
        "title",
      ],
      [
        "saveArticle",
        { kind: "news", texts: { zh: { title: "只有中文", body: "x" } } },
        "CONTENT_TITLE_REQUIRED",
        "title",
      ],
      [
        "saveArticle",
        { kind: "news", texts: { en: { title: "x".repeat(121), body: "x" } } },
        "CONTENT_TEXT_TOO_LONG",
        "texts.en.title",
      ],
      [
        "saveArticle",
        { kind: "news", texts: { en: { title: "Long", body: "x".repeat(50_001) } } },
        "CONTENT_TEXT_TOO_LONG",
        "texts.en.body",
      ],
      [
        "saveArticle",
        { kind: "help", categoryId: cat + 1000, texts: { en: { title: "Lost" } } },
        "HELP_CATEGORY_UNKNOWN",
        "categoryId",
      ],
      [
        "saveArticle",
        { kind: "help", texts: { en: { title: "No category" } } },
        "HELP_CATEGORY_UNKNOWN",
        "categoryId",
      ],
      ["saveArticle", { id: 1, kind: "news", texts: { en: { title: "Not a page" } } }, "NOT_FOUND", "id"],
      ["saveHelpCategory", { names: { zh: "只有中文" } }, "CONTENT_TITLE_REQUIRED", "names"],
      ["saveHelpCategory", { names: { en: "n".repeat(61) } }, "CONTENT_TEXT_TOO_LONG", "names"],
      [
        "saveBanner",
        { texts: { en: { title: "B" } }, image: "https://evil.test/a.png" },
        "BANNER_IMAGE_INVALID",
        "image",
      ],
      [
        "saveBanner",
        { texts: { en: { title: "B" } }, image: "/../etc/passwd.png" },
        "BANNER_IMAGE_INVALID",
        "image",
      ],
      [
        "saveBanner",
        { texts: { en: { title: "B" } }, image: "/a.png", startsAt: 2000, endsAt: 1000 },
        "BANNER_WINDOW_INVALID",
        "endsAt",
      ],
    ];
    for (const [path, input, code, field] of cases) {
      for (const lang of ["en", "zh"] as const) {
        const res = await op(path, input, content, "mutation", lang);
        expect(res.body.error?.data, `${path} ${JSON.stringify(input).slice(0, 80)}`).toMatchObject({
          errorCode: code,
          field,
        });
        if (code !== "CONTENT_TEXT_TOO_LONG") {
          expectTrpcRefusal(res, code, { lang });
        }
      }
    }
    // The too-long refusal names the field in the caller's language.
    const zh = await op(
      "saveArticle",
      { kind: "news", texts: { en: { title: "x".repeat(121) } } },
      content,
      "mutation",
      "zh",
    );
    expect(zh.body.error?.message).toBe("标题过长");
    expect(await counts()).toEqual(before);
  });

  it("lets only operators with the content permission edit, and nobody without a session", async () => {
    const before = await counts();
    const finance = await operatorToken(h, "finance");
    const compliance = await operatorToken(h, "compliance");
    for (const token of [finance, compliance]) {
      const res = await op("saveArticle", { kind: "news", texts: { en: { title: "Nope" } } }, token);
      expectTrpcRefusal(res, "FORBIDDEN");
      expectTrpcRefusal(await op("articles", { kind: "news" }, token, "query"), "FORBIDDEN");
    }
    const anonymous = await h.app.inject({
      method: "POST",
      url: "/trpc/contentAdmin.saveBanner",
      payload: JSON.stringify({ texts: { en: { title: "x" } }, image: "/a.png" }),
      headers: { "content-type": "application/json" },
    });
    expect(anonymous.json().error?.data.errorCode).toBe("LOGIN_REQUIRED");
    // Nothing is written but the audit of the refused attempts.
    const after = await counts();
    expect({ ...after, audit: 0 }).toEqual({ ...before, audit: 0 });
    // An administrator holds the permission too; the list shows drafts to operators.
    const adminToken = await operatorToken(h, "admin");
    const list = dataOf<{ published: boolean }[]>(
      await op("articles", { kind: "news" }, adminToken, "query"),
    );
    expect(list.some((a) => !a.published)).toBe(true);
  });
});
