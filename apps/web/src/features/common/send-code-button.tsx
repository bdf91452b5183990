import type { TCodePurpose } from "@northstar/shared/contracts/identity";
import { Button } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { legacyCall } from "../../lib/legacy.ts";

/** Where a code goes: the account fields of web/getCode (none when the user's own bound one is meant). */
export type CodeTarget = { type: "email" | "phone"; account?: string; area_code?: string };

/**
 * Sends a verification code through web/getCode and counts down until another may be sent
 * (the server's resend interval, from policy). `getTarget` returns the account fields, or null
 * when the form's account field is not valid yet (its own validation message is then shown).
 */
export function SendCodeButton({
  purpose,
  getTarget,
  testId = "send-code",
}: {
  purpose: TCodePurpose;
  getTarget: () => Promise<CodeTarget | null>;
  testId?: string;
}) {
  const { t } = useTranslation();
  const [seconds, setSeconds] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (seconds <= 0) {
      return;
    }
    const timer = setTimeout(() => setSeconds((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [seconds]);

  const send = async () => {
    const target = await getTarget();
    if (!target) {
      return;
    }
    setSending(true);
    try {
      const data = await legacyCall<{ resend_seconds: number }>("getCode", { ...target, purpose });
      feedback.success(t("api.codeSent"));
      setSeconds(data.resend_seconds);
    } catch {
      // The refusal was already shown by the client rules.
    } finally {
      setSending(false);
    }
  };

  return (
    <Button onClick={send} loading={sending} disabled={seconds > 0} data-testid={testId}>
      {seconds > 0 ? t("common.resendIn", { seconds }) : t("common.sendCode")}
    </Button>
  );
}
