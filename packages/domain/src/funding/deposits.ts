import type { TSubmitDepositRequest } from "@northstar/shared/contracts/funding";
import { normalizeTxHash } from "@northstar/shared/contracts/tx-hash";
import { fitsNumeric, MoneyDecimal } from "@northstar/shared/money";
import { depositMachine } from "@northstar/shared/state-machines";
import { and, asc, desc, eq } from "drizzle-orm";
import { recordAudit } from "../audit/index.ts";
import { assertCurrencyAmount } from "../currencies/index.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { User } from "../identity/index.ts";
import { postEntry } from "../ledger/index.ts";
import { type PriceProvider, valueInUsdt } from "../markets/index.ts";
import { addMessage } from "../messages/index.ts";
import { getPolicy } from "../policy/index.ts";
import { transition } from "../state/index.ts";
import { uploadOwner } from "../uploads/index.ts";
import { depositAddresses, deposits } from "./funding.table.ts";

const UNIQUE_VIOLATION = "23505";

export function assertRealAccount(user: User): void {
  if (user.kind !== "real") {
    throw new AppError("REAL_ACCOUNT_REQUIRED");
  }
}

/** Deposit addresses users may send to, with the minimum for each currency. */
export async function listDepositOptions(db: DbOrTx) {
  const [rows, minimums, channels] = await Promise.all([
    db
      .select()
      .from(depositAddresses)
      .where(eq(depositAddresses.enabled, true))
      .orderBy(asc(depositAddresses.currency), asc(depositAddresses.chain)),
    getPolicy(db, "funding.deposit.minimums"),
    getPolicy(db, "funding.deposit.channels"),
  ]);
  return {
    channels,
    addresses: rows.map((r) => ({
      currency: r.currency,
      chain: r.chain,
      address: r.address,
      memo: r.memo,
      minimum: minimums[r.currency] ?? "0",
    })),
  };
}

/** Operators set the address for a currency and chain (replacing the old one), audited. */
export async function upsertDepositAddress(
  db: DbOrTx,
  params: {
    currency: string;
    chain: string;
    address: string;
    memo?: string;
    enabled: boolean;
    actor: string;
  },
) {
  const values = {
    currency: params.currency,
    chain: params.chain,
    address: params.address,
    memo: params.memo ?? null,
    enabled: params.enabled,
  };
  await db
    .insert(depositAddresses)
    .values(values)
    .onConflictDoUpdate({ target: [depositAddresses.currency, depositAddresses.chain], set: values });
  await recordAudit(db, {
    actor: params.actor,
    action: "deposit-address.set",
    subject: `${params.currency}/${params.chain}`,
    details: values,
  });
}

/**
 * A user reports a crypto deposit: amount, transaction hash, proof image. It waits for an operator.
 * The bank channel answers RECHARGE_CHANNEL_CLOSED while policy keeps it closed.
 */
export async function submitDeposit(db: Db, user: User, input: TSubmitDepositRequest) {
  assertRealAccount(user);
  const channels = await getPolicy(db, "funding.deposit.channels");
  if (!channels[input.channel]) {
    throw new AppError("RECHARGE_CHANNEL_CLOSED");
  }
  const [address] = await db
    .select()
    .from(depositAddresses)
    .where(
      and(
        eq(depositAddresses.currency, input.currency),
        eq(depositAddresses.chain, input.chain),
        eq(depositAddresses.enabled, true),
      ),
    );
  if (!address) {
    throw new AppError("DEPOSIT_ADDRESS_MISSING", {}, "chain");
  }
  // An amount finer than the currency is held to could not be credited as claimed.
  await assertCurrencyAmount(db, input.currency, input.amount, "amount");
  const minimum = (await getPolicy(db, "funding.deposit.minimums"))[input.currency] ?? "0";
  if (new MoneyDecimal(input.amount).lessThan(minimum)) {
    throw new AppError("DEPOSIT_BELOW_MINIMUM", { min: minimum, currency: input.currency }, "amount");
  }
  // One transaction has one stored form per chain, so the unique index sees every spelling of it.
  const txHash = normalizeTxHash(input.chain, input.tx_hash);
  if (txHash === null) {
    throw new AppError("TX_HASH_FORMAT", { chain: input.chain }, "tx_hash");
  }
  if ((await uploadOwner(db, input.proof_upload_id)) !== user.id) {
    throw new AppError("PROOF_REQUIRED", {}, "proof_upload_id");
  }
  try {
    const [row] = await db
      .insert(deposits)
      .values({
        userId: user.id,
        channel: input.channel,
        currency: input.currency,
        chain: input.chain,
        amount: input.amount,
        txHash,
        proofUploadId: input.proof_upload_id,
        description: input.description ?? null,
      })
      .returning();
    return row;
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code === UNIQUE_VIOLATION) {
      throw new AppError("DEPOSIT_TX_HASH_USED", {}, "tx_hash");
    }
    throw error;
  }
}

