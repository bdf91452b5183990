import type { TContentItem } from "@northstar/shared/contracts/content";
import { Flex, theme } from "antd";
import { AppLink } from "../../lib/navigation.tsx";
import { useFormatDate } from "./format-date.ts";
import "./content.css";
import { Paragraph, Text } from "../common/typography.tsx";

/** A list of news or announcements: title, summary and date; each opens /text?id=…. */
export function ArticleList({
  items,
  summary = true,
  testId,
}: {
  items: TContentItem[];
  summary?: boolean;
  testId?: string;
}) {
  const { token } = theme.useToken();
  const formatDate = useFormatDate();
  return (
    <Flex vertical data-testid={testId}>
      {items.map((item, i) => (
        <div key={item.id} style={i > 0 ? { borderTop: `1px solid ${token.colorSplit}` } : undefined}>
          <AppLink to={`/text?id=${item.id}`} className="ns-article-link">
            <Flex vertical gap={4} style={{ paddingBlock: token.paddingSM }} data-testid="article-item">
              <Paragraph strong ellipsis={{ rows: 2 }} style={{ marginBottom: 0 }}>
                {item.title}
              </Paragraph>
              {summary && item.summary && (
                <Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ marginBottom: 0 }}>
                  {item.summary}
                </Paragraph>
              )}
              <Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
                {formatDate(item.time)}
              </Text>
            </Flex>
          </AppLink>
        </div>
      ))}
    </Flex>
  );
}
