import { Typography } from "antd";
import { useTranslation } from "react-i18next";

/**
 * "Set by the platform", beside a price or rate an operator sets (a C2C merchant's price, a
 * launchpad offering's price, an earn product's rates), so it is never read as a market price.
 */
export function SetByPlatform() {
  const { t } = useTranslation();
  return (
    <Typography.Text
      type="secondary"
      style={{ fontSize: 12, marginInlineStart: 6 }}
      data-testid="set-by-platform"
    >
      {t("market.setByPlatform")}
    </Typography.Text>
  );
}
