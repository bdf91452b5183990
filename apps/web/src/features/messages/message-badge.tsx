import { BellOutlined } from "@ant-design/icons";
import { Badge, Button } from "antd";
import { useTranslation } from "react-i18next";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useUnreadMessages } from "./use-unread-messages.ts";

/** The header's bell: the unread message count, live; opens the messages tab of /notice. */
export function MessageBadge() {
  const { t } = useTranslation();
  const go = useAppNavigate();
  const unread = useUnreadMessages();
  return (
    <Button
      type="text"
      aria-label={t("nav.messages")}
      title={t("nav.messages")}
      data-testid="message-badge"
      data-unread={unread}
      onClick={() => go("/notice?tab=messages")}
      style={{ paddingInline: 6 }}
      icon={
        <Badge count={unread} size="small" overflowCount={99}>
          <BellOutlined style={{ fontSize: 18 }} />
        </Badge>
      }
    />
  );
}
