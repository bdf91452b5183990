import { LANGUAGE_INFO } from "@northstar/shared/languages";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Badge, Empty, Flex, Typography, theme } from "antd";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLanguage } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { ChatComposer } from "../messages/chat-composer.tsx";
import { ChatLine } from "../messages/chat-line.tsx";
import { AdminPage, RefreshButton } from "./admin-page.tsx";
import { operatorTokenStore } from "./operator-session.ts";
import { useSupportFeed } from "./use-support-feed.ts";

/**
 * /admin/support: customer-service conversations, newest activity first, each with the lines the
 * operators have not read; the chosen one's history and a reply box. Everything updates live.
 */
export function SupportConsolePage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const { token } = theme.useToken();
  useSupportFeed();
  const conversations = useQuery(trpc.admin.support.conversations.queryOptions());
  const [selected, setSelected] = useState<number | null>(null);
  const selectedUid = conversations.data?.find((c) => c.id === selected)?.uid ?? "";

  return (
    <AdminPage
      title={t("messages.console.title")}
      extra={
        <RefreshButton onClick={() => void conversations.refetch()} loading={conversations.isFetching} />
      }
    >
      <Flex gap={16} wrap align="flex-start">
        <Flex
          vertical
          style={{
            flex: "0 1 300px",
            minWidth: 240,
            border: `1px solid ${token.colorBorderSecondary}`,
            borderRadius: token.borderRadiusLG,
          }}
          data-testid="support-conversations"
        >
          <Typography.Text strong style={{ padding: token.paddingSM }}>
            {t("messages.console.conversations")}
          </Typography.Text>
          {(conversations.data ?? []).length === 0 ? (
            <Empty description={t("messages.console.none")} />
          ) : (
            conversations.data?.map((c) => (
              <button
                type="button"
                key={c.id}
                onClick={() => setSelected(c.id)}
                data-testid="support-conversation"
                data-uid={c.uid}
                style={{
                  all: "unset",
                  cursor: "pointer",
                  padding: token.paddingSM,
                  borderTop: `1px solid ${token.colorSplit}`,
                  background: c.id === selected ? token.colorPrimaryBg : undefined,
                }}
              >
                <Flex justify="space-between" align="center" gap={8}>
                  <Flex vertical>
                    <Typography.Text strong>{t("messages.console.user", { uid: c.uid })}</Typography.Text>
                    <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
                      {c.contact}
                    </Typography.Text>
                  </Flex>
                  <Badge count={c.unread} data-testid="support-conversation-unread" />
                </Flex>
              </button>
            ))
          )}
        </Flex>
        <div style={{ flex: "1 1 420px", minWidth: 280 }}>
          {selected === null ? (
            <Empty description={t("messages.console.pick")} />
          ) : (
            <Conversation id={selected} uid={selectedUid} />
          )}
        </div>
      </Flex>
    </AdminPage>
  );
}

function Conversation({ id, uid }: { id: number; uid: string }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const lang = useLanguage();
  const history = useQuery(trpc.admin.support.history.queryOptions({ conversation_id: id, limit: 100 }));
  const refresh = () => void queryClient.invalidateQueries(trpc.admin.support.pathFilter());
  const { mutate: markRead } = useMutation(trpc.admin.support.read.mutationOptions({ onSuccess: refresh }));
  const reply = useMutation(trpc.admin.support.reply.mutationOptions({ onSuccess: refresh }));
  const lines = history.data?.lines ?? [];
  const lastUserLine = lines.filter((l) => l.author === "user").at(-1)?.id;
  const format = useMemo(
    () => new Intl.DateTimeFormat(LANGUAGE_INFO[lang].bcp47, { dateStyle: "short", timeStyle: "short" }),
    [lang],
  );

  useEffect(() => {
    if (lastUserLine !== undefined) {
      markRead({ conversation_id: id });
    }
  }, [id, lastUserLine, markRead]);

  return (
    <Flex vertical gap={12}>
      <Flex
        vertical
        gap={12}
        data-testid="support-history"
        style={{
          minHeight: 240,
          maxHeight: "60vh",
          overflowY: "auto",
          padding: token.paddingSM,
          border: `1px solid ${token.colorBorderSecondary}`,
          borderRadius: token.borderRadiusLG,
        }}
      >
        {lines.map((line) => (
          <ChatLine
            key={line.id}
            line={line}
            mine={line.author === "operator"}
            imageHeaders={{ "x-operator-token": operatorTokenStore.get() }}
            authorLabel={
              line.author === "operator"
                ? t("messages.service.operator")
                : t("messages.console.user", { uid })
            }
            time={format.format(new Date(line.created_at))}
          />
        ))}
      </Flex>
      <ChatComposer
        testId="support-reply"
        busy={reply.isPending}
        placeholder={t("messages.console.placeholder")}
        sendLabel={t("messages.console.reply")}
        onWarn={(text) => void message.warning(text)}
        onSend={(body) => reply.mutateAsync({ conversation_id: id, body })}
      />
    </Flex>
  );
}
