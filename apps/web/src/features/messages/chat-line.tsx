import type { TSupportLine } from "@northstar/shared/contracts/messages";
import { Flex, Image, theme } from "antd";
import { useTranslation } from "react-i18next";
import { usePrivateFile } from "../../lib/private-file.ts";
import { Paragraph, Text } from "../common/typography.tsx";

/**
 * One line of a customer-service conversation, as a bubble: the reader's own lines on the right.
 * An attached image is private, fetched with the reader's header (`imageHeaders`).
 */
export function ChatLine({
  line,
  mine,
  imageHeaders,
  authorLabel,
  time,
}: {
  line: TSupportLine;
  mine: boolean;
  imageHeaders: Record<string, string>;
  authorLabel: string;
  time: string;
}) {
  const { token } = theme.useToken();
  return (
    <Flex
      vertical
      align={mine ? "flex-end" : "flex-start"}
      gap={2}
      data-testid="chat-line"
      data-author={line.author}
    >
      <Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
        {authorLabel} · {time}
      </Text>
      <div
        style={{
          maxWidth: "80%",
          padding: `${token.paddingXS}px ${token.paddingSM}px`,
          borderRadius: token.borderRadiusLG,
          background: mine ? token.colorPrimaryBg : token.colorFillSecondary,
          overflowWrap: "anywhere",
        }}
      >
        {line.upload_id && <ChatImage id={line.upload_id} headers={imageHeaders} />}
        {line.body && (
          <Paragraph style={{ marginBottom: 0, whiteSpace: "pre-wrap" }} data-testid="chat-line-body">
            {line.body}
          </Paragraph>
        )}
      </div>
    </Flex>
  );
}

function ChatImage({ id, headers }: { id: string; headers: Record<string, string> }) {
  const { t } = useTranslation();
  const file = usePrivateFile(`/uploads/${encodeURIComponent(id)}`, headers);
  if (!file.url) {
    return <Text type="secondary">{t("messages.service.image")}</Text>;
  }
  return <Image src={file.url} alt={t("messages.service.image")} width={160} data-testid="chat-image" />;
}
