import { Button } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../lib/navigation.tsx";
import { StatusMessage } from "./status-message.tsx";

/** Shown on public pages whose content needs a session (SPEC section 6: prompts ask to log in first). */
export function LoginPrompt() {
  const { t } = useTranslation();
  return (
    <StatusMessage
      kind="info"
      title={t("errors.LOGIN_REQUIRED")}
      actions={
        <>
          <AppLink to="/login">
            <Button type="primary">{t("nav.login")}</Button>
          </AppLink>
          <AppLink to="/register">
            <Button>{t("nav.register")}</Button>
          </AppLink>
        </>
      }
    />
  );
}
