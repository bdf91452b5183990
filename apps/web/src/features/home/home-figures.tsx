import { LANGUAGE_INFO, LANGUAGES } from "@northstar/shared/languages";
import { useQuery } from "@tanstack/react-query";
import { Col, Flex, Row, Skeleton, theme } from "antd";
import { useTranslation } from "react-i18next";
import { useLanguage } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { Text } from "../common/typography.tsx";
import { useMarketList } from "../markets/market-data.ts";

/**
 * The platform's headline figures, each read from what the platform really has: the markets in the
 * catalogue, the languages the interface speaks, the deposit methods configured. No leverage figure
 * here: the leverage each contract offers is shown with the product itself. (A count of countries
 * was dropped: it was the phone library's region count, not a figure of the platform's.)
 */
export function HomeFigures() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const lang = useLanguage();
  const trpc = useTRPC();
  const markets = useMarketList({ tab: "all", page: 1, pageSize: 1 });
  const methods = useQuery(trpc.deposit.methods.queryOptions(undefined, { staleTime: 300_000 }));
  const count = new Intl.NumberFormat(LANGUAGE_INFO[lang].bcp47);
  const figures: { key: string; value: number | undefined; label: string }[] = [
    { key: "products", value: markets.data?.total, label: t("content.home.stats.products") },
    { key: "languages", value: LANGUAGES.length, label: t("content.home.stats.languages") },
    { key: "payments", value: methods.data?.count, label: t("content.home.stats.payments") },
  ];

  return (
    <Row gutter={[12, 12]} data-testid="home-figures">
      {figures.map((f) => (
        <Col span={8} md={24} lg={8} key={f.key}>
          <Flex
            vertical
            gap={2}
            style={{
              padding: token.padding,
              borderRadius: token.borderRadiusLG,
              background: token.colorBgContainer,
              border: `1px solid ${token.colorBorderSecondary}`,
              height: "100%",
              // The padding and border inside the full height, or the card overflows the hero.
              boxSizing: "border-box",
            }}
          >
            {f.value === undefined ? (
              <Skeleton.Input active size="small" style={{ width: 64, height: 32 }} />
            ) : (
              <Text
                strong
                style={{ fontSize: 24, color: token.colorPrimary, lineHeight: 1.3 }}
                data-testid={`home-figure-${f.key}`}
              >
                {count.format(f.value)}
              </Text>
            )}
            <Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
              {f.label}
            </Text>
          </Flex>
        </Col>
      ))}
    </Row>
  );
}
