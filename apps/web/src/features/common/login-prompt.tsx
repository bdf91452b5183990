import { Button, Result } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../lib/navigation.tsx";

/** Shown on public pages whose content needs a session (SPEC section 6: prompts ask to log in first). */
export function LoginPrompt() {
  const { t } = useTranslation();
  return (
    <Result
      status="info"
      title={t("errors.LOGIN_REQUIRED")}
      extra={[
        <AppLink key="login" to="/login">
          <Button type="primary">{t("nav.login")}</Button>
        </AppLink>,
        <AppLink key="register" to="/register">
          <Button>{t("nav.register")}</Button>
        </AppLink>,
      ]}
    />
  );
}
