import type { TSessionInfo } from "@northstar/shared/contracts/identity";
import { displayAccount, maskPhone } from "@northstar/shared/display";
import { MoneyDecimal } from "@northstar/shared/money";
import type { Db } from "../db/client.ts";
import { bookOf, getUserBalances } from "../ledger/index.ts";
import type { User } from "./accounts.ts";
import { hasSecurityQuestions } from "./security-questions.ts";
import { isGoogleBound } from "./totp.ts";

/**
 * web/info: the session state of SPEC section 3. `usdt` is the exchange wallet's available USDT in
 * the user's book. Alipay and WeChat payment settings are not offered; bank fields show the bank
 * card the caller passes (the most recently added one; bank cards belong to funding, above identity).
 */
export async function getSessionInfo(
  db: Db,
  params: {
    user: User;
    token: string;
    language: string;
    publicUrl: string;
    bankCard: { bankName: string; cardId: string } | undefined;
  },
): Promise<TSessionInfo> {
  const { user } = params;
  const phone = user.phone ?? "";
  const balances = await getUserBalances(db, user.id, bookOf(user));
  const usdt = balances.find((b) => b.wallet === "exchange" && b.currency === "USDT")?.available ?? "0";
  const card = params.bankCard;
  return {
    uid: user.uid,
    token: params.token,
    language: params.language,
    name: user.nickname,
    nickname: user.nickname,
    avatar: user.avatarUploadId ? `/uploads/${user.avatarUploadId}` : null,
    // A demo account invites nobody (registration refuses its code): it is shown none.
    invitation_code: user.kind === "real" ? user.inviteCode : "",
    invite_link: user.kind === "real" ? `${params.publicUrl}/register?code=${user.inviteCode}` : "",
    email: user.email ?? "",
    phone,
    area_code: user.areaCode ?? "",
    nationality: user.nationality,
    display_account: displayAccount(user.phone, user.email),
    phone_mask: phone ? maskPhone(phone) : "",
    transaction_password: user.tradePasswordHash ? 1 : 0,
    security_questions: (await hasSecurityQuestions(db, user.id)) ? 1 : 0,
    google_bound: (await isGoogleBound(db, user.id)) ? 1 : 0,
    account_kind: user.kind,
    bank_name: card?.bankName ?? "",
    bank_number: card?.cardId ?? "",
    alipay_account: "",
    weixin_nickname: "",
    weixin_account: "",
    usdt: new MoneyDecimal(usdt).toFixed(),
    demo_expires_at: user.demoExpiresAt ? Math.floor(user.demoExpiresAt.getTime() / 1000) : null,
    created_at: Math.floor(user.createdAt.getTime() / 1000),
  };
}
