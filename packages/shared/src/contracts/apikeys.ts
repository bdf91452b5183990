import { z } from "zod";
import type { ApiKeyStatus } from "../state-machines/index.ts";
import { err, zTradePassword } from "./common.ts";

/** What a key may do. Withdrawals are never allowed by key. */
export const API_KEY_PERMISSIONS = ["read", "spot_trade"] as const;
export type TApiKeyPermission = (typeof API_KEY_PERMISSIONS)[number];

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^[0-9a-f:]{2,39}$/i;
export const MAX_IP_ALLOW_LIST = 20;

/** Comma-, space- or newline-separated IPv4/IPv6 addresses; empty means any address. */
export const zIpAllowList = z
  .union([z.string(), z.array(z.string())], err("API_KEY_IP_LIST_INVALID"))
  .transform((v) =>
    (Array.isArray(v) ? v : v.split(/[\s,]+/)).map((ip) => ip.trim().toLowerCase()).filter((ip) => ip !== ""),
  )
  .refine(
    (ips) =>
      ips.length <= MAX_IP_ALLOW_LIST &&
      ips.every((ip) => IPV4.test(ip) || (ip.includes(":") && IPV6.test(ip))),
    err("API_KEY_IP_LIST_INVALID"),
  )
  .transform((ips) => [...new Set(ips)]);

export const zApiKeyLabel = z
  .string(err("FIELD_REQUIRED"))
  .trim()
  .min(1, err("FIELD_REQUIRED"))
  .max(40, err("FIELD_INVALID"));

const zGoogleCode = z
  .string()
  .trim()
  .regex(/^(\d{6})?$/, err("GOOGLE_CODE_WRONG"))
  .optional()
  .transform((v) => v || undefined);

/** Creating a key: the trade password, and the Google code when Google Authenticator is bound. */
export const ZCreateApiKeyRequestSchema = z.object({
  label: zApiKeyLabel,
  spot_trade: z.boolean().default(false),
  ip_allow_list: zIpAllowList.default([]),
  trade_password: zTradePassword,
  google_code: zGoogleCode,
});
export type TCreateApiKeyRequest = z.output<typeof ZCreateApiKeyRequestSchema>;

export const ZApiKeyIdSchema = z.object({ id: z.coerce.number().int().positive() });

/** Changing a key's label, its trade permission or its address list. */
export const ZUpdateApiKeyRequestSchema = z.object({
  id: z.coerce.number().int().positive(),
  label: zApiKeyLabel.optional(),
  spot_trade: z.boolean().optional(),
  ip_allow_list: zIpAllowList.optional(),
});
export type TUpdateApiKeyRequest = z.output<typeof ZUpdateApiKeyRequestSchema>;

export const ZSetApiKeyEnabledSchema = z.object({
  id: z.coerce.number().int().positive(),
  enabled: z.boolean(),
});

/** What the security centre shows of a key: never its secret, only the start of the key. */
export interface TApiKeyView {
  id: number;
  label: string;
  /** The first characters of the key, to tell keys apart. */
  key_prefix: string;
  permissions: TApiKeyPermission[];
  ip_allow_list: string[];
  status: ApiKeyStatus;
  book: "real" | "demo";
  created_at: string;
  last_used_at: string | null;
}

/** The one answer that carries the secret: shown once, never again. */
export interface TCreatedApiKey {
  key: TApiKeyView;
  api_key: string;
  secret: string;
}
