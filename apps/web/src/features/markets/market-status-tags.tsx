import { Badge, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useSocketStatus } from "../../lib/market-socket.ts";
import "./markets.css";

export function ClosedTag() {
  const { t } = useTranslation();
  return (
    <Tag
      style={{ marginInlineEnd: 0, fontSize: 11, lineHeight: "16px", paddingInline: 4 }}
      data-testid="market-closed"
    >
      {t("market.closed")}
    </Tag>
  );
}

/** A green dot while the socket is connected, orange while it (re)connects. */
export function LiveIndicator() {
  const { t } = useTranslation();
  const status = useSocketStatus();
  return (
    <Badge
      status={status === "open" ? "success" : "warning"}
      text={
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t(`market.live.${status}`)}
        </Typography.Text>
      }
      data-testid="market-live"
      data-status={status}
    />
  );
}
