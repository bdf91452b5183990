import { z } from "zod";
import { err } from "./common.ts";

/** An Ethereum address as a wallet reports it (any letter case; the server checksums it). */
export const zWalletAddress = z
  .string(err("WALLET_ADDRESS_INVALID"))
  .trim()
  .regex(/^0x[0-9a-fA-F]{40}$/, err("WALLET_ADDRESS_INVALID"));

export const ZWalletNonceRequestSchema = z.object({
  address: zWalletAddress,
  chainId: z.coerce
    .number(err("WALLET_CHAIN_UNSUPPORTED"))
    .int(err("WALLET_CHAIN_UNSUPPORTED"))
    .positive(err("WALLET_CHAIN_UNSUPPORTED")),
});
export type TWalletNonceRequest = z.infer<typeof ZWalletNonceRequestSchema>;

/** The EIP-4361 message the server issued and the wallet's `personal_sign` signature of it. */
export const ZWalletSignInRequestSchema = z.object({
  message: z
    .string(err("WALLET_MESSAGE_INVALID"))
    .min(1, err("WALLET_MESSAGE_INVALID"))
    .max(4000, err("WALLET_MESSAGE_INVALID")),
  signature: z
    .string(err("WALLET_SIGNATURE_INVALID"))
    .trim()
    .regex(/^0x[0-9a-fA-F]{2,2000}$/, err("WALLET_SIGNATURE_INVALID")),
});
export type TWalletSignInRequest = z.infer<typeof ZWalletSignInRequestSchema>;

export const ZWalletUnlinkRequestSchema = z.object({
  id: z.coerce.number(err("WALLET_NOT_FOUND")).int(err("WALLET_NOT_FOUND")).positive(err("WALLET_NOT_FOUND")),
});

export interface TLinkedWallet {
  id: number;
  address: string;
  chainId: number;
  createdAt: string;
  lastUsedAt: string | null;
}
