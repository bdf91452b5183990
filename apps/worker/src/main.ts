import {
  chainConfigFromEnv,
  hotWalletChain,
  hotWalletNetwork,
  loadHotWalletSigner,
  useHotWalletPayouts,
} from "@northstar/domain/chain";
import { getSiteSettings } from "@northstar/domain/content";
import { createDb } from "@northstar/domain/db";
import { useMessagePublisher } from "@northstar/domain/messages";
import { createMailTransport, createSmsProvider } from "@northstar/domain/notifications";
import { Redis } from "ioredis";
import { startChainWatcher } from "./chain-watcher.ts";
import { startContractRisk } from "./contract-risk.ts";
import { env as loadEnv } from "./env.ts";
import { startWorkerHttp } from "./http.ts";
import { startMarketData } from "./market-data.ts";
import { startC2cExpiry } from "./queues/c2c-expiry.ts";
import { startContractDeliveryWorker } from "./queues/contract-delivery.ts";
import { startContractOvernightWorker } from "./queues/contract-overnight.ts";
import { startCustodyYieldWorker } from "./queues/custody-yield.ts";
import { startHotWallet } from "./queues/hot-wallet.ts";
import { startLaunchpadUnlockWorker } from "./queues/launchpad-unlock.ts";
import { startLedgerReconcileWorker } from "./queues/ledger-reconcile.ts";
import { startLoanOverdueWorker } from "./queues/loan-overdue.ts";
import { startNotificationsWorker } from "./queues/notifications.ts";
import { startOptionSettlement } from "./queues/option-settlement.ts";
import { startProofPublishWorker } from "./queues/proof-publish.ts";
import { startReferralRewardsWorker } from "./queues/referral-rewards.ts";
import { startSpot } from "./spot.ts";

/** The worker process: runs every queue's processors until SIGINT/SIGTERM, then drains and exits. */
const env = loadEnv();
const log = (line: string) => console.log(`[worker] ${line}`);
const connection = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });
const { db, close } = createDb(env.DATABASE_URL, { max: 5 });
// Messages written by jobs (C2C expiry, loan overdue, the matcher's fills) update their owners' badges live.
useMessagePublisher(db, connection, env.REDIS_PREFIX);
const site = await getSiteSettings(db);

const workers = env.WORKER_ROLES.has("notifications")
  ? [
      startNotificationsWorker(connection, env.REDIS_PREFIX, {
        mail: createMailTransport(env.SMTP_URL, log),
        sms: createSmsProvider(env.SMS_PROVIDER, log),
        mailFrom: env.MAIL_FROM,
        siteName: site.name,
      }),
    ]
  : [];
if (env.WORKER_ROLES.has("custody-yield")) {
  workers.push(
    (await startCustodyYieldWorker(connection, env.REDIS_PREFIX, { db, now: () => new Date(), log })).worker,
  );
}
if (env.WORKER_ROLES.has("launchpad-unlock")) {
  workers.push(
    (await startLaunchpadUnlockWorker(connection, env.REDIS_PREFIX, { db, now: () => new Date(), log }))
      .worker,
  );
}
if (env.WORKER_ROLES.has("proof-publish")) {
  workers.push(
    (await startProofPublishWorker(connection, env.REDIS_PREFIX, { db, now: () => new Date(), log })).worker,
  );
}
if (env.WORKER_ROLES.has("loan-overdue")) {
  workers.push(
    (await startLoanOverdueWorker(connection, env.REDIS_PREFIX, { db, now: () => new Date(), log })).worker,
  );
}
if (env.WORKER_ROLES.has("referral-rewards")) {
  workers.push(
    (await startReferralRewardsWorker(connection, env.REDIS_PREFIX, { db, now: () => new Date(), log }))
      .worker,
  );
}
if (env.WORKER_ROLES.has("contract-overnight")) {
  workers.push(
    (await startContractOvernightWorker(connection, env.REDIS_PREFIX, { db, now: () => new Date(), log }))
      .worker,
  );
}
if (env.WORKER_ROLES.has("ledger-reconcile")) {
  workers.push(
    (await startLedgerReconcileWorker(connection, env.REDIS_PREFIX, { db, now: () => new Date(), log }))
      .worker,
  );
}
if (env.WORKER_ROLES.has("contract-delivery")) {
  workers.push(
    (await startContractDeliveryWorker(connection, env.REDIS_PREFIX, { db, now: () => new Date(), log }))
      .worker,
  );
}
for (const worker of workers) {
  worker.on("failed", (job, err) => log(`job ${job?.name ?? "?"} failed: ${err.message}`));
}
log(`started ${workers.length} queue worker(s)`);
const marketData = env.WORKER_ROLES.has("market-feed")
  ? startMarketData(db, connection, env, log)
  : { close: async () => {} };
