import { z } from "zod";
import {
  err,
  zAccountType,
  zAreaCode,
  zCode,
  zEmail,
  zFormBoolean,
  zNationality,
  zPassword,
  zPhoneDigits,
  zTradePassword,
} from "./common.ts";

/** Where a code is sent, and for what; a code serves only the purpose it was issued for. */
export const CODE_PURPOSES = ["register", "reset", "bind", "changepwd", "tradepwd"] as const;
export const zCodePurpose = z.enum(CODE_PURPOSES);
export type TCodePurpose = z.infer<typeof zCodePurpose>;

/**
 * An account named by email, or by area code and phone. `account` is the email or phone digits,
 * as the login and forgot-password screens send it.
 */
export const ZAccountRefSchema = z
  .object({
    type: zAccountType.default("email"),
    account: z.string(err("ACCOUNT_OR_PASSWORD_EMPTY")).trim().min(1, err("ACCOUNT_OR_PASSWORD_EMPTY")),
    area_code: z.string().optional(),
  })
  .transform((v, ctx) => {
    if (v.type === "email") {
      const email = zEmail.safeParse(v.account);
      if (!email.success) {
        ctx.addIssue({ code: "custom", message: "EMAIL_FORMAT", path: ["account"] });
        return z.NEVER;
      }
      return { type: "email" as const, email: email.data };
    }
    const area = zAreaCode.safeParse(v.area_code ?? "");
    const phone = zPhoneDigits.safeParse(v.account);
    if (!area.success || !phone.success) {
      ctx.addIssue({ code: "custom", message: "PHONE_FORMAT", path: ["account"] });
      return z.NEVER;
    }
    return { type: "phone" as const, areaCode: area.data, phone: phone.data };
  });
export type TAccountRef = z.output<typeof ZAccountRefSchema>;

/**
 * For register, reset and bind the code goes to the account named here; for changepwd and tradepwd it
 * goes to the signed-in user's own bound email or phone, so only `type` is read.
 */
export const ZGetCodeRequestSchema = z.object({
  purpose: zCodePurpose,
  type: zAccountType.default("email"),
  account: z.string().trim().optional(),
  area_code: z.string().optional(),
});
export type TGetCodeRequest = z.output<typeof ZGetCodeRequestSchema>;

export const ZRegisterRequestSchema = z
  .object({
    type: zAccountType.default("email"),
    account: z.string(err("ACCOUNT_OR_PASSWORD_EMPTY")).trim().min(1, err("ACCOUNT_OR_PASSWORD_EMPTY")),
    area_code: z.string().optional(),
    password: zPassword,
    confirm_password: zPassword,
    code: zCode,
    nationality: zNationality,
    invite_code: z
      .string()
      .trim()
      .max(16, err("INVITE_CODE_INVALID"))
      .optional()
      .transform((v) => v || undefined),
    agree: zFormBoolean.refine((v) => v, err("AGREEMENT_REQUIRED")),
  })
  .refine((v) => v.password === v.confirm_password, {
    message: "PASSWORDS_DIFFER",
    path: ["confirm_password"],
  });
export type TRegisterRequest = z.output<typeof ZRegisterRequestSchema>;

export const ZLoginRequestSchema = z.object({
  type: zAccountType.default("email"),
  account: z.string(err("ACCOUNT_OR_PASSWORD_EMPTY")).trim().min(1, err("ACCOUNT_OR_PASSWORD_EMPTY")),
  area_code: z.string().optional(),
  password: zPassword,
});
export type TLoginRequest = z.output<typeof ZLoginRequestSchema>;

/**
 * `web/updatePassword` serves three screens: forgot password (`reset`: account + code), change with
 * the old password (`change`, /editPassword) and change by a code sent to the bound email or phone
 * (`changepwd`, /forgetpwd?type=changepwd).
 */
