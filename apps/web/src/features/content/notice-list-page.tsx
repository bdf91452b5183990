import { Flex, Pagination, Tabs } from "antd";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { useTexts } from "../../lib/queries.ts";
import { useIsLoggedIn } from "../../lib/session.ts";
import { Page } from "../common/page.tsx";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import { MessageList } from "../messages/message-list.tsx";
import { ArticleList } from "./article-list.tsx";

const PAGE_SIZE = 10;
type Kind = "announcement" | "news" | "messages";

/** /notice: announcements and news, and for a signed-in user their messages, paged; the tab and page live in the URL so Back returns to them. */
export function NoticeListPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const loggedIn = useIsLoggedIn();
  const tabParam = params.get("tab");
  const kind: Kind =
    tabParam === "news" ? "news" : tabParam === "messages" && loggedIn ? "messages" : "announcement";
  const page = Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1);

  const show = (next: { tab?: Kind; page?: number }) => {
    const tab = next.tab ?? kind;
    const p = next.page ?? 1;
    setParams(p > 1 ? { tab, page: String(p) } : { tab }, { replace: true });
    window.scrollTo(0, 0);
  };

  return (
    <Page title={t("nav.notice")} width={820}>
      <Tabs
        activeKey={kind}
        onChange={(key) => show({ tab: key as Kind })}
        items={[
          {
            key: "announcement",
            label: <span data-testid="notice-tab-announcement">{t("content.notice.announcements")}</span>,
          },
          { key: "news", label: <span data-testid="notice-tab-news">{t("content.notice.news")}</span> },
          ...(loggedIn
            ? [
                {
                  key: "messages",
                  label: <span data-testid="notice-tab-messages">{t("messages.tab")}</span>,
                },
              ]
            : []),
        ]}
      />
      {kind === "messages" ? (
        <MessageList page={page} onPage={(p) => show({ page: p })} />
      ) : (
        <NoticeList kind={kind} page={page} onPage={(p) => show({ page: p })} />
      )}
    </Page>
  );
}

function NoticeList({
  kind,
  page,
  onPage,
}: {
  kind: Exclude<Kind, "messages">;
  page: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  const texts = useTexts({ kind, page, pageSize: PAGE_SIZE });
  if (texts.isPending) {
    return <LoadingState rows={8} />;
  }
  if (texts.isError) {
    return <ErrorState onRetry={() => void texts.refetch()} />;
  }
  if (texts.data.list.length === 0) {
    return (
      <EmptyState>
        {kind === "news" ? t("content.notice.emptyNews") : t("content.notice.emptyAnnouncements")}
      </EmptyState>
    );
  }
  return (
    <Flex vertical gap={16}>
      <ArticleList items={texts.data.list} testId="notice-list" />
      {texts.data.total > PAGE_SIZE && (
        <Flex justify="center">
          <Pagination
            current={page}
            pageSize={PAGE_SIZE}
            total={texts.data.total}
            showSizeChanger={false}
            onChange={onPage}
            size="small"
          />
        </Flex>
      )}
    </Flex>
  );
}
