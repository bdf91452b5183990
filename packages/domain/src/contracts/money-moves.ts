import type { CloseSettlement } from "@northstar/shared/contract-math";
import { MoneyDecimal } from "@northstar/shared/money";
import type { DbOrTx } from "../db/client.ts";
import { type Book, type EntryInput, type PostingInput, postEntry } from "../ledger/index.ts";

/** Contracts are margined and settled in USDT. */
export const CONTRACT_CURRENCY = "USDT";

const available = (userId: number, book: Book) => ({
  userId,
  book,
  wallet: "contract" as const,
  currency: CONTRACT_CURRENCY,
});
const held = (userId: number, book: Book) => ({ ...available(userId, book), bucket: "held" as const });
const system = (code: "fees" | "contracts_house" | "contracts_insurance", book: Book) => ({
  system: code,
  book,
  currency: CONTRACT_CURRENCY,
});

/** Postings without the zero amounts (the ledger refuses a zero posting). */
function nonZero(postings: PostingInput[]): PostingInput[] {
  return postings.filter((p) => !new MoneyDecimal(p.amount).isZero());
}

const neg = (v: string) => new MoneyDecimal(v).neg().toFixed();

interface Owner {
  id: number;
  userId: number;
  book: Book;
}

/**
 * Opening (market) or placing (limit): margin + fee leave the available balance. A market order's
 * margin goes to `held` and its fee to the fee account; a limit order holds both until it fills.
 */
export async function postOpen(tx: DbOrTx, p: Owner, margin: string, fee: string, pending: boolean) {
  const total = new MoneyDecimal(margin).plus(fee).toFixed();
  await postEntry(tx, {
    idempotencyKey: `contract.open:${p.id}`,
    kind: pending ? "contract.place" : "contract.open",
    reference: { type: "contract_position", id: p.id },
    postings: nonZero([
      { account: available(p.userId, p.book), amount: neg(total) },
      { account: held(p.userId, p.book), amount: pending ? total : margin },
      ...(pending ? [] : [{ account: system("fees", p.book), amount: fee }]),
    ]),
  });
}

/**
 * A limit order fills: of its held fee, the fill's fee goes to the fee account and the rest (a fill
 * at a better price than the limit costs less) returns to the available balance; the margin stays held.
 */
export async function postFill(tx: DbOrTx, p: Owner, heldFee: string, fee: string) {
  const entry = fillEntry(p, heldFee, fee);
  if (entry) {
    await postEntry(tx, entry);
  }
}

/** The ledger entry of a fill (null when the held fee is zero: nothing moves). */
export function fillEntry(p: Owner, heldFee: string, fee: string): EntryInput | null {
  if (new MoneyDecimal(heldFee).isZero()) {
    return null;
  }
  return {
    idempotencyKey: `contract.fill:${p.id}`,
    kind: "contract.fill",
    reference: { type: "contract_position", id: p.id },
    postings: nonZero([
      { account: held(p.userId, p.book), amount: neg(heldFee) },
      { account: system("fees", p.book), amount: fee },
      { account: available(p.userId, p.book), amount: new MoneyDecimal(heldFee).minus(fee).toFixed() },
    ]),
  };
}

/** A pending order is cancelled: what it held returns to the available balance. */
export async function postCancel(tx: DbOrTx, p: Owner, amount: string) {
  await postEntry(tx, {
    idempotencyKey: `contract.cancel:${p.id}`,
    kind: "contract.cancel",
    reference: { type: "contract_position", id: p.id },
    postings: [
      { account: held(p.userId, p.book), amount: neg(amount) },
      { account: available(p.userId, p.book), amount },
    ],
  });
}

/**
 * A close settles: the released margin leaves `held`, the payout returns to the available balance,
 * the fee goes to the fee account, the house pays the profit or takes the loss, and a loss beyond
 * the margin is paid to the house by the insurance account, never by the user.
 */
export async function postClose(tx: DbOrTx, p: Owner, closeId: number, s: CloseSettlement, kind: string) {
  await postEntry(tx, closeEntry(p, closeId, s, kind));
}

/** The ledger entry of a close (see postClose), for writers that post many at once. */
export function closeEntry(p: Owner, closeId: number, s: CloseSettlement, kind: string): EntryInput {
  return {
    idempotencyKey: `contract.close:${closeId}`,
    kind,
    reference: { type: "contract_position", id: p.id },
    memo: `close ${closeId}`,
    postings: nonZero([
      { account: held(p.userId, p.book), amount: neg(s.marginReleased) },
      { account: available(p.userId, p.book), amount: s.payout },
      { account: system("fees", p.book), amount: s.fee },
      { account: system("contracts_house", p.book), amount: neg(s.pnl) },
      { account: system("contracts_insurance", p.book), amount: neg(s.shortfall) },
    ]),
  };
}

/** Margin added (available → held) or reduced (held → available); `key` names the request. */
export async function postMarginChange(tx: DbOrTx, p: Owner, key: string, amount: string, add: boolean) {
  await postEntry(tx, {
    idempotencyKey: `contract.margin:${p.id}:${key}`,
    kind: add ? "contract.margin.add" : "contract.margin.reduce",
    reference: { type: "contract_position", id: p.id },
    postings: [
      { account: held(p.userId, p.book), amount: add ? amount : neg(amount) },
      { account: available(p.userId, p.book), amount: add ? neg(amount) : amount },
    ],
  });
}

/** A day's overnight interest, taken from the position's margin to the house. */
export async function postOvernight(tx: DbOrTx, p: Owner, day: string, amount: string) {
  await postEntry(tx, {
    idempotencyKey: `contract.overnight:${p.id}:${day}`,
    kind: "contract.overnight",
    reference: { type: "contract_position", id: p.id },
    postings: [
      { account: held(p.userId, p.book), amount: neg(amount) },
      { account: system("contracts_house", p.book), amount },
    ],
  });
}
