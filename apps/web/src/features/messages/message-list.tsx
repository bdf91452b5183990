import type { TMessageView } from "@northstar/shared/contracts/messages";
import { LANGUAGE_INFO } from "@northstar/shared/languages";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Badge, Button, Flex, Pagination, theme } from "antd";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useLanguage } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import { Paragraph, Text } from "../common/typography.tsx";

const PAGE_SIZE = 10;

/** The signed-in user's messages, newest first: opening an unread one marks it read. */
export function MessageList({ page, onPage }: { page: number; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { token } = theme.useToken();
  const messages = useQuery(
    trpc.messages.list.queryOptions({ page, page_size: PAGE_SIZE }, { placeholderData: keepPreviousData }),
  );
  const refresh = () => void queryClient.invalidateQueries(trpc.messages.pathFilter());
  const read = useMutation(trpc.messages.read.mutationOptions({ onSuccess: refresh }));
  const readAll = useMutation(trpc.messages.readAll.mutationOptions({ onSuccess: refresh }));
  const lang = useLanguage();
  const format = useMemo(
    () => new Intl.DateTimeFormat(LANGUAGE_INFO[lang].bcp47, { dateStyle: "medium", timeStyle: "short" }),
    [lang],
  );

  if (messages.isPending) {
    return <LoadingState rows={6} />;
  }
  if (messages.isError) {
    return <ErrorState onRetry={() => void messages.refetch()} />;
  }
  if (messages.data.total === 0) {
    return <EmptyState>{t("messages.empty")}</EmptyState>;
  }
  return (
    <Flex vertical gap={12}>
      <Flex justify="space-between" align="center">
        <Text type="secondary" data-testid="messages-unread">
          {t("messages.unread")}: {messages.data.unread}
        </Text>
        <Button
          size="small"
          disabled={messages.data.unread === 0}
          loading={readAll.isPending}
          onClick={() => readAll.mutate()}
          data-testid="messages-read-all"
        >
          {t("messages.markAll")}
        </Button>
      </Flex>
      <Flex vertical data-testid="messages-list">
        {messages.data.list.map((m: TMessageView, i) => (
          <button
            type="button"
            key={m.id}
            className="ns-message-item"
            data-testid="message-item"
            data-read={m.read}
            onClick={() => !m.read && read.mutate({ id: m.id })}
            style={{
              all: "unset",
              cursor: m.read ? "default" : "pointer",
              paddingBlock: token.paddingSM,
              borderTop: i > 0 ? `1px solid ${token.colorSplit}` : undefined,
            }}
          >
            <Flex vertical gap={4}>
              <Flex align="center" gap={8}>
                {!m.read && <Badge status="processing" aria-label={t("messages.unread")} />}
                <Text strong={!m.read}>{m.title}</Text>
              </Flex>
              <Paragraph type={m.read ? "secondary" : undefined} style={{ marginBottom: 0 }}>
                {m.body}
              </Paragraph>
              <Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
                {format.format(new Date(m.created_at))} · {m.read ? t("messages.read") : t("messages.unread")}
              </Text>
            </Flex>
          </button>
        ))}
      </Flex>
      {messages.data.total > PAGE_SIZE && (
        <Flex justify="center">
          <Pagination
            current={page}
            pageSize={PAGE_SIZE}
            total={messages.data.total}
            showSizeChanger={false}
            onChange={onPage}
            size="small"
          />
        </Flex>
      )}
    </Flex>
  );
}
