import { QuestionCircleOutlined, RightOutlined, SearchOutlined } from "@ant-design/icons";
import { Flex, Input, theme } from "antd";
import { useDeferredValue, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { AppLink } from "../../lib/navigation.tsx";
import { Page } from "../common/page.tsx";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import { Panel } from "../common/panel.tsx";
import { Text } from "../common/typography.tsx";
import { useHelpCentre } from "./use-content-query.ts";
import "./content.css";

/** The detail route that belongs with a list route: the account area keeps its own pair. */
export const helpDetailPath = (pathname: string, id: number) =>
  `${pathname.startsWith("/settingHelp") ? "/settingHelpdetail" : "/helpDetail"}?id=${id}`;

/** /help and /settingHelp: the help categories in order, each with its articles; a search narrows them. */
export function HelpCentrePage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { pathname } = useLocation();
  const centre = useHelpCentre();
  const [search, setSearch] = useState("");
  const q = useDeferredValue(search.trim().toLowerCase());

  const body = () => {
    if (centre.isPending) {
      return <LoadingState rows={8} />;
    }
    if (centre.isError) {
      return <ErrorState onRetry={() => void centre.refetch()} />;
    }
    if (centre.data.length === 0) {
      return <EmptyState>{t("help.empty")}</EmptyState>;
    }
    const shown = centre.data
      .map((c) => ({
        ...c,
        articles: q
          ? c.articles.filter((a) => `${a.title} ${a.summary}`.toLowerCase().includes(q))
          : c.articles,
      }))
      .filter((c) => c.articles.length > 0);
    if (shown.length === 0) {
      return <EmptyState>{t("help.noMatch", { q: search.trim() })}</EmptyState>;
    }
    return (
      <Flex vertical gap={token.margin} data-testid="help-categories">
        {shown.map((c) => (
          <Panel key={c.id} title={c.name || t("help.other")} testId="help-category">
            <Flex vertical>
              {c.articles.map((a, i) => (
                <div key={a.id} style={i > 0 ? { borderTop: `1px solid ${token.colorSplit}` } : undefined}>
                  <AppLink to={helpDetailPath(pathname, a.id)} className="ns-article-link">
                    <Flex
                      align="center"
                      gap={12}
                      style={{ paddingBlock: token.paddingSM }}
                      data-testid="help-article-link"
                    >
                      <QuestionCircleOutlined style={{ color: token.colorPrimary }} aria-hidden />
                      <Flex vertical style={{ flex: 1, minWidth: 0 }}>
                        <Text strong ellipsis>
                          {a.title}
                        </Text>
                        {a.summary && (
                          <Text type="secondary" ellipsis>
                            {a.summary}
                          </Text>
                        )}
                      </Flex>
                      <RightOutlined style={{ fontSize: 10, color: token.colorTextTertiary }} aria-hidden />
                    </Flex>
                  </AppLink>
                </div>
              ))}
            </Flex>
          </Panel>
        ))}
      </Flex>
    );
  };

  return (
    <Page title={t("nav.help")} width={820}>
      <Flex vertical gap={token.marginLG}>
        <Input
          allowClear
          prefix={<SearchOutlined aria-hidden />}
          placeholder={t("help.search")}
          aria-label={t("help.search")}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          data-testid="help-search"
        />
        {body()}
      </Flex>
    </Page>
  );
}
