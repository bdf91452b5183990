import { describe, expect, it } from "vitest";
import { type ManifestChunk, pageChunks } from "./bundle-budget.mjs";

// The shape Vite writes: keys are source paths (or "_name" for shared chunks), imports are static.
const manifest: Record<string, ManifestChunk> = {
  "index.html": {
    file: "assets/index-a1.js",
    isEntry: true,
    imports: ["_react-b2.js", "_ui-c3.js"],
    dynamicImports: ["src/home.tsx", "src/trade.tsx", "src/admin.tsx"],
  },
  "_react-b2.js": { file: "assets/react-b2.js" },
  "_ui-c3.js": { file: "assets/ui-c3.js", imports: ["_react-b2.js"] },
  "_table-d4.js": { file: "assets/table-d4.js", imports: ["_ui-c3.js", "_select-e5.js"] },
  "_select-e5.js": { file: "assets/select-e5.js", imports: ["_table-d4.js"] },
  "_chart-f6.js": { file: "assets/chart-f6.js" },
  "src/home.tsx": { file: "assets/home-g7.js", imports: ["_table-d4.js"] },
  "src/trade.tsx": { file: "assets/trade-h8.js", imports: ["_ui-c3.js"], dynamicImports: ["_chart-f6.js"] },
  "src/admin.tsx": { file: "assets/admin-i9.js", imports: ["_table-d4.js"] },
  "_style.css": { file: "assets/style-j0.css" },
};

describe("the chunks a page's first load fetches", () => {
  it("are the entry, the page, and what they import statically, each once, even through a cycle", () => {
    expect(pageChunks(manifest, ["src/home.tsx"])).toEqual([
      "assets/home-g7.js",
      "assets/index-a1.js",
      "assets/react-b2.js",
      "assets/select-e5.js",
      "assets/table-d4.js",
      "assets/ui-c3.js",
    ]);
  });

  it("leave out what loads only when asked (other routes, a lazily loaded chart)", () => {
    const trade = pageChunks(manifest, ["src/trade.tsx"]);
    expect(trade).toEqual([
      "assets/index-a1.js",
      "assets/react-b2.js",
      "assets/trade-h8.js",
      "assets/ui-c3.js",
    ]);
    expect(trade).not.toContain("assets/chart-f6.js");
    expect(trade).not.toContain("assets/admin-i9.js");
  });

  it("fail loudly for a page the build no longer has", () => {
    expect(() => pageChunks(manifest, ["src/gone.tsx"])).toThrow(/src\/gone\.tsx/);
  });
});
