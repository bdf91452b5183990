import type {
  ZAddBankCardRequestSchema,
  ZAddWithdrawalAddressRequestSchema,
} from "@northstar/shared/contracts/funding";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { z } from "zod";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { User } from "../identity/index.ts";
import { isValidAddress } from "./address-format.ts";
import { bankCards, withdrawalAddresses } from "./funding.table.ts";

// A user's address book and card list stay small; this stops a script from filling the table.
const MAX_SAVED = 50;

export async function addWithdrawalAddress(
  db: DbOrTx,
  user: User,
  input: z.output<typeof ZAddWithdrawalAddressRequestSchema>,
) {
  if (!isValidAddress(input.chain, input.address)) {
    throw new AppError("ADDRESS_FORMAT", { chain: input.chain }, "address");
  }
  const existing = await listWithdrawalAddresses(db, user.id);
  if (existing.length >= MAX_SAVED) {
    throw new AppError("FIELD_INVALID", {}, "address");
  }
  const [row] = await db
    .insert(withdrawalAddresses)
    .values({
      userId: user.id,
      currency: input.currency,
      chain: input.chain,
      address: input.address,
      remark: input.remark ?? null,
      memo: input.memo ?? null,
    })
    .returning();
  return row;
}

export function listWithdrawalAddresses(db: DbOrTx, userId: number) {
  return db
    .select()
    .from(withdrawalAddresses)
    .where(and(eq(withdrawalAddresses.userId, userId), isNull(withdrawalAddresses.deletedAt)))
    .orderBy(desc(withdrawalAddresses.id));
}

export async function deleteWithdrawalAddress(db: DbOrTx, userId: number, id: number): Promise<void> {
  const deleted = await db
    .update(withdrawalAddresses)
    .set({ deletedAt: new Date() })
    .where(
      and(
        eq(withdrawalAddresses.id, id),
        eq(withdrawalAddresses.userId, userId),
        isNull(withdrawalAddresses.deletedAt),
      ),
    )
    .returning({ id: withdrawalAddresses.id });
  if (deleted.length === 0) {
    throw new AppError("NOT_FOUND");
  }
}

export async function addBankCard(db: DbOrTx, user: User, input: z.output<typeof ZAddBankCardRequestSchema>) {
  if ((await listBankCards(db, user.id)).length >= MAX_SAVED) {
    throw new AppError("FIELD_INVALID", {}, "card_id");
  }
  const [row] = await db
    .insert(bankCards)
    .values({
      userId: user.id,
      bankName: input.bank_name,
      account: input.account,
      cardId: input.card_id,
      swiftCode: input.swift_code ?? null,
      routingNumber: input.routing_number ?? null,
      bankAddress: input.bank_address ?? null,
      phone: input.phone ?? null,
      payeeName: input.payee_name,
      payeeAddress: input.payee_address ?? null,
    })
    .returning();
  return row;
}

export function listBankCards(db: DbOrTx, userId: number) {
  return db
    .select()
    .from(bankCards)
    .where(and(eq(bankCards.userId, userId), isNull(bankCards.deletedAt)))
    .orderBy(desc(bankCards.id));
}

/** The user's most recently added bank card, shown in the session info; undefined when there is none. */
export async function latestBankCard(db: DbOrTx, userId: number) {
  const [card] = await listBankCards(db, userId).limit(1);
  return card;
}

export async function deleteBankCard(db: DbOrTx, userId: number, id: number): Promise<void> {
  const deleted = await db
    .update(bankCards)
    .set({ deletedAt: new Date() })
    .where(and(eq(bankCards.id, id), eq(bankCards.userId, userId), isNull(bankCards.deletedAt)))
    .returning({ id: bankCards.id });
  if (deleted.length === 0) {
    throw new AppError("NOT_FOUND");
  }
}
