import { Button, Result } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../lib/navigation.tsx";

/**
 * What a gated screen (loans, C2C, the credit score) shows until the user's verification allows it:
 * SPEC section 8's "please complete KYC / advanced verification" and a button to that step.
 */
export function GatePrompt({ next }: { next: "primary" | "advanced" }) {
  const { t } = useTranslation();
  return (
    <Result
      status="warning"
      title={t(next === "primary" ? "kyc.gates.needPrimary" : "kyc.gates.needAdvanced")}
      data-testid="kyc-gate-prompt"
      extra={
        <AppLink to={next === "primary" ? "/smauth" : "/seniorauth"}>
          <Button type="primary" data-testid="kyc-gate-go">
            {t(next === "primary" ? "kyc.gates.goPrimary" : "kyc.gates.goAdvanced")}
          </Button>
        </AppLink>
      }
    />
  );
}
