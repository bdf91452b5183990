import { zCode } from "@northstar/shared/contracts/common";
import type { TCodePurpose } from "@northstar/shared/contracts/identity";
import { Form, Input, Space } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { zodRule } from "../../lib/form-rules.ts";
import { digitsOnly } from "../account/account-helpers.ts";
import { type CodeTarget, SendCodeButton } from "./send-code-button.tsx";

/**
 * The verification code input (form field `code`, six digits) with its send button beside it, as
 * every page that asks for an emailed or texted code shows it.
 */
export function CodeField({
  purpose,
  getTarget,
  testId,
  sendTestId,
  prefix,
  placeholder,
}: {
  purpose: TCodePurpose;
  getTarget: () => Promise<CodeTarget | null>;
  testId: string;
  sendTestId?: string;
  prefix?: ReactNode;
  placeholder?: string;
}) {
  const { t } = useTranslation();
  return (
    <Form.Item label={t("fields.code")} required>
      <Space.Compact block>
        <Form.Item name="code" noStyle rules={[zodRule(zCode, t, "code")]} normalize={digitsOnly(6)}>
          <Input
            name="code"
            prefix={prefix}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            placeholder={placeholder}
            data-testid={testId}
          />
        </Form.Item>
        <SendCodeButton purpose={purpose} getTarget={getTarget} testId={sendTestId} />
      </Space.Compact>
    </Form.Item>
  );
}
