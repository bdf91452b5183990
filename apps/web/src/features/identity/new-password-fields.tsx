import { zPassword } from "@northstar/shared/contracts/common";
import { Form, Input } from "antd";
import { useTranslation } from "react-i18next";
import { passwordLengthRule, sameAs, zodRule } from "../../lib/form-rules.ts";

/** A new password with its length from policy, and its confirmation. */
export function NewPasswordFields({
  min,
  max,
  testIdPrefix,
  label,
}: {
  min: number;
  max: number;
  testIdPrefix: string;
  label?: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name="password"
        label={label ?? t("fields.password")}
        rules={[passwordLengthRule(t, min, max)]}
        extra={t("errors.PASSWORD_LENGTH", { min, max })}
      >
        <Input.Password
          name="password"
          autoComplete="new-password"
          maxLength={max}
          placeholder={t("auth.placeholders.newPassword")}
          data-testid={`${testIdPrefix}-password`}
        />
      </Form.Item>
      <Form.Item
        name="confirm_password"
        label={t("fields.confirmPassword")}
        dependencies={["password"]}
        rules={[zodRule(zPassword, t, "confirmPassword"), sameAs("password", t)]}
        validateFirst
      >
        <Input.Password
          name="confirm_password"
          autoComplete="new-password"
          maxLength={max}
          placeholder={t("auth.placeholders.confirmPassword")}
          data-testid={`${testIdPrefix}-confirm`}
        />
      </Form.Item>
    </>
  );
}
