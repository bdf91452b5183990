import type { TSessionInfo } from "@northstar/shared/contracts/identity";
import { displayAccount, maskPhone } from "@northstar/shared/display";
import type { Db } from "../db/client.ts";
import type { User } from "./accounts.ts";
import { hasSecurityQuestions } from "./security-questions.ts";

/**
 * web/info: the session state of SPEC section 3. Payment settings (bank, Alipay, WeChat) and the
 * USDT balance come with the money module; until then they are empty and zero.
 */
export async function getSessionInfo(
  db: Db,
  params: { user: User; token: string; language: string; publicUrl: string },
): Promise<TSessionInfo> {
  const { user } = params;
  const phone = user.phone ?? "";
  return {
    uid: user.uid,
    token: params.token,
    language: params.language,
    name: user.nickname,
    nickname: user.nickname,
    avatar: user.avatarUploadId ? `/uploads/${user.avatarUploadId}` : null,
    invitation_code: user.inviteCode,
    invite_link: `${params.publicUrl}/register?code=${user.inviteCode}`,
    email: user.email ?? "",
    phone,
    area_code: user.areaCode ?? "",
    nationality: user.nationality,
    display_account: displayAccount(user.phone, user.email),
    phone_mask: phone ? maskPhone(phone) : "",
    transaction_password: user.tradePasswordHash ? 1 : 0,
    security_questions: (await hasSecurityQuestions(db, user.id)) ? 1 : 0,
    account_kind: user.kind,
    bank_name: "",
    bank_number: "",
    alipay_account: "",
    weixin_nickname: "",
    weixin_account: "",
    usdt: "0",
    created_at: Math.floor(user.createdAt.getTime() / 1000),
  };
}