const spot = startSpot(db, connection, env, log);
const options = env.WORKER_ROLES.has("option-settlement")
  ? startOptionSettlement({ db, connection, prefix: env.REDIS_PREFIX, log })
  : { close: async () => {} };
const c2c = env.WORKER_ROLES.has("c2c-expiry")
  ? startC2cExpiry({ db, connection, prefix: env.REDIS_PREFIX, log })
  : { close: async () => {} };
// Approvals this process makes (none today) and the API's agree on which withdrawals the hot wallet pays.
const payoutChain = hotWalletChain(env);
useHotWalletPayouts(payoutChain);
const signer = payoutChain && env.WORKER_ROLES.has("hot-wallet") ? loadHotWalletSigner(env) : null;
const hotWallet =
  payoutChain && signer
    ? startHotWallet({
        db,
        connection,
        prefix: env.REDIS_PREFIX,
        wallet: { network: hotWalletNetwork(payoutChain), signer },
        log,
      })
    : { close: async () => {} };
if (signer) {
  log(`hot wallet ${signer.address} pays withdrawals on ${payoutChain?.network}`);
}
const contractRisk = env.WORKER_ROLES.has("contract-risk")
  ? startContractRisk(db, connection, {
      prefix: env.REDIS_PREFIX,
      leaseTtlMs: env.LEASE_TTL_MS,
      log,
      shards: env.CONTRACT_RISK_SHARDS,
      ...(env.CONTRACT_RISK_MAX_SHARDS ? { maxShards: env.CONTRACT_RISK_MAX_SHARDS } : {}),
    })
  : { close: async () => {} };
const chainConfig = chainConfigFromEnv(env);
const chainWatcher =
  env.WORKER_ROLES.has("chain-watcher") && chainConfig
    ? startChainWatcher(db, connection, chainConfig, {
        prefix: env.REDIS_PREFIX,
        leaseTtlMs: env.LEASE_TTL_MS,
        log,
        startBlock: env.CHAIN_START_BLOCK,
      })
    : { close: async () => {} };

const http =
  env.WORKER_HTTP_PORT > 0
    ? await startWorkerHttp(
        {
          db,
          redis: connection,
          prefix: env.REDIS_PREFIX,
          ...(env.METRICS_TOKEN ? { metricsToken: env.METRICS_TOKEN } : {}),
        },
        { port: env.WORKER_HTTP_PORT, host: env.WORKER_HTTP_HOST },
      )
    : null;
if (http) {
  log(`health, readiness and metrics on port ${http.port}`);
}

const shutdown = async () => {
  await http?.close();
  await Promise.all([
    ...workers.map((w) => w.close()),
    marketData.close(),
    spot.close(),
    options.close(),
    c2c.close(),
    hotWallet.close(),
    contractRisk.close(),
    chainWatcher.close(),
  ]);
  connection.disconnect();
  await close();
  process.exit(0);
};
process.on("SIGINT", () => void shutdown());
process.on("SIGTERM", () => void shutdown());
