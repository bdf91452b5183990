import { CalendarOutlined, FolderOutlined } from "@ant-design/icons";
import { Button, Flex, Typography, theme } from "antd";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { AppLink } from "../../lib/navigation.tsx";
import { toApiError } from "../../lib/trpc.ts";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { StatusMessage } from "../common/status-message.tsx";
import { ArticleBody } from "./article-body.tsx";
import { useFormatDate } from "./format-date.ts";
import { idParam, useHelpArticle } from "./use-content-query.ts";

const isNotFound = (error: unknown) => toApiError(error).errorCode === "NOT_FOUND";

/** /helpDetail?id=… and /settingHelpdetail?id=…: one help article with its category. */
export function HelpArticlePage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { pathname, search } = useLocation();
  const formatDate = useFormatDate("long");
  const id = idParam(search);
  const article = useHelpArticle(id);
  const listPath = pathname.startsWith("/settingHelp") ? "/settingHelp" : "/help";

  const body = () => {
    if (id <= 0 || (article.isError && isNotFound(article.error))) {
      return (
        <StatusMessage
          kind="notFound"
          title={t("help.notFound")}
          hint={t("help.notFoundHint")}
          testId="help-not-found"
          actions={
            <AppLink to={listPath}>
              <Button type="primary">{t("help.backToHelp")}</Button>
            </AppLink>
          }
        />
      );
    }
    if (article.isPending) {
      return <LoadingState rows={10} />;
    }
    if (article.isError) {
      return <ErrorState onRetry={() => void article.refetch()} />;
    }
    const a = article.data;
    return (
      <article data-testid="help-article">
        <Flex
          align="center"
          gap={16}
          wrap
          style={{ color: token.colorTextTertiary, marginBottom: token.marginLG }}
        >
          {a.category && (
            <AppLink to={listPath}>
              <Flex align="center" gap={6}>
                <FolderOutlined aria-hidden />
                <span data-testid="help-article-category">{a.category.name}</span>
              </Flex>
            </AppLink>
          )}
          <Flex align="center" gap={6}>
            <CalendarOutlined aria-hidden />
            <Typography.Text type="secondary">
              {t("help.updated", { date: formatDate(a.time) })}
            </Typography.Text>
          </Flex>
        </Flex>
        <ArticleBody html={a.content} testId="help-article-body" />
      </article>
    );
  };

  return (
    <Page title={article.data?.title ?? t("nav.help")} width={820}>
      {body()}
    </Page>
  );
}
