import { existsSync } from "node:fs";
import { relative, resolve, sep } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

/** Hashed build output: a new build gives a changed file a new name, so browsers may keep it. */
const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * Serves the built SPA and answers whether it did; the not-found handler then gives any unknown
 * page address index.html so client routes work. The build writes a .br and a .gz beside each
 * asset, sent to browsers that accept them. index.html and unhashed files (logo) are revalidated
 * on every load, so a new release shows at once.
 */
export async function registerWeb(app: FastifyInstance, webDist: string): Promise<boolean> {
  const root = resolve(webDist);
  if (!webDist || !existsSync(resolve(root, "index.html"))) {
    app.log.warn({ root }, "web app not built; serving the API only");
    return false;
  }
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders(res, path) {
      const hashed = relative(root, path).startsWith(`assets${sep}`);
      res.setHeader("cache-control", hashed ? IMMUTABLE : "no-cache");
      // Caches between here and the browser must keep the brotli, gzip and plain answers apart.
      res.setHeader("vary", "accept-encoding");
    },
  });
  return true;
}
