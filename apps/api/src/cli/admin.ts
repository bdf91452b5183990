import { stdin } from "node:process";
import { createInterface } from "node:readline/promises";
import {
  generateOperatorPassword,
  OPERATOR_ROLES,
  type OperatorRole,
  upsertOperator,
} from "@northstar/domain/admin";
import { createDb } from "@northstar/domain/db";
import { reconcileLedger } from "@northstar/domain/ledger";
import { getPolicySnapshot, setPolicy } from "@northstar/domain/policy";
import { isPolicyKey } from "@northstar/shared/policy";
import { env as loadEnv } from "../env.ts";

/**
 * Operator command line: `pnpm admin <command> [args]`. Every change is written to the audit log
 * with the actor "cli".
 */
const USAGE = `usage: pnpm admin <command>
  operator:password <username> [--role admin|finance|support|content] [--stdin]
      create the operator or set a new password (generated and printed once, or read from stdin)
  policy:list                         print every policy value in force
  policy:set <key> <json-value>       override a policy value
  reconcile                           recompute balances from postings; exits 0 only when the ledger balances`;

const [command, ...args] = process.argv.slice(2);
const env = loadEnv();
const { db, close } = createDb(env.DATABASE_URL, { max: 2 });

async function main(): Promise<number> {
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
        const line = await createInterface({ input: stdin }).question("");
        password = line.trim();
        if (password.length < 12) {
          console.error("an operator password needs at least 12 characters");
          return 2;
        }
      }
      const { created } = await upsertOperator(db, { username, password, role, actor: "cli" });
      console.log(`${created ? "created" : "updated"} operator ${username} (${role})`);
      if (!args.includes("--stdin")) {
        console.log(`password: ${password}`);
      }
      return 0;
    }
    case "policy:list": {
      console.log(JSON.stringify(await getPolicySnapshot(db), null, 2));
      return 0;
    }
    case "policy:set": {
      const [key, raw] = args;
      if (!key || raw === undefined || !isPolicyKey(key)) {
        console.error(key ? `unknown policy key ${key}` : USAGE);
        return 2;
      }
      await setPolicy(db, key, JSON.parse(raw), "cli");
      console.log(`${key} = ${raw}`);
      return 0;
    }
    case "reconcile": {
      const report = await reconcileLedger(db);
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
      console.log(report.ok ? "ledger balances" : "LEDGER DOES NOT BALANCE");
      return report.ok ? 0 : 1;
    }
    default:
      console.error(USAGE);
      return command ? 2 : 0;
  }
}

const code = await main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  return 1;
});
await close();
process.exit(code);
