export * from "./account-status.ts";
export * from "./accounts.ts";
export * from "./bind-contact.ts";
export * from "./codes.ts";
export * from "./demo.ts";
export * from "./identity.table.ts";
export * from "./login-user.ts";
export * from "./profile.ts";
export * from "./register-user.ts";
export * from "./request-code.ts";
export * from "./secret-attempts.ts";
export {
  assertHashCapacity,
  configureSecretHashing,
  type HashPriority,
  hasHashCapacity,
  hashSecret,
  newToken,
  SECRET_VERIFY_CHANNEL,
  secretHashingLoad,
  sha256,
  verifySecret,
} from "./secrets.ts";
export * from "./security-questions.ts";
export * from "./session-info.ts";
export * from "./sessions.ts";
export * from "./totp.table.ts";
export * from "./totp.ts";
export * from "./totp-keys.ts";
export * from "./trade-password.ts";
export * from "./update-password.ts";
export * from "./wallet-login.ts";
export * from "./wallets.table.ts";
