import { GATE_REQUIREMENTS, GATED_ACTIONS, type GatedAction } from "@northstar/shared/kyc";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { latestApplications, toUserId, type VerificationStatus } from "./status.ts";

export interface Gate {
  allowed: boolean;
  /** The step to complete first: primary KYC, then advanced; null when allowed. */
  next: "primary" | "advanced" | null;
  /** The refusal's error code (SPEC section 8 texts), null when allowed. */
  errorCode: "KYC_REQUIRED" | "ADVANCED_KYC_REQUIRED" | null;
}

export interface VerificationGates {
  primary: VerificationStatus;
  advanced: VerificationStatus;
  address: VerificationStatus;
  credit: VerificationStatus;
  gates: Record<GatedAction, Gate>;
}

/**
 * What the user may do by verification level (SPEC section 6): loans need primary and advanced KYC,
 * C2C and the credit score need primary. The web shows `next` as a prompt leading to that step.
 */
export async function getVerificationGates(db: DbOrTx, userId: string | number): Promise<VerificationGates> {
  const latest = await latestApplications(db, toUserId(userId));
  const status = (level: "primary" | "advanced" | "address" | "credit"): VerificationStatus =>
    latest(level)?.status ?? "unverified";
  const approved = { primary: status("primary") === "approved", advanced: status("advanced") === "approved" };
  const gates = {} as Record<GatedAction, Gate>;
  for (const action of GATED_ACTIONS) {
    const missing = GATE_REQUIREMENTS[action].find((level) => !approved[level]) ?? null;
    gates[action] = {
      allowed: missing === null,
      next: missing,
      errorCode: missing === null ? null : missing === "primary" ? "KYC_REQUIRED" : "ADVANCED_KYC_REQUIRED",
    };
  }
  return {
    primary: status("primary"),
    advanced: status("advanced"),
    address: status("address"),
    credit: status("credit"),
    gates,
  };
}

/** Refuses with "please complete KYC" or "please complete advanced verification" when gated. */
export async function assertGate(db: DbOrTx, userId: string | number, action: GatedAction): Promise<void> {
  const gate = (await getVerificationGates(db, userId)).gates[action];
  if (gate.errorCode) {
    throw new AppError(gate.errorCode);
  }
}