export const ZUpdatePasswordRequestSchema = z
  .discriminatedUnion("mode", [
    z.object({
      mode: z.literal("reset"),
      type: zAccountType.default("email"),
      account: z.string(err("ACCOUNT_OR_PASSWORD_EMPTY")).trim().min(1, err("ACCOUNT_OR_PASSWORD_EMPTY")),
      area_code: z.string().optional(),
      code: zCode,
      password: zPassword,
      confirm_password: zPassword,
    }),
    z.object({
      mode: z.literal("change"),
      old_password: zPassword,
      password: zPassword,
      confirm_password: zPassword,
    }),
    z.object({
      mode: z.literal("changepwd"),
      type: zAccountType,
      code: zCode,
      password: zPassword,
      confirm_password: zPassword,
    }),
  ])
  .refine((v) => v.password === v.confirm_password, {
    message: "PASSWORDS_DIFFER",
    path: ["confirm_password"],
  });
export type TUpdatePasswordRequest = z.output<typeof ZUpdatePasswordRequestSchema>;

/** Sets the first trade password (/bindmpwd); needs the login password as proof of presence. */
export const ZSetTradePasswordRequestSchema = z
  .object({ login_password: zPassword, trade_password: zTradePassword, confirm_password: zTradePassword })
  .refine((v) => v.trade_password === v.confirm_password, {
    message: "PASSWORDS_DIFFER",
    path: ["confirm_password"],
  });

/** Changes the trade password (/editPasswordTrade) with the old one, or with a code when it is forgotten. */
export const ZChangeTradePasswordRequestSchema = z
  .discriminatedUnion("mode", [
    z.object({ mode: z.literal("old"), old_trade_password: zTradePassword }),
    z.object({ mode: z.literal("code"), type: zAccountType, code: zCode }),
  ])
  .and(z.object({ trade_password: zTradePassword, confirm_password: zTradePassword }))
  .refine((v) => v.trade_password === v.confirm_password, {
    message: "PASSWORDS_DIFFER",
    path: ["confirm_password"],
  });

export const ZBindEmailRequestSchema = z.object({ email: zEmail, code: zCode });
export const ZBindPhoneRequestSchema = z.object({ area_code: zAreaCode, phone: zPhoneDigits, code: zCode });

/** Security questions have ids 1 to 3 (SPEC section 3); the user answers each once. */
export const SECURITY_QUESTION_IDS = [1, 2, 3] as const;
export const ZSetSecurityQuestionsRequestSchema = z.object({
  answers: z
    .array(
      z.object({
        question_id: z.coerce.number().int().min(1).max(3),
        answer: z.string().trim().min(1, err("FIELD_REQUIRED")).max(64),
      }),
    )
    .length(3)
    .refine((a) => new Set(a.map((x) => x.question_id)).size === 3, err("FIELD_INVALID")),
  login_password: zPassword,
});
export const ZVerifySecurityAnswerRequestSchema = z.object({
  question_id: z.coerce.number().int().min(1).max(3),
  answer: z.string().trim().min(1, err("FIELD_REQUIRED")).max(64),
});

/**
 * The nickname's bounds come from policy (`identity.nickname.maxLength`) and are checked, with the
 * limit in the message, by the domain's `updateNickname`; here only a sanity cap on size.
 */
export const ZUpdateProfileRequestSchema = z.object({
  nickname: z.string().max(256),
});

/** web/info: the session state of SPEC section 3. */
export const ZSessionInfoSchema = z.object({
  uid: z.string(),
  token: z.string(),
  language: z.string(),
  name: z.string(),
  nickname: z.string(),
  avatar: z.string().nullable(),
  invitation_code: z.string(),
  invite_link: z.string(),
  email: z.string(),
  phone: z.string(),
  area_code: z.string(),
  nationality: z.string(),
  display_account: z.string(),
  phone_mask: z.string(),
  transaction_password: z.union([z.literal(0), z.literal(1)]),
  security_questions: z.union([z.literal(0), z.literal(1)]),
  google_bound: z.union([z.literal(0), z.literal(1)]),
  account_kind: z.enum(["real", "demo"]),
  bank_name: z.string(),
  bank_number: z.string(),
  alipay_account: z.string(),
  weixin_nickname: z.string(),
  weixin_account: z.string(),
  usdt: z.string(),
  demo_expires_at: z.number().nullable(),
  created_at: z.number(),
});
export type TSessionInfo = z.infer<typeof ZSessionInfoSchema>;
