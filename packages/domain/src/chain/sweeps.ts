import { MoneyDecimal } from "@northstar/shared/money";
import { type SweepStatus, sweepMachine } from "@northstar/shared/state-machines";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  formatUnits,
  type Hex,
  keccak256,
  type PublicClient,
} from "viem";
import type { Db, DbOrTx } from "../db/client.ts";
import { postEntry } from "../ledger/index.ts";
import { getPolicy } from "../policy/index.ts";
import { transition } from "../state/index.ts";
import { chainAddresses, chainTransfers } from "./chain.table.ts";
import { type ChainConfig, EVM_NATIVE_DECIMALS } from "./config.ts";
import { depositsCustody, gasPaid, hotCustody, postGas, receiptOrNull } from "./custody.ts";
import type { HotWalletSigner } from "./hot-wallet.ts";
import { chainSweeps } from "./sweep.table.ts";
import type { SweepKey } from "./sweep-key.ts";
import {
  currentFees,
  lockHotWalletNonce,
  nodeKnows,
  sendSigned,
  toBaseUnits,
} from "./withdrawal-broadcast.ts";

/**
 * Sweeping: an operator's command moves coins from users' deposit addresses to the hot wallet. For
 * each address holding at least `chain.sweep.minAmount` of a token, the hot wallet first sends the
 * gas the transfer needs (only what the address lacks), then the address sends the token to the hot
 * wallet; the chain's own coin is swept minus the transfer's gas. Every step is a state change of the
 * sweep's row (`sweepMachine`) made with the signed bytes it sends, so a second run, or a run after a
 * crash, sends what is stored and never signs a second transfer. The ledger follows the chain:
 * the top-up moves `chain_custody:<chain>:hot` → `:deposits`, the confirmed transfer `:deposits` →
 * `:hot`, and every fee goes to `chain_gas`.
 */
export interface SweepDeps {
  db: Db;
  config: ChainConfig;
  client: PublicClient;
  /** The hot wallet: receives the sweeps and pays the gas top-ups (its nonces are the payouts'). */
  hot: HotWalletSigner;
  /** The deposit addresses' signer, given by the operator for this run only. */
  key: SweepKey;
  /** Sends signed bytes; tests replace it to simulate a crash between signing and sending. */
  send?: (raw: Hex) => Promise<void>;
  now?: Date;
  log?: (line: string) => void;
}

export type Sweep = typeof chainSweeps.$inferSelect;
const OPEN: SweepStatus[] = ["planned", "gas_sent", "sent"];

const send = (deps: SweepDeps, raw: Hex) => (deps.send ? deps.send(raw) : sendSigned(deps.client, raw));

async function sweepRow(db: DbOrTx, id: number, lock = false): Promise<Sweep> {
  const query = db.select().from(chainSweeps).where(eq(chainSweeps.id, id));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) {
    throw new Error(`no sweep ${id}`);
  }
  return row;
}

/**
 * Coins at each deposit address that the ledger does not hold for a user yet (deposits still
 * confirming) or never will (below the minimum): they stay where they are, and a sweep takes only
 * the rest, so `chain_custody:<chain>:deposits` never gives more than it received.
 */
async function notSweepable(db: DbOrTx, network: string): Promise<Map<string, MoneyDecimal>> {
  const rows = await db
    .select({
      address: chainTransfers.address,
      currency: chainTransfers.currency,
      total: sql<string>`sum(${chainTransfers.amount})::text`,
    })
    .from(chainTransfers)
    .where(
      and(
        eq(chainTransfers.network, network),
        inArray(chainTransfers.status, ["confirming", "below_minimum"]),
      ),
    )
    .groupBy(chainTransfers.address, chainTransfers.currency)
    .orderBy(chainTransfers.address, chainTransfers.currency);
  return new Map(rows.map((r) => [`${r.address}|${r.currency}`, new MoneyDecimal(r.total)]));
}

