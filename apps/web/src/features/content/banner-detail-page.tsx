import { Button, theme } from "antd";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { AppLink } from "../../lib/navigation.tsx";
import { toApiError } from "../../lib/trpc.ts";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { StatusMessage } from "../common/status-message.tsx";
import { ArticleBody } from "./article-body.tsx";
import { idParam, useBanner } from "./use-content-query.ts";

/** /bannerDetail?id=…: a home-page banner's article, while the banner is showing. */
export function BannerDetailPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { search } = useLocation();
  const id = idParam(search);
  const banner = useBanner(id);
  const notFound = id <= 0 || (banner.isError && toApiError(banner.error).errorCode === "NOT_FOUND");

  const body = () => {
    if (notFound) {
      return (
        <StatusMessage
          kind="notFound"
          title={t("help.bannerNotFound")}
          hint={t("help.bannerNotFoundHint")}
          testId="banner-not-found"
          actions={
            <AppLink to="/">
              <Button type="primary">{t("common.backHome")}</Button>
            </AppLink>
          }
        />
      );
    }
    if (banner.isPending) {
      return <LoadingState rows={10} />;
    }
    if (banner.isError) {
      return <ErrorState onRetry={() => void banner.refetch()} />;
    }
    return (
      <article data-testid="banner-article">
        <img
          src={banner.data.image}
          alt=""
          style={{
            width: "100%",
            maxHeight: 320,
            objectFit: "cover",
            borderRadius: token.borderRadiusLG,
            marginBottom: token.marginLG,
            background: token.colorFillQuaternary,
          }}
        />
        <ArticleBody html={banner.data.content} testId="banner-body" />
      </article>
    );
  };

  return (
    <Page title={banner.data?.title ?? t("nav.banner")} width={820}>
      {body()}
    </Page>
  );
}
