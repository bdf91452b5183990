import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Google Authenticator secrets are stored encrypted: AES-256-GCM, the user id as associated data (a
 * row copied to another user does not decrypt), as `v1:<key id>:<iv>:<tag>:<ciphertext>`. The key id
 * is a short hash of the key, so rows name the key that opens them and keys can be rotated.
 */
const VERSION = "v1";
const KEY_FILE = "totp-keys";

export function parseTotpKey(text: string): Buffer {
  const value = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, "hex") : Buffer.from(value, "base64");
  if (key.length !== 32) {
    throw new Error("a TOTP encryption key must be 32 bytes, written in base64 or hex");
  }
  return key;
}

export const totpKeyId = (key: Buffer) => createHash("sha256").update(key).digest("hex").slice(0, 8);

export const isEncryptedTotpSecret = (stored: string) => stored.startsWith(`${VERSION}:`);

/**
 * Whose secret it is: a user's (the default), an operator's, or a user's API key secret (its own
 * keyring, see apikeys), so a row moved across any of them fails.
 */
export type TotpScope = "user_totp" | "operator_totp" | "api_key";

const aad = (userId: number, scope: TotpScope) => Buffer.from(`${scope}:${userId}`);

export class TotpKeyring {
  #keys = new Map<string, Buffer>();
  #currentId = "";
  readonly #reload: (() => Buffer[]) | undefined;

  /** The first key encrypts; all of them decrypt. `reload` re-reads a key file another process rotated. */
  constructor(keys: Buffer[], reload?: () => Buffer[]) {
    this.#set(keys);
    this.#reload = reload;
  }

  #set(keys: Buffer[]) {
    const [current] = keys;
    if (!current) {
      throw new Error("no TOTP encryption key");
    }
    this.#keys = new Map(keys.map((k) => [totpKeyId(k), k]));
    this.#currentId = totpKeyId(current);
  }

  get currentId(): string {
    return this.#currentId;
  }

  encrypt(secret: string, userId: number, scope: TotpScope = "user_totp"): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.#key(this.#currentId), iv);
    cipher.setAAD(aad(userId, scope));
    const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString("base64url"));
    return [VERSION, this.#currentId, ...parts].join(":");
  }

  decrypt(stored: string, userId: number, scope: TotpScope = "user_totp"): string {
    const [version, id, iv, tag, body] = stored.split(":");
    if (version !== VERSION || !id || !iv || !tag || body === undefined) {
      throw new Error("not an encrypted TOTP secret");
    }
    const decipher = createDecipheriv("aes-256-gcm", this.#key(id), Buffer.from(iv, "base64url"));
    decipher.setAAD(aad(userId, scope));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString(
      "utf8",
    );
  }

  /** Whether a stored value is already under the key that encrypts now. */
  isCurrent(stored: string): boolean {
    return stored.startsWith(`${VERSION}:${this.#currentId}:`);
  }

  #key(id: string): Buffer {
    let key = this.#keys.get(id);
    if (!key && this.#reload) {
      this.#set(this.#reload());
      key = this.#keys.get(id);
    }
    if (!key) {
      throw new Error(`TOTP encryption key ${id} is not configured`);
    }
    return key;
  }
}

const keyFile = (dataDir: string, name = KEY_FILE) => join(dataDir, name);

function readKeyFile(dataDir: string, name = KEY_FILE): Buffer[] {
  return readFileSync(keyFile(dataDir, name), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map(parseTotpKey);
}

/**
 * The keyring from the environment (`TOTP_ENCRYPTION_KEY`, older keys in
 * `TOTP_ENCRYPTION_PREVIOUS_KEYS`), or else from `<dataDir>/totp-keys`, generated on first start
 * (mode 0600; created exclusively, so two processes starting together end up with one key).
 */
export function loadTotpKeyring(config: {
  key?: string;
  previousKeys?: string;
  dataDir: string;
  /** The key file in dataDir; `totp-keys` unless another secret (API keys) has its own. */
  fileName?: string;
}): TotpKeyring {
  if (config.key) {
    const previous = (config.previousKeys ?? "").split(",").filter((k) => k.trim() !== "");
    return new TotpKeyring([config.key, ...previous].map(parseTotpKey));
  }
  const name = config.fileName ?? KEY_FILE;
  ensureKeyFile(config.dataDir, name);
  return new TotpKeyring(readKeyFile(config.dataDir, name), () => readKeyFile(config.dataDir, name));
}

function ensureKeyFile(dataDir: string, name = KEY_FILE): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // Written aside, then linked into place: the link fails if the file exists, and a process
  // starting at the same moment never reads a half-written file.
  const aside = `${keyFile(dataDir, name)}.${process.pid}.new`;
  writeFileSync(aside, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600 });
  try {
    linkSync(aside, keyFile(dataDir, name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
      throw error;
    }
  } finally {
    unlinkSync(aside);
  }
}

/**
 * Puts a new key first in `<dataDir>/totp-keys`, keeping the older ones after it for reading, and
 * answers the new keyring. The file is replaced whole (written aside, then renamed).
 */
export function addTotpKeyToFile(dataDir: string): TotpKeyring {
  ensureKeyFile(dataDir);
  const keys = [randomBytes(32), ...readKeyFile(dataDir)];
  const aside = `${keyFile(dataDir)}.${process.pid}.tmp`;
  writeFileSync(aside, keys.map((k) => `${k.toString("base64")}\n`).join(""), { mode: 0o600 });
  renameSync(aside, keyFile(dataDir));
  return new TotpKeyring(keys, () => readKeyFile(dataDir));
}

// One keyring per process, set at boot by the API and the CLI: the secrets it opens are used deep in
// services (withdrawals) that should not carry a key through every call.
let active: TotpKeyring | undefined;

export function useTotpKeyring(keyring: TotpKeyring): void {
  active = keyring;
}

export function totpKeyring(): TotpKeyring {
  if (!active) {
    throw new Error("the TOTP keyring is not configured");
  }
  return active;
}