export async function listUserDeposits(db: DbOrTx, userId: number, page: number, pageSize: number) {
  return db
    .select()
    .from(deposits)
    .where(eq(deposits.userId, userId))
    .orderBy(desc(deposits.createdAt), desc(deposits.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
}

/**
 * An operator confirms a deposit: the state moves pending → success and the user's exchange wallet
 * is credited in the same transaction. Confirming twice credits once: the second attempt finds the
 * deposit no longer pending and the ledger key already used.
 */
export async function confirmDeposit(
  db: Db,
  prices: PriceProvider,
  params: { depositId: number; operatorId: number; actor: string },
) {
  return db.transaction(async (tx) => {
    const [deposit] = await tx.select().from(deposits).where(eq(deposits.id, params.depositId)).for("update");
    if (!deposit) {
      throw new AppError("NOT_FOUND");
    }
    if (deposit.confirmationsRequired !== null) {
      throw new AppError("DEPOSIT_ON_CHAIN");
    }
    const valueUsdt = (await valueInUsdt(prices, deposit.currency, deposit.amount)) ?? "0";
    if (!fitsNumeric(valueUsdt)) {
      throw new AppError("AMOUNT_TOO_LARGE", {}, "amount");
    }
    const moved = await transition(tx, {
      machine: depositMachine,
      table: deposits,
      id: deposit.id,
      from: "pending",
      to: "success",
      by: "operator",
      set: { reviewedBy: params.operatorId, reviewedAt: new Date(), valueUsdt },
    });
    if (!moved) {
      throw new AppError("ALREADY_REVIEWED");
    }
    await postEntry(tx, {
      idempotencyKey: `deposit:${deposit.id}:confirm`,
      kind: "deposit.confirm",
      reference: { type: "deposit", id: deposit.id },
      postings: [
        {
          account: {
            system: `deposit_clearing:${deposit.channel}`,
            book: "real",
            currency: deposit.currency,
          },
          amount: `-${deposit.amount}`,
        },
        {
          account: { userId: deposit.userId, book: "real", wallet: "exchange", currency: deposit.currency },
          amount: deposit.amount,
        },
      ],
    });
    await recordAudit(tx, {
      actor: params.actor,
      action: "deposit.confirm",
      subject: String(deposit.id),
      details: { amount: deposit.amount, currency: deposit.currency },
    });
    await addMessage(tx, {
      userId: deposit.userId,
      kind: "deposit.confirmed",
      params: { amount: deposit.amount, currency: deposit.currency },
      eventKey: `deposit:${deposit.id}:confirmed`,
    });
    return { ...deposit, status: "success" as const };
  });
}

export async function rejectDeposit(
  db: Db,
  params: { depositId: number; operatorId: number; actor: string; reason: string },
) {
  return db.transaction(async (tx) => {
    const [deposit] = await tx
      .select({
        id: deposits.id,
        userId: deposits.userId,
        amount: deposits.amount,
        currency: deposits.currency,
        confirmationsRequired: deposits.confirmationsRequired,
      })
      .from(deposits)
      .where(eq(deposits.id, params.depositId))
      .for("update");
    if (!deposit) {
      throw new AppError("NOT_FOUND");
    }
    if (deposit.confirmationsRequired !== null) {
      throw new AppError("DEPOSIT_ON_CHAIN");
    }
    const moved = await transition(tx, {
      machine: depositMachine,
      table: deposits,
      id: deposit.id,
      from: "pending",
      to: "failed",
      by: "operator",
      set: { reviewedBy: params.operatorId, reviewedAt: new Date(), rejectReason: params.reason },
    });
    if (!moved) {
      throw new AppError("ALREADY_REVIEWED");
    }
    await recordAudit(tx, {
      actor: params.actor,
      action: "deposit.reject",
      subject: String(params.depositId),
      details: { reason: params.reason },
    });
    await addMessage(tx, {
      userId: deposit.userId,
      kind: "deposit.rejected",
      params: { amount: deposit.amount, currency: deposit.currency, reason: params.reason },
      eventKey: `deposit:${deposit.id}:rejected`,
    });
  });
}
