import { CalendarOutlined } from "@ant-design/icons";
import { Button, Flex, Typography, theme } from "antd";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { ApiError } from "../../lib/client-rules.ts";
import { AppLink } from "../../lib/navigation.tsx";
import { useTexts } from "../../lib/queries.ts";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { useFormatDate } from "./format-date.ts";
import "./content.css";
import { StatusMessage } from "../common/status-message.tsx";

/** Routes that always show one page: company profile (1) and user agreement (3). */
const FIXED_PAGES: Record<string, { id: number; title: string }> = {
  "/about": { id: 1, title: "about" },
  "/settingAbout": { id: 1, title: "about" },
  "/agrt": { id: 3, title: "agreement" },
  "/userAgreement": { id: 3, title: "agreement" },
  "/agreement": { id: 3, title: "agreement" },
};

/** /text?id=…, /about, /agrt…: one content text (a page, a news item or an announcement). */
export function ContentPage() {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const fixed = FIXED_PAGES[pathname];
  const raw = new URLSearchParams(search).get("id") ?? "";
  const id = fixed ? fixed.id : /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  const fallbackTitle = t(`nav.${fixed?.title ?? "text"}`);
  if (id <= 0) {
    return (
      <Page title={fallbackTitle} width={820}>
        <ContentNotFound />
      </Page>
    );
  }
  return <Article key={id} id={id} fallbackTitle={fallbackTitle} />;
}

function Article({ id, fallbackTitle }: { id: number; fallbackTitle: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const formatDate = useFormatDate("long");
  const texts = useTexts({ id });
  const item = texts.data?.list[0];

  const body = () => {
    if (texts.isPending) {
      return <LoadingState rows={10} />;
    }
    if (texts.isError) {
      return texts.error instanceof ApiError && texts.error.errorCode === "NOT_FOUND" ? (
        <ContentNotFound />
      ) : (
        <ErrorState onRetry={() => void texts.refetch()} />
      );
    }
    if (!item) {
      return <ContentNotFound />;
    }
    return (
      <article data-testid="content-article">
        <Flex align="center" gap={6} style={{ color: token.colorTextTertiary, marginBottom: token.marginLG }}>
          <CalendarOutlined aria-hidden />
          <Typography.Text type="secondary" data-testid="content-date">
            {item.kind === "page"
              ? t("content.article.updated", { date: formatDate(item.time) })
              : t("content.article.published", { date: formatDate(item.time) })}
          </Typography.Text>
        </Flex>
        <Typography>
          <div
            className="ns-article"
            data-testid="content-body"
            // The server sanitises operator HTML with sanitize-html when it is saved (domain content module:
            // no scripts, styles or event handlers; links and images only over http(s)), so it is safe to render.
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on save by the server, see above
            dangerouslySetInnerHTML={{ __html: item.content }}
          />
        </Typography>
      </article>
    );
  };

  return (
    <Page title={item?.title ?? fallbackTitle} width={820}>
      {body()}
    </Page>
  );
}

function ContentNotFound() {
  const { t } = useTranslation();
  return (
    <StatusMessage
      kind="notFound"
      title={t("content.article.notFound")}
      hint={t("content.article.notFoundHint")}
      testId="content-not-found"
      actions={
        <>
          <AppLink to="/notice">
            <Button type="primary">{t("nav.notice")}</Button>
          </AppLink>
          <AppLink to="/">
            <Button>{t("common.backHome")}</Button>
          </AppLink>
        </>
      }
    />
  );
}