/**
 * Plans a sweep for each deposit address without an open one whose balance reaches the policy's
 * minimum: a token first (one open sweep per address, so its transfers take its nonces in turn),
 * else the chain's own coin. The amount and fee caps are fixed here. Returns the planned rows.
 */
export async function planSweeps(deps: SweepDeps): Promise<Sweep[]> {
  const { db, config, client } = deps;
  const network = config.network;
  const now = deps.now ?? new Date();
  const [minimums, gasLimits, fees] = await Promise.all([
    getPolicy(db, "chain.sweep.minAmount"),
    getPolicy(db, "chain.withdraw.gasLimits"),
    currentFees(client),
  ]);
  const addresses = await db
    .select()
    .from(chainAddresses)
    .where(eq(chainAddresses.network, network))
    .orderBy(asc(chainAddresses.derivationIndex));
  const open = new Set(
    (
      await db
        .select({ address: chainSweeps.address })
        .from(chainSweeps)
        .where(and(eq(chainSweeps.network, network), inArray(chainSweeps.status, OPEN)))
        .orderBy(asc(chainSweeps.id))
    ).map((r) => r.address),
  );
  const held = await notSweepable(db, network);
  const excluded = (address: string, currency: string, decimals: number) =>
    toBaseUnits((held.get(`${address}|${currency}`) ?? new MoneyDecimal(0)).toFixed(), decimals);
  const planned: Sweep[] = [];
  const base = {
    network,
    hotAddress: deps.hot.address.toLowerCase(),
    maxFeePerGas: fees.maxFeePerGas.toString(),
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
    createdAt: now,
  };
  const insert = async (values: Omit<typeof chainSweeps.$inferInsert, keyof typeof base>) => {
    const [row] = await db
      .insert(chainSweeps)
      .values({ ...base, ...values })
      .onConflictDoNothing()
      .returning();
    if (row) {
      planned.push(row);
      deps.log?.(`planned sweep ${row.id}: ${row.amount} ${row.currency} from ${row.address}`);
    }
  };
  for (const a of addresses) {
    if (open.has(a.address)) {
      continue;
    }
    const address = a.address as Address;
    const nativeBalance = await client.getBalance({ address });
    const nativeFree = nativeBalance - excluded(a.address, config.nativeCurrency, EVM_NATIVE_DECIMALS);
    let done = false;
    for (const token of config.tokens) {
      const minimum = minimums[token.currency];
      if (minimum === undefined) {
        continue;
      }
      const balance = await client.readContract({
        address: token.address,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [address],
      });
      const free = balance - excluded(a.address, token.currency, token.decimals);
      if (free <= 0n || new MoneyDecimal(formatUnits(free, token.decimals)).lessThan(minimum)) {
        continue;
      }
      const gas = BigInt(gasLimits.token);
      const need = gas * fees.maxFeePerGas;
      const have = nativeFree > 0n ? nativeFree : 0n;
      await insert({
        address: a.address,
        derivationIndex: a.derivationIndex,
        currency: token.currency,
        amount: formatUnits(free, token.decimals),
        gas: gas.toString(),
        gasTopUp: formatUnits(need > have ? need - have : 0n, EVM_NATIVE_DECIMALS),
      });
      done = true;
      break;
    }
    const minimum = minimums[config.nativeCurrency];
    if (done || minimum === undefined) {
      continue;
    }
    const gas = BigInt(gasLimits.native);
    const value = nativeFree - gas * fees.maxFeePerGas;
    if (value > 0n && !new MoneyDecimal(formatUnits(value, EVM_NATIVE_DECIMALS)).lessThan(minimum)) {
      await insert({
        address: a.address,
        derivationIndex: a.derivationIndex,
        currency: config.nativeCurrency,
        amount: formatUnits(value, EVM_NATIVE_DECIMALS),
        gas: gas.toString(),
        gasTopUp: "0",
      });
    }
  }
  return planned;
}

