import { runMigrations } from "@northstar/domain/migrate";
import { buildApp } from "./app.ts";
import { env as loadEnv } from "./env.ts";
import { createDeps } from "./http/create-deps.ts";

/** Listens, and shuts down gracefully on SIGINT/SIGTERM: stop accepting, finish requests, close pools. */
const env = loadEnv();
await runMigrations(env.DATABASE_URL);
const deps = createDeps(env);
const app = await buildApp(deps);

let closing = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (closing) {
      return;
    }
    closing = true;
    app.log.info({ signal }, "shutting down");
    void app
      .close()
      .then(() => deps.close())
      .then(() => process.exit(0));
  });
}

await app.listen({ port: env.PORT, host: env.HOST });
