import { maskCard, shorten } from "./amount-text.ts";
import type { BankCard, WithdrawalAddress } from "./funding-types.ts";
import "./funding.css";

export function AddressLabel({ address, full }: { address: WithdrawalAddress; full?: boolean }) {
  return (
    <span className={full ? "ns-break" : undefined}>
      {address.remark ? `${address.remark} · ` : ""}
      {address.chain} · {full ? address.address : shorten(address.address)}
      {full && address.memo ? ` · ${address.memo}` : ""}
    </span>
  );
}

export function CardLabel({ card }: { card: BankCard }) {
  return (
    <span>
      {card.bankName} · {maskCard(card.cardId)} · {card.payeeName}
    </span>
  );
}
