import { fileURLToPath } from "node:url";
import { createEnv } from "@t3-oss/env-core";
import { z } from "zod";

/**
 * Server configuration shared by the API, the worker and the CLI. Each app merges this fragment
 * into its own env; nothing else reads process.env.
 */
export const domainEnv = () =>
  createEnv({
    server: {
      NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
      DATABASE_URL: z.string().url().default("postgresql://postgres@127.0.0.1:5432/northstar"),
      REDIS_URL: z.string().url().default("redis://127.0.0.1:6379"),
      /** Prefix for every Redis key and BullMQ queue, so several sites or test runs share one Redis. */
      REDIS_PREFIX: z.string().default("ns"),
      /** smtp://user:pass@host:port; unset means mail is written to the log instead of sent. */
      SMTP_URL: z.string().optional(),
      MAIL_FROM: z.string().default("Northstar <no-reply@northstar.local>"),
      SMS_PROVIDER: z.enum(["log"]).default("log"),
      UPLOAD_DIR: z.string().default("var/uploads"),
      /** Where the server keeps files of its own (the generated TOTP key file); the repository's var/. */
      DATA_DIR: z.string().default(fileURLToPath(new URL("../../../var", import.meta.url))),
      /**
       * 32 bytes in base64 or hex: the key that encrypts Google Authenticator secrets. Unset, one is
       * generated into DATA_DIR/totp-keys on first start. Older keys, comma-separated, go in
       * TOTP_ENCRYPTION_PREVIOUS_KEYS while `pnpm admin totp:rotate-key` moves secrets off them.
       */
      TOTP_ENCRYPTION_KEY: z.string().optional(),
      TOTP_ENCRYPTION_PREVIOUS_KEYS: z.string().optional(),
      /**
       * 32 bytes in base64 or hex: the key that encrypts API key secrets (the server needs each secret
       * to check request signatures, so they cannot be hashed). Unset, one is generated into
       * DATA_DIR/api-key-keys on first start; older keys, comma-separated, in the PREVIOUS variable.
       */
      API_KEY_ENCRYPTION_KEY: z.string().optional(),
      API_KEY_ENCRYPTION_PREVIOUS_KEYS: z.string().optional(),
      /**
       * The EVM node the chain watcher reads (and the signer sends through). Unset, no chain is
       * watched: crypto deposits keep the manual path (a hash and a proof, confirmed by an operator).
       */
      CHAIN_RPC_URL: z.string().url().optional(),
      /**
       * The extended public key (xpub, BIP-32) that users' deposit addresses are derived from, at the
       * account level of BIP-44 (m/44'/60'/0'); the platform keeps no deposit private key.
       */
      CHAIN_XPUB: z
        .string()
        .regex(/^[xt]pub[1-9A-HJ-NP-Za-km-z]{100,112}$/, "an extended public key (xpub…)")
        .optional(),
      /** The id of the chain CHAIN_RPC_URL serves (1: Ethereum mainnet); the watcher refuses another. */
      CHAIN_ID: z.coerce.number().int().positive().default(1),
      /**
       * Where a chain watcher with nothing recorded yet starts reading (a block number); unset, at the
       * node's head. Once it has recorded a block it resumes after its last one whatever this says.
       */
      CHAIN_START_BLOCK: z.coerce.bigint().nonnegative().optional(),
      /** The USDT (ERC20) contract on that chain: mainnet USDT unless a test or local chain says otherwise. */
      CHAIN_USDT_ADDRESS: z
        .string()
        .regex(/^0x[0-9a-fA-F]{40}$/, "a 0x address")
        .default("0xdAC17F958D2ee523a2206206994597C13D831ec7"),
      /**
       * The hot wallet's private key (32 bytes in hex), or a file holding it: with a watched chain,
       * approved withdrawals on it are signed and sent by the worker's hot-wallet role. Only that role
       * loads the key; it is never stored or logged. Set one, not both.
       */
      HOT_WALLET_PRIVATE_KEY: z.string().optional(),
      HOT_WALLET_KEY_FILE: z.string().optional(),
      /** The address users reach the site at; used in invite links and mails. */
      PUBLIC_URL: z.string().url().default("http://localhost:3000"),
    },
    runtimeEnv: process.env,
    emptyStringAsUndefined: true,
  });

export type DomainEnv = ReturnType<typeof domainEnv>;
