import type { ReactNode } from "react";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { GatePrompt } from "../kyc/gate-prompt.tsx";
import { useKycStatus } from "../kyc/use-kyc-status.ts";

/** C2C needs primary KYC (SPEC section 6): until then the prompt leads to that step. */
export function C2cGate({ children }: { children: ReactNode }) {
  const status = useKycStatus();
  if (status.isPending) {
    return <LoadingState rows={4} />;
  }
  if (status.isError) {
    return <ErrorState onRetry={() => void status.refetch()} />;
  }
  const gate = status.data.gates.c2c;
  return gate.allowed || !gate.next ? children : <GatePrompt next={gate.next} />;
}