/** The deposit address's transfer of the swept amount to the hot wallet, signed with its key. */
async function signTransfer(deps: SweepDeps, row: Sweep) {
  const signer = deps.key.signerAt(row.derivationIndex);
  if (signer.address.toLowerCase() !== row.address) {
    throw new Error(`the sweep key does not sign for ${row.address}`);
  }
  const token = deps.config.tokens.find((t) => t.currency === row.currency);
  const nonce = await deps.client.getTransactionCount({ address: signer.address, blockTag: "pending" });
  const raw = await signer.signTransaction({
    type: "eip1559",
    chainId: deps.config.chainId,
    nonce,
    ...(token
      ? {
          to: token.address,
          value: 0n,
          data: encodeFunctionData({
            abi: erc20Abi,
            functionName: "transfer",
            args: [row.hotAddress as Address, toBaseUnits(row.amount, token.decimals)],
          }),
        }
      : { to: row.hotAddress as Address, value: toBaseUnits(row.amount, EVM_NATIVE_DECIMALS) }),
    gas: BigInt(row.gas),
    maxFeePerGas: BigInt(row.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(row.maxPriorityFeePerGas),
  });
  return { raw, hash: keccak256(raw), nonce };
}

/** Stores the signed transfer with the move to `sent` (in the caller's transaction). */
async function storeTransfer(
  tx: DbOrTx,
  row: Sweep,
  from: "planned" | "gas_sent",
  signed: { raw: Hex; hash: Hex; nonce: number },
  set: Record<string, unknown> = {},
) {
  return transition(tx, {
    machine: sweepMachine,
    table: chainSweeps,
    id: row.id,
    from,
    to: "sent",
    by: "system",
    set: {
      ...set,
      sweepHash: signed.hash,
      sweepRaw: signed.raw,
      sweepNonce: signed.nonce,
      updatedAt: new Date(),
    },
  });
}

export type SweepStep = { id: number; status: SweepStatus; confirmations?: number; required?: number };

/**
 * Moves one sweep as far as it can go now; any number of runs, at once or after a crash, sign and
 * send each of its transactions once (the row lock and compare-and-set on its state, the stored bytes).
 */
export async function stepSweep(deps: SweepDeps, id: number): Promise<SweepStep> {
  const { db, config, client } = deps;
  const row = await sweepRow(db, id);
  const network = config.network;
  const native = config.nativeCurrency;
  if (row.status === "planned") {
    if (new MoneyDecimal(row.gasTopUp).isZero()) {
      const signed = await signTransfer(deps, row);
      const stored = await db.transaction(async (tx) => {
        const locked = await sweepRow(tx, id, true);
        return locked.status === "planned" && (await storeTransfer(tx, locked, "planned", signed));
      });
      if (stored) {
        await send(deps, signed.raw);
        deps.log?.(`sweep ${id}: transfer ${signed.hash} sent`);
        return { id, status: "sent" };
      }
      return { id, status: (await sweepRow(db, id)).status };
    }
    // The hot wallet's top-up, under its nonce lock (shared with payouts), stored before it is sent.
    const [fees, gasLimits] = await Promise.all([
      currentFees(client),
      getPolicy(db, "chain.withdraw.gasLimits"),
    ]);
    const chainPending = () => client.getTransactionCount({ address: deps.hot.address, blockTag: "pending" });
    const signed = await db.transaction(async (tx) => {
      const locked = await sweepRow(tx, id, true);
      if (locked.status !== "planned") {
        return null;
      }
      const nonces = await lockHotWalletNonce(tx, network, deps.hot.address, chainPending);
      const nonce = await nonces.take();
      const raw = await deps.hot.signTransaction({
        type: "eip1559",
        chainId: config.chainId,
        nonce,
        to: locked.address as Address,
        value: toBaseUnits(locked.gasTopUp, EVM_NATIVE_DECIMALS),
        gas: BigInt(gasLimits.native),
        ...fees,
      });
      const hash = keccak256(raw);
      await transition(tx, {
        machine: sweepMachine,
        table: chainSweeps,
        id,
        from: "planned",
        to: "gas_sent",
        by: "system",
        set: { topUpHash: hash, topUpRaw: raw, topUpNonce: nonce, updatedAt: new Date() },
      });
      return { raw, hash };
    });
    if (!signed) {
      return { id, status: (await sweepRow(db, id)).status };
    }
    await send(deps, signed.raw);
    deps.log?.(`sweep ${id}: gas top-up ${signed.hash} sent`);
    return { id, status: "gas_sent" };
  }
  if (row.status === "gas_sent") {
    const hash = row.topUpHash as Hex;
    const receipt = await receiptOrNull(client, hash);
    if (!receipt) {
      if (!(await nodeKnows(client, hash))) {
        await send(deps, row.topUpRaw as Hex);
      }
      return { id, status: "gas_sent" };
    }
    const fee = gasPaid(receipt);
    const gas = {
      network,
      nativeCurrency: native,
      place: "hot" as const,
      hash,
      fee,
      reference: { type: "chain_sweep", id },
    };
    if (receipt.status === "reverted") {
      await db.transaction(async (tx) => {
        const locked = await sweepRow(tx, id, true);
        if (
          locked.status === "gas_sent" &&
          (await transition(tx, {
            machine: sweepMachine,
            table: chainSweeps,
            id,
            from: "gas_sent",
            to: "failed",
            by: "system",
            set: { topUpFee: fee, updatedAt: new Date() },
          }))
        ) {
          await postGas(tx, gas);
        }
      });
      deps.log?.(`sweep ${id}: gas top-up ${hash} reverted`);
      return { id, status: "failed" };
    }
    const signed = await signTransfer(deps, row);
    const stored = await db.transaction(async (tx) => {
      const locked = await sweepRow(tx, id, true);
      if (
        locked.status !== "gas_sent" ||
        !(await storeTransfer(tx, locked, "gas_sent", signed, { topUpFee: fee }))
      ) {
        return false;
      }
      // The top-up arrived: its value moved from the hot wallet to the deposit address, its gas was spent.
      await postEntry(tx, {
        idempotencyKey: `chain-sweep:${id}:top-up`,
        kind: "chain.sweep.top_up",
        reference: { type: "chain_sweep", id },
        postings: [
          {
            account: { system: hotCustody(network), book: "real", currency: native },
            amount: locked.gasTopUp,
          },
          {
            account: { system: depositsCustody(network), book: "real", currency: native },
            amount: `-${locked.gasTopUp}`,
          },
        ],
      });
      await postGas(tx, gas);
      return true;
    });
    if (!stored) {
      return { id, status: (await sweepRow(db, id)).status };
    }
    await send(deps, signed.raw);
    deps.log?.(`sweep ${id}: transfer ${signed.hash} sent`);
    return { id, status: "sent" };
  }
  if (row.status === "sent") {
    const hash = row.sweepHash as Hex;
    const receipt = await receiptOrNull(client, hash);
    if (!receipt) {
      if (!(await nodeKnows(client, hash))) {
        await send(deps, row.sweepRaw as Hex);
      }
      return { id, status: "sent" };
    }
    const required = await getPolicy(db, "chain.sweep.confirmations");
    const head = await client.getBlockNumber({ cacheTime: 0 });
    const confirmations = Number(head - receipt.blockNumber + 1n);
    if (confirmations < required) {
      await db
        .update(chainSweeps)
        .set({ confirmations, updatedAt: new Date() })
        .where(and(eq(chainSweeps.id, id), eq(chainSweeps.status, "sent")));
      return { id, status: "sent", confirmations, required };
    }
    const fee = gasPaid(receipt);
    const to = receipt.status === "reverted" ? "failed" : "confirmed";
    await db.transaction(async (tx) => {
      const locked = await sweepRow(tx, id, true);
      const moved =
        locked.status === "sent" &&
        (await transition(tx, {
          machine: sweepMachine,
          table: chainSweeps,
          id,
          from: "sent",
          to,
          by: "system",
          set: { sweepFee: fee, confirmations, updatedAt: new Date() },
        }));
      if (!moved) {
        return;
      }
      if (to === "confirmed") {
        // What arrived: the swept amount left the deposit addresses for the hot wallet.
        await postEntry(tx, {
          idempotencyKey: `chain-sweep:${id}:settle`,
          kind: "chain.sweep.settle",
          reference: { type: "chain_sweep", id },
          postings: [
            {
              account: { system: depositsCustody(network), book: "real", currency: locked.currency },
              amount: locked.amount,
            },
            {
              account: { system: hotCustody(network), book: "real", currency: locked.currency },
              amount: `-${locked.amount}`,
            },
          ],
        });
      }
      await postGas(tx, {
        network,
        nativeCurrency: native,
        place: "deposits",
        hash,
        fee,
        reference: { type: "chain_sweep", id },
      });
    });
    deps.log?.(`sweep ${id}: transfer ${hash} ${to}`);
    return { id, status: to, confirmations, required };
  }
  return { id, status: row.status };
}

/**
 * One run of the sweep command: first every open sweep goes on (a run after a crash finishes what
 * the last one signed), then new ones are planned; each is stepped until it waits for the chain.
 * Returns each touched sweep's state.
 */
export async function runSweeps(deps: SweepDeps): Promise<SweepStep[]> {
  const { db, config } = deps;
  const open = await db
    .select({ id: chainSweeps.id })
    .from(chainSweeps)
    .where(and(eq(chainSweeps.network, config.network), inArray(chainSweeps.status, OPEN)))
    .orderBy(asc(chainSweeps.id));
  const ids = open.map((r) => r.id);
  for (const row of await planSweeps(deps)) {
    ids.push(row.id);
  }
  const steps: SweepStep[] = [];
  for (const id of ids) {
    let step = await stepSweep(deps, id);
    // A step that moved on may go further now (a top-up mined at once); one that waits stops.
    for (let i = 0; i < 3; i++) {
      const next = await stepSweep(deps, id);
      const same = next.status === step.status;
      step = next;
      if (same) {
        break;
      }
    }
    steps.push(step);
  }
  return steps;
}

/** Whether any sweep of the chain still waits for the chain (the command's `--wait` loops on it). */
export async function openSweepCount(db: DbOrTx, network: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(chainSweeps)
    .where(and(eq(chainSweeps.network, network), inArray(chainSweeps.status, OPEN)));
  return row?.n ?? 0;
}

/** Sweeps of a chain, newest first, for operators; the signed bytes are not shown. */
export async function listSweeps(
  db: DbOrTx,
  params: { network: string; status?: SweepStatus | undefined; page: number; pageSize: number },
) {
  return db
    .select({
      id: chainSweeps.id,
      network: chainSweeps.network,
      address: chainSweeps.address,
      derivationIndex: chainSweeps.derivationIndex,
      currency: chainSweeps.currency,
      status: chainSweeps.status,
      amount: chainSweeps.amount,
      hotAddress: chainSweeps.hotAddress,
      gasTopUp: chainSweeps.gasTopUp,
      topUpHash: chainSweeps.topUpHash,
      sweepHash: chainSweeps.sweepHash,
      topUpFee: chainSweeps.topUpFee,
      sweepFee: chainSweeps.sweepFee,
      confirmations: chainSweeps.confirmations,
      createdAt: chainSweeps.createdAt,
      updatedAt: chainSweeps.updatedAt,
    })
    .from(chainSweeps)
    .where(
      and(
        eq(chainSweeps.network, params.network),
        params.status ? eq(chainSweeps.status, params.status) : undefined,
      ),
    )
    .orderBy(desc(chainSweeps.createdAt), desc(chainSweeps.id))
    .limit(params.pageSize)
    .offset((params.page - 1) * params.pageSize);
}
