import { stdin } from "node:process";
import { createInterface } from "node:readline/promises";
import {
  generateOperatorPassword,
  OPERATOR_ROLES,
  type OperatorRole,
  reencryptOperatorTotpSecrets,
  upsertOperator,
} from "@northstar/domain/admin";
import { recordAudit } from "@northstar/domain/audit";
import { addTotpKeyToFile, loadTotpKeyring, reencryptTotpSecrets } from "@northstar/domain/identity";
import { REJECT_REASONS, type RejectReason } from "@northstar/shared/kyc";
import { isOperatorRole } from "@northstar/shared/operators";
import { env as loadEnv } from "../env.ts";
import { createDeps } from "../http/create-deps.ts";
import { createCallerFactory } from "../trpc/init.ts";
import { appRouter } from "../trpc/router.ts";
import { CHAIN_USAGE, runChainCommand } from "./chain.ts";

/**
 * Operator command line: `pnpm admin <command> [args]`. It calls the same admin API as the back
 * office (with the operator "cli"), so every change is checked and audited the same way.
 */
const USAGE = `usage: pnpm admin <command>
  operator:add <username> <role>      add an operator; its password is generated and printed once
      roles: ${OPERATOR_ROLES.join(", ")} (admin and finance enrol two-factor sign-in at first sign-in)
  operator:role <username> <role>     change an operator's role (audited with before and after)
  operator:disable <username> | operator:enable <username>   disabling ends its sessions at once
  operator:list | operator:sessions:revoke <username> | operator:totp:reset <username>
  operator:password <username> [--role ${OPERATOR_ROLES.join("|")}] [--stdin]
      create the operator or set a new password (generated and printed once, or read from stdin)
  policy:list | policy:set <key> <json-value>
  deposits:list [pending|success|failed] | deposits:confirm <id> | deposits:reject <id> <reason>
  withdrawals:list [pending|success|failed|cancelled] | withdrawals:approve <id> | withdrawals:reject <id> <reason>
  deposit-address:list | deposit-address:set <currency> <chain> <address> [memo]
  chain:alerts | chain:alert:resolve <id>   credited chain deposits whose block was replaced (never credited twice)
${CHAIN_USAGE}
  instruments:list [search] | instrument:save <json> | instrument:enable <symbol> | instrument:disable <symbol>
  user <uid|email|phone>              balances and recent ledger lines
  user:freeze <uid|email|phone> <reason> | user:unfreeze <uid|email|phone> <reason>
      freezing ends the user's sessions and refuses sign-in and money actions (audited with the reason)
  reconcile                           recompute balances from postings and check the proof of liabilities
                                      against the ledger's user claims; exits 0 only when both hold
  totp:rotate-key [--reencrypt-only]  move every Google Authenticator secret (users' and operators') to the
      current key, each set in one transaction; with the key file (no TOTP_ENCRYPTION_KEY) a new key is generated into it first
  kyc:list [under_review|approved|rejected] [primary|advanced|address|credit]
  kyc:approve <id> [assessment-points] | kyc:reject <id> <reason> [note]
      reasons: ${REJECT_REASONS.join(", ")}
  earn:products | earn:product:create <json> | earn:product:on <id> | earn:product:off <id>
  earn:orders [status] | earn:redemptions | earn:redemption:approve <id> | earn:redemption:reject <id> <reason>
  earn:rates <productId> | earn:rate:publish <productId> <YYYY-MM-DD> <rate> | earn:yield | earn:yield:run
  launchpad:list | launchpad:create <json> | launchpad:allocate <id> | launchpad:fail <id> <reason> | launchpad:unlock
  options:products | options:set-products <json>   the options products (policy options.products, audited)
  options:exposure | options:house | options:settled [page]   open exposure, house result, settled orders
  proof:publish | proof:list   publish a proof of liabilities now; the published roots and totals
  loans:products | loans:product:create <json> | loans:list [status] | loans:queue | loans:overdue
  loans:show <id> | loans:approve <id> | loans:reject <id> <reason> | loans:overdue:run
  loans:wires [pending|confirmed|rejected] | loans:wire:confirm <id> | loans:wire:reject <id> <reason>
  c2c:merchants | c2c:merchant:create <json> | c2c:merchant:update <id> <json>
  c2c:merchant:pause <id> | c2c:merchant:resume <id>
  c2c:stock:fund <merchantId> <amount> | c2c:stock:withdraw <merchantId> <amount>   escrowed stock (ledger)
  c2c:orders [unmatched|matched|paid|completed|expired|rejected] | c2c:match <orderId>
  c2c:confirm <orderId> | c2c:reject <orderId> <reason>   decide a paid order (proof seen in the back office)
  c2c:rules <json {"en":"body":"...",...}>   the rules page per language
  contracts:products | contracts:set-products <json>   contract products (policy contracts.products, audited)
  contracts:set-leverage <json> | contracts:set-terms <json>   leverage levels and terms per asset class (audited)
  contracts:exposure | contracts:house | contracts:liquidations [limit]   open exposure, house result, liquidations
  referral:run [YYYY-MM-DD]   pay one ended UTC day's referral rewards (once; a paid day pays nothing),
      or without a day every ended day not paid yet (what the daily job runs)
  referral:payouts [YYYY-MM-DD]   the payouts (per day, inviter and currency) and the latest runs
  rewards:budget | rewards:budget:fund <currency> <amount>   the marketing budget that pays sign-in rewards (ledger, audited)`;

