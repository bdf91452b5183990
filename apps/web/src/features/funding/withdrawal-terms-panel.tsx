import { CheckCircleFilled, ClockCircleOutlined } from "@ant-design/icons";
import { LANGUAGE_INFO } from "@northstar/shared/languages";
import { MoneyDecimal, money } from "@northstar/shared/money";
import { describeZoneNow } from "@northstar/shared/zoned-clock";
import { Flex, Progress, Space, Tag, Typography, theme } from "antd";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../lib/navigation.tsx";
import { useLanguage } from "../../lib/session.ts";
import { useMoneyFormat } from "../assets/assets-format.ts";
import { percentOf } from "./amount-text.ts";
import type { WithdrawalTerms } from "./funding-types.ts";
import { KeyValue } from "./key-value.tsx";
import "./funding.css";

/** The zone's name and time now in the interface language ("Hong Kong Time", "香港时间"). */
function useZoneClock(timeZone: string): { zone: string; now: string } {
  const lang = useLanguage();
  return useMemo(() => {
    const { zone, time } = describeZoneNow(new Date(), timeZone, LANGUAGE_INFO[lang].bcp47);
    return { zone, now: time };
  }, [lang, timeZone]);
}

const pad = (hour: number) => String(hour).padStart(2, "0");

/** Every rule that limits a withdrawal, with the same policy values the server checks. */
export function TermsPanel({ terms }: { terms: WithdrawalTerms }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const format = useMoneyFormat();
  const clock = useZoneClock(terms.window.timeZone);
  const required = money(terms.turnover.required);
  const done = money(terms.turnover.done);
  const turnoverPercent = required.isZero()
    ? 100
    : Math.min(100, done.div(required).times(100).toDecimalPlaces(1, MoneyDecimal.ROUND_DOWN).toNumber());
  const limitReached = terms.usedToday >= terms.perDay;

  return (
    <section
      data-testid="withdraw-terms"
      style={{
        padding: token.padding,
        borderRadius: token.borderRadiusLG,
        background: token.colorFillQuaternary,
      }}
    >
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t("funding.withdraw.termsTitle")}
      </Typography.Title>
      <Flex vertical gap={10}>
        <KeyValue label={t("funding.withdraw.today")}>
          <Space size={6} wrap style={{ justifyContent: "flex-end" }}>
            <Typography.Text strong className="ns-num" data-testid="withdraw-today">
              {t("funding.withdraw.todayValue", { used: terms.usedToday, perDay: terms.perDay })}
            </Typography.Text>
            {limitReached && <Tag color="warning">{t("funding.withdraw.limitReached")}</Tag>}
          </Space>
        </KeyValue>
        <KeyValue label={t("funding.withdraw.limits")}>
          <Typography.Text strong className="ns-num" data-testid="withdraw-limits">
            {t("funding.withdraw.limitsValue", {
              min: format.grouped(terms.minUsdt),
              max: format.grouped(terms.maxUsdt),
            })}
          </Typography.Text>
        </KeyValue>
        <KeyValue label={t("funding.withdraw.window")}>
          <Flex vertical align="flex-end" gap={2}>
            <Space size={6} wrap style={{ justifyContent: "flex-end" }}>
              <Typography.Text strong data-testid="withdraw-window">
                {t("funding.withdraw.windowValue", {
                  start: pad(terms.window.start),
                  end: pad(terms.window.end),
                  zone: clock.zone,
                })}
              </Typography.Text>
              <Tag
                color={terms.windowOpen ? "success" : "default"}
                icon={<ClockCircleOutlined />}
                data-testid="withdraw-window-state"
              >
                {terms.windowOpen ? t("funding.withdraw.openNow") : t("funding.withdraw.closedNow")}
              </Tag>
            </Space>
            {clock.now && (
              <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
                {t("funding.withdraw.zoneNow", { time: clock.now })}
              </Typography.Text>
            )}
          </Flex>
        </KeyValue>
        <KeyValue label={t("funding.withdraw.chains")}>
          <Flex vertical align="flex-end" gap={2} data-testid="withdraw-chains">
            {Object.entries(terms.chains).map(([currency, chains]) => (
              <Typography.Text strong key={currency}>
                {t("funding.withdraw.chainsValue", { currency, chains: chains.join(", ") })}
              </Typography.Text>
            ))}
          </Flex>
        </KeyValue>
        <KeyValue label={t("funding.withdraw.feeRate")}>
          <Typography.Text strong className="ns-num" data-testid="withdraw-fee-rate">
            {t("funding.withdraw.feeRateValue", { rate: percentOf(terms.feeRate) })}
          </Typography.Text>
        </KeyValue>
        <div data-testid="withdraw-turnover">
          <KeyValue label={t("funding.withdraw.turnover")}>
            {terms.turnover.met ? (
              <Tag color="success" icon={<CheckCircleFilled />} style={{ marginInlineEnd: 0 }}>
                {t("funding.withdraw.turnoverMet")}
              </Tag>
            ) : (
              <Tag color="warning" style={{ marginInlineEnd: 0 }}>
                {t("funding.withdraw.turnoverNotMet")}
              </Tag>
            )}
          </KeyValue>
          <Progress
            percent={turnoverPercent}
            status={terms.turnover.met ? "success" : "active"}
            size="small"
            format={(p) => `${p}%`}
            aria-label={t("funding.withdraw.turnover")}
          />
          <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
            {t("funding.withdraw.turnoverValue", {
              done: format.grouped(terms.turnover.done),
              required: format.grouped(terms.turnover.required),
              ratio: percentOf(terms.turnover.ratio),
            })}
          </Typography.Text>
        </div>
        <KeyValue label={t("fields.tradePassword")}>
          {terms.tradePasswordSet ? (
            <Tag color="success" style={{ marginInlineEnd: 0 }}>
              {t("account.security.statusSet")}
            </Tag>
          ) : (
            <Tag color="warning" style={{ marginInlineEnd: 0 }}>
              {t("common.notSet")}
            </Tag>
          )}
        </KeyValue>
        <KeyValue label={t("nav.googleCode")}>
          <Space size={6} wrap style={{ justifyContent: "flex-end" }}>
            {terms.googleBound ? (
              <Tag color="success" style={{ marginInlineEnd: 0 }} data-testid="withdraw-google-state">
                {t("common.bound")}
              </Tag>
            ) : (
              <>
                <Tag style={{ marginInlineEnd: 0 }} data-testid="withdraw-google-state">
                  {t("common.notBound")}
                </Tag>
                <AppLink to="/googleCode">{t("common.bind")}</AppLink>
              </>
            )}
          </Space>
        </KeyValue>
      </Flex>
    </section>
  );
}
