import { Alert, Button, Space } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../lib/navigation.tsx";

/** SPEC section 5: an email or phone must be bound before the password can be changed. */
export function BindRequired() {
  const { t } = useTranslation();
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="bind-required"
      title={t("errors.BIND_REQUIRED")}
      description={
        <Space wrap style={{ marginTop: 8 }}>
          <AppLink to="/email">
            <Button data-testid="bind-email-link">{t("nav.bindEmail")}</Button>
          </AppLink>
          <AppLink to="/mobile">
            <Button data-testid="bind-phone-link">{t("nav.bindPhone")}</Button>
          </AppLink>
        </Space>
      }
    />
  );
}