const [command, ...args] = process.argv.slice(2);
const env = loadEnv();
const deps = createDeps(env);
const caller = createCallerFactory(appRouter)({
  deps,
  lang: "en",
  token: undefined,
  operatorToken: undefined,
  ip: "127.0.0.1",
  userAgent: "cli",
  cliOperator: { id: 0, username: "cli", role: "admin", status: "active", enrolmentRequired: false },
});
const admin = caller.admin;
const adminEarn = caller.adminEarn;
const adminLaunchpad = caller.adminLaunchpad;
const optionsAdmin = caller.optionsAdmin;
const adminProofs = caller.adminProofs;
const adminLoans = caller.adminLoans;
const c2cAdmin = caller.c2cAdmin;
const contractsAdmin = caller.contractsAdmin;
const referralAdmin = caller.referralAdmin;
const rewardsAdmin = caller.rewardsAdmin;
const print = (value: unknown) => console.log(JSON.stringify(value, null, 2));
const id = () => Number(args[0]);

async function main(): Promise<number> {
  const chainCommand = await runChainCommand(command ?? "", args, {
    db: deps.db,
    chain: deps.chain ?? null,
    env,
    print,
  });
  if (chainCommand !== null) {
    return chainCommand;
  }
  switch (command) {
    case "operator:password": {
      const username = args[0];
      const roleIndex = args.indexOf("--role");
      const role = (roleIndex >= 0 ? args[roleIndex + 1] : "admin") as OperatorRole;
      if (!username || !OPERATOR_ROLES.includes(role)) {
        console.error(USAGE);
        return 2;
      }
      let password = generateOperatorPassword();
      if (args.includes("--stdin")) {
        password = (await createInterface({ input: stdin }).question("")).trim();
        if (password.length < 12) {
          console.error("an operator password needs at least 12 characters");
          return 2;
        }
      }
      const { created } = await upsertOperator(deps.db, { username, password, role, actor: "cli" });
      console.log(`${created ? "created" : "updated"} operator ${username} (${role})`);
      if (!args.includes("--stdin")) {
        console.log(`password: ${password}`);
      }
      return 0;
    }
    case "operator:add": {
      const [username, role] = args;
      if (!username || !isOperatorRole(role)) {
        console.error(USAGE);
        return 2;
      }
      const added = await admin.operators.add({ username, role });
      console.log(`created operator ${added.username} (${added.role})`);
      console.log(`password: ${added.password}`);
      return 0;
    }
    case "operator:role": {
      const [username, role] = args;
      if (!username || !isOperatorRole(role)) {
        console.error(USAGE);
        return 2;
      }
      await admin.operators.setRole({ username, role });
      console.log(`operator ${username} is now ${role}`);
      return 0;
    }
    case "operator:disable":
    case "operator:enable": {
      const status = command === "operator:disable" ? "disabled" : "active";
      const done = await admin.operators.setStatus({ username: args[0] ?? "", status });
      console.log(`operator ${done.username} ${status}; sessions ended: ${done.sessionsEnded}`);
      return 0;
    }
    case "operator:list":
      print(await admin.operators.list());
      return 0;
    case "operator:sessions:revoke":
      print(await admin.operators.revokeSessions({ username: args[0] ?? "" }));
      return 0;
    case "operator:totp:reset":
      await admin.operators.resetTwoFactor({ username: args[0] ?? "" });
      console.log(`two-factor sign-in of ${args[0]} removed; it enrols again at next sign-in`);
      return 0;
    case "policy:list":
      print(await admin.getPolicy());
      return 0;
    case "policy:set":
      await admin.setPolicy({ key: args[0] ?? "", value: JSON.parse(args[1] ?? "null") });
      console.log(`${args[0]} = ${args[1]}`);
      return 0;
    case "deposits:list":
      print(await admin.deposits({ status: args[0] as "pending" | undefined }));
      return 0;
    case "deposits:confirm":
      print(await admin.confirmDeposit({ id: id() }));
      return 0;
    case "deposits:reject":
      await admin.rejectDeposit({ id: id(), reason: args.slice(1).join(" ") });
      console.log("rejected");
      return 0;
    case "withdrawals:list":
      print(await admin.withdrawals({ status: args[0] as "pending" | undefined }));
      return 0;
    case "withdrawals:approve":
      await admin.approveWithdrawal({ id: id() });
      console.log("approved");
      return 0;
    case "withdrawals:reject":
      await admin.rejectWithdrawal({ id: id(), reason: args.slice(1).join(" ") });
      console.log("rejected");
      return 0;
    case "chain:alerts":
      print(await admin.chainAlerts());
      return 0;
    case "chain:sweeps":
      print(await admin.chainSweeps({ status: args[0] as "planned" | undefined, page: 1, page_size: 100 }));
      return 0;
    case "chain:alert:resolve":
      print(await admin.resolveChainAlert({ id: id() }));
      return 0;
    case "deposit-address:list":
      print(await admin.depositAddresses());
      return 0;
    case "deposit-address:set":
      await admin.setDepositAddress({
        currency: args[0] ?? "",
        chain: args[1] ?? "",
        address: args[2] ?? "",
        memo: args[3],
        enabled: true,
      });
      console.log("saved");
      return 0;
    case "instruments:list": {
      const { items, total } = await admin.instruments({ search: args[0], page: 1, page_size: 200 });
      for (const i of items) {
        console.log(
          `${i.symbol.padEnd(10)} ${i.category.padEnd(8)} tick ${i.tickSize} lot ${i.lotSize} ${i.enabled ? "" : "(disabled)"}`,
        );
      }
      console.log(`${items.length} of ${total}`);
      return 0;
    }
    case "instrument:save":
      print(await admin.saveInstrument(JSON.parse(args[0] ?? "{}")));
      return 0;
    case "instrument:enable":
    case "instrument:disable":
      await admin.setInstrumentEnabled({ symbol: args[0] ?? "", enabled: command === "instrument:enable" });
      console.log(command === "instrument:enable" ? "enabled" : "disabled");
      return 0;
    case "user":
      print(await admin.user({ query: args[0] ?? "" }));
      return 0;
    case "user:freeze":
    case "user:unfreeze": {
      const user = await admin.user({ query: args[0] ?? "" });
      const change = { user_id: user.id, reason: args.slice(1).join(" ") };
      print(await (command === "user:freeze" ? admin.freezeUser(change) : admin.unfreezeUser(change)));
      return 0;
    }
    case "reconcile": {
      const report = await admin.reconcile();
      console.log("book  currency  users  system");
      for (const t of report.totals) {
        console.log(`${t.book}  ${t.currency}  ${t.users}  ${t.system}`);
      }
      for (const a of report.mismatchedAccounts) {
        console.log(`MISMATCH account ${a.accountId}: balance ${a.balance}, postings sum ${a.computed}`);
      }
      for (const c of report.unbalancedCurrencies) {
        console.log(`UNBALANCED ${c.book} ${c.currency}: sums to ${c.sum}`);
      }
      for (const e of report.unbalancedEntries) {
        console.log(`UNBALANCED entry ${e.entryId} ${e.currency}: sums to ${e.sum}`);
      }
      for (const r of report.ruleBreaks) {
        console.log(
          `RULE BROKEN account ${r.accountId} ${r.systemCode} ${r.book} ${r.currency}: balance ${r.balance}, rule ${r.rule}`,
        );
      }
      // The proof of liabilities' checks: what users are owed equals the ledger's user claims.
      for (const check of report.checks) {
        for (const line of check.lines) {
          console.log(`${check.name}  ${line}`);
        }
        for (const problem of check.problems) {
          console.log(`DIFFERS ${check.name}: ${problem}`);
        }
      }
      const balanced =
        report.mismatchedAccounts.length +
          report.unbalancedCurrencies.length +
          report.unbalancedEntries.length ===
        0;
      console.log(
        !balanced
          ? "LEDGER DOES NOT BALANCE"
          : report.ruleBreaks.length > 0
            ? "SYSTEM ACCOUNT RULE BROKEN"
            : report.ok
              ? "ledger balances"
              : "LIABILITIES DO NOT RECONCILE",
      );
      return report.ok ? 0 : 1;
    }
    case "totp:rotate-key": {
      const keys = {
        key: env.TOTP_ENCRYPTION_KEY,
        previousKeys: env.TOTP_ENCRYPTION_PREVIOUS_KEYS,
        dataDir: env.DATA_DIR,
      };
      // A key from the environment is changed there (the old one moved to the previous keys); the
      // key file is ours to add a key to. Older keys stay in it, so running servers can still read.
      const keyring =
        keys.key || args.includes("--reencrypt-only")
          ? loadTotpKeyring(keys)
          : addTotpKeyToFile(env.DATA_DIR);
      const { total, changed } = await reencryptTotpSecrets(deps.db, keyring);
      const operators = await reencryptOperatorTotpSecrets(deps.db, keyring);
      await recordAudit(deps.db, {
        actor: "cli",
        action: "totp.rotate_key",
        details: {
          key: keyring.currentId,
          reencrypted: changed,
          total,
          operatorsReencrypted: operators.changed,
          operatorsTotal: operators.total,
        },
      });
      console.log(
        `${changed} of ${total} secrets re-encrypted, ${operators.changed} of ${operators.total} operators' secrets; current key ${keyring.currentId}`,
      );
      return 0;
    }
    case "kyc:list":
      print(
        await admin.kyc.queue({
          status: args[0] as "under_review" | undefined,
          level: args[1] as "primary" | undefined,
        }),
      );
      return 0;
    case "kyc:approve":
      print(await admin.kyc.approve({ id: id(), assessment_points: args[1] ? Number(args[1]) : undefined }));
      return 0;
    case "kyc:reject":
      print(
        await admin.kyc.reject({
          id: id(),
          reason: (args[1] ?? "") as RejectReason,
          note: args.slice(2).join(" ") || undefined,
        }),
      );
      return 0;
    case "earn:products":
      print(await adminEarn.products());
      return 0;
    case "earn:product:create":
      print(await adminEarn.createProduct(JSON.parse(args[0] ?? "{}")));
      return 0;
    case "earn:product:on":
    case "earn:product:off":
      print(await adminEarn.setOnSale({ id: id(), on_sale: command === "earn:product:on" }));
      return 0;
    case "earn:orders":
      print(
        await adminEarn.orders({
          page: 1,
          page_size: 100,
          statuses: args[0] ? [args[0] as "holding"] : undefined,
        }),
      );
      return 0;
    case "earn:redemptions":
      print(await adminEarn.orders({ page: 1, page_size: 100, statuses: ["redeeming"] }));
      return 0;
    case "earn:redemption:approve":
      print(await adminEarn.approveRedemption({ id: id() }));
      return 0;
    case "earn:redemption:reject":
      await adminEarn.rejectRedemption({ id: id(), reason: args.slice(1).join(" ") });
      console.log("rejected");
      return 0;
    case "earn:rates":
      print(await adminEarn.rates({ id: id() }));
      return 0;
    case "earn:rate:publish":
      print(await adminEarn.publishRate({ product_id: id(), day: args[1] ?? "", rate: args[2] ?? "" }));
      return 0;
    case "earn:yield":
      print(await adminEarn.yieldReport());
      return 0;
    case "earn:yield:run":
      print(await adminEarn.runYield());
      return 0;
    case "launchpad:list":
      print(await adminLaunchpad.offerings());
      return 0;
    case "launchpad:create":
      print(await adminLaunchpad.create(JSON.parse(args[0] ?? "{}")));
      return 0;
    case "launchpad:allocate":
      print(await adminLaunchpad.allocate({ id: id() }));
      return 0;
    case "launchpad:fail":
      print(await adminLaunchpad.fail({ id: id(), reason: args.slice(1).join(" ") }));
      return 0;
    case "launchpad:unlock":
      print(await adminLaunchpad.unlock());
      return 0;
    case "proof:publish":
      print(await adminProofs.publish());
      return 0;
    case "proof:list":
      print(await caller.proofs.list());
      return 0;
    case "options:products":
      print(await optionsAdmin.products());
      return 0;
    case "options:set-products":
      await admin.setPolicy({ key: "options.products", value: JSON.parse(args[0] ?? "null") });
      console.log("options.products saved");
      return 0;
    case "options:exposure":
      print(await optionsAdmin.exposure());
      return 0;
    case "options:house":
      print(await optionsAdmin.houseResult());
      return 0;
    case "options:settled":
      print(await optionsAdmin.settled({ page: Number(args[0] ?? 1), page_size: 50 }));
      return 0;
    case "loans:products":
      print(await adminLoans.products());
      return 0;
    case "loans:product:create":
      print(await adminLoans.createProduct(JSON.parse(args[0] ?? "{}")));
      return 0;
    case "loans:list":
    case "loans:queue":
    case "loans:overdue": {
      const status =
        command === "loans:queue" ? "unreviewed" : command === "loans:overdue" ? "overdue" : args[0];
      print(
        await adminLoans.list({
          page: 1,
          page_size: 100,
          statuses: status ? [status as "overdue"] : undefined,
        }),
      );
      return 0;
    }
    case "loans:show":
      print(await adminLoans.get({ loan_id: id() }));
      return 0;
    case "loans:approve":
      print(await adminLoans.approve({ loan_id: id() }));
      return 0;
    case "loans:reject":
      print(await adminLoans.reject({ loan_id: id(), reason: args.slice(1).join(" ") }));
      return 0;
    case "loans:overdue:run":
      print(await adminLoans.runOverdue());
      return 0;
    case "loans:wires":
      print(
        await adminLoans.wireRepayments({
          page: 1,
          page_size: 100,
          statuses: args[0] ? [args[0] as "pending"] : undefined,
        }),
      );
      return 0;
    case "loans:wire:confirm":
      print(await adminLoans.confirmWire({ repayment_id: id() }));
      return 0;
    case "loans:wire:reject":
      print(await adminLoans.rejectWire({ repayment_id: id(), reason: args.slice(1).join(" ") }));
      return 0;
    case "c2c:merchants":
      print(await c2cAdmin.merchants());
      return 0;
    case "c2c:merchant:create":
      print(await c2cAdmin.createMerchant(JSON.parse(args[0] ?? "{}")));
      return 0;
    case "c2c:merchant:update":
      print(await c2cAdmin.updateMerchant({ id: id(), data: JSON.parse(args[1] ?? "{}") }));
      return 0;
    case "c2c:merchant:pause":
    case "c2c:merchant:resume":
      await (command === "c2c:merchant:pause" ? c2cAdmin.pauseMerchant : c2cAdmin.resumeMerchant)({
        id: id(),
      });
      console.log(`merchant ${id()} ${command === "c2c:merchant:pause" ? "paused" : "active"}`);
      return 0;
    case "c2c:stock:fund":
      print(await c2cAdmin.fundStock({ merchant_id: id(), amount: args[1] ?? "" }));
      return 0;
    case "c2c:stock:withdraw":
      print(await c2cAdmin.withdrawStock({ merchant_id: id(), amount: args[1] ?? "" }));
      return 0;
    case "c2c:orders":
      print(await c2cAdmin.orders({ status: args[0] as never, page: 1, page_size: 100 }));
      return 0;
    case "c2c:match":
      print(await c2cAdmin.match({ order_id: id() }));
      return 0;
    case "c2c:confirm":
      print(await c2cAdmin.confirm({ order_id: id() }));
      return 0;
    case "c2c:reject":
      print(await c2cAdmin.reject({ order_id: id(), reason: args.slice(1).join(" ") }));
      return 0;
    case "c2c:rules":
      await c2cAdmin.saveRules({ texts: JSON.parse(args[0] ?? "{}") });
      console.log("c2c rules saved");
      return 0;
    case "contracts:products":
      print(await contractsAdmin.products());
      return 0;
    case "contracts:set-products":
      await admin.setPolicy({ key: "contracts.products", value: JSON.parse(args[0] ?? "null") });
      console.log("contracts.products saved");
      return 0;
    case "contracts:set-leverage":
      await admin.setPolicy({ key: "contracts.leverage", value: JSON.parse(args[0] ?? "null") });
      console.log("contracts.leverage saved");
      return 0;
    case "contracts:set-terms":
      await admin.setPolicy({ key: "contracts.terms", value: JSON.parse(args[0] ?? "null") });
      console.log("contracts.terms saved");
      return 0;
    case "contracts:exposure":
      print(await contractsAdmin.exposure());
      return 0;
    case "contracts:house":
      print(await contractsAdmin.houseResult());
      return 0;
    case "contracts:liquidations":
      print(await contractsAdmin.liquidations({ limit: Number(args[0] ?? 100) }));
      return 0;
    case "referral:run":
      print(args[0] ? await referralAdmin.runDay({ day: args[0] }) : await referralAdmin.runDue());
      return 0;
    case "referral:payouts":
      print(await referralAdmin.payouts({ day: args[0], page: 1, page_size: 100 }));
      return 0;
    case "rewards:budget":
      print(await rewardsAdmin.budget());
      return 0;
    case "rewards:budget:fund":
      print(await rewardsAdmin.fundBudget({ currency: args[0] ?? "", amount: args[1] ?? "" }));
      return 0;
    default:
      console.error(USAGE);
      return command ? 2 : 0;
  }
}

const code = await main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  return 1;
});
await deps.close();
process.exit(code);
