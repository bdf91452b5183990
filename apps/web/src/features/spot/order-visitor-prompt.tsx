import { Button, Flex, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { AppLink } from "../../lib/navigation.tsx";

/** Visitors see the form, and in place of the button an invitation to log in (SPEC section 6). */
export function VisitorPrompt() {
  const { t } = useTranslation();
  const location = useLocation();
  const back = encodeURIComponent(location.pathname + location.search);
  return (
    <Flex vertical gap={8} style={{ marginTop: 12 }} data-testid="order-login-prompt">
      <Typography.Text type="secondary" style={{ textAlign: "center" }}>
        {t("spot.form.loginPrompt")}
      </Typography.Text>
      <Flex gap={8}>
        <AppLink to={`/login?redirect=${back}`} className="ns-grow">
          <Button type="primary" block data-testid="order-login">
            {t("spot.form.loginToTrade")}
          </Button>
        </AppLink>
        <AppLink to="/register" className="ns-grow">
          <Button block>{t("nav.register")}</Button>
        </AppLink>
      </Flex>
    </Flex>
  );
}
