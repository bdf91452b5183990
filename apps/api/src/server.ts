import { useApiKeyKeyring } from "@northstar/domain/apikeys";
import { hotWalletChain, useHotWalletPayouts } from "@northstar/domain/chain";
import {
  configureSecretHashing,
  loadTotpKeyring,
  reencryptTotpSecrets,
  useTotpKeyring,
} from "@northstar/domain/identity";
import { runMigrations } from "@northstar/domain/migrate";
import { buildApp } from "./app.ts";
import { env as loadEnv } from "./env.ts";
import { createDeps } from "./http/create-deps.ts";

/** Listens, and shuts down gracefully on SIGINT/SIGTERM: stop accepting, finish requests, close pools. */
const env = loadEnv();
await runMigrations(env.DATABASE_URL);
const deps = createDeps(env);
// With a watched chain and a hot-wallet key, approvals on that chain go to the worker's hot wallet.
useHotWalletPayouts(hotWalletChain(env));
// Password hashing in flight per process, and how many may wait (see identity/secrets.ts).
configureSecretHashing({
  ...(env.SECRET_HASH_CONCURRENCY ? { concurrency: env.SECRET_HASH_CONCURRENCY } : {}),
  queue: env.SECRET_HASH_QUEUE,
});
const totpKeys = loadTotpKeyring({
  key: env.TOTP_ENCRYPTION_KEY,
  previousKeys: env.TOTP_ENCRYPTION_PREVIOUS_KEYS,
  dataDir: env.DATA_DIR,
});
useTotpKeyring(totpKeys);
// API key secrets have a keyring of their own, so either key can be rotated or leak alone.
useApiKeyKeyring(
  loadTotpKeyring({
    key: env.API_KEY_ENCRYPTION_KEY,
    previousKeys: env.API_KEY_ENCRYPTION_PREVIOUS_KEYS,
    dataDir: env.DATA_DIR,
    fileName: "api-key-keys",
  }),
);
// Google Authenticator secrets stored before they were encrypted are encrypted now, before serving.
await reencryptTotpSecrets(deps.db, totpKeys, { onlyClear: true });
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
