import type { TC2cPaymentSettings } from "@northstar/shared/contracts/c2c";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { c2cPaymentSettings } from "./c2c.table.ts";

export type PaymentSettingsView = {
  name: string;
  bank_name: string;
  bank_number: string;
  alipay_account: string;
  weixin_nickname: string;
  weixin_account: string;
};

/** The user's payment settings (SPEC section 3), or null before any are saved. */
export async function getPaymentSettings(db: DbOrTx, userId: number): Promise<PaymentSettingsView | null> {
  const [row] = await db.select().from(c2cPaymentSettings).where(eq(c2cPaymentSettings.userId, userId));
  if (!row) {
    return null;
  }
  return {
    name: row.name,
    bank_name: row.bankName,
    bank_number: row.bankNumber,
    alipay_account: row.alipayAccount,
    weixin_nickname: row.weixinNickname,
    weixin_account: row.weixinAccount,
  };
}

/** Saves the user's own payment settings; always keyed by the session's user. */
export async function savePaymentSettings(db: DbOrTx, userId: number, input: TC2cPaymentSettings) {
  const values = {
    name: input.name,
    bankName: input.bank_name,
    bankNumber: input.bank_number,
    alipayAccount: input.alipay_account,
    weixinNickname: input.weixin_nickname,
    weixinAccount: input.weixin_account,
    updatedAt: new Date(),
  };
  await db
    .insert(c2cPaymentSettings)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: c2cPaymentSettings.userId, set: values });
  return getPaymentSettings(db, userId);
}
