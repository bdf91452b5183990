import { Alert, Button, Space } from "antd";
import { useTranslation } from "react-i18next";
import { exitDemo } from "../../lib/demo.ts";
import { useSession } from "../../lib/queries.ts";

/** While signed in to a demo account: says so, when it expires, and offers to leave it. */
export function DemoBanner() {
  const { t } = useTranslation();
  const session = useSession();
  if (session.data?.account_kind !== "demo") {
    return null;
  }
  const expires = session.data.demo_expires_at
    ? new Intl.DateTimeFormat(document.documentElement.lang || undefined, {
        dateStyle: "medium",
        timeStyle: "short",
      }).format(new Date(session.data.demo_expires_at * 1000))
    : "";
  return (
    <Alert
      banner
      type="info"
      data-testid="demo-banner"
      message={
        <Space wrap>
          <span>{t("common.demo.banner", { date: expires })}</span>
          <Button size="small" onClick={exitDemo} data-testid="demo-exit">
            {t("common.demo.exit")}
          </Button>
        </Space>
      }
    />
  );
}
