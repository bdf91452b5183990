import { HistoryOutlined, KeyOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Button, Flex, Result } from "antd";
import { useTranslation } from "react-i18next";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { RealAccountOnly } from "./real-account-only.tsx";
import { WITHDRAW_PAGE_PATH, WithdrawForm } from "./withdraw-form.tsx";
import { TermsPanel } from "./withdrawal-terms-panel.tsx";
import "./funding.css";

/** /authenticationcj: every withdrawal rule first, then the form, a summary to confirm, and the records. */
export function WithdrawPage() {
  const { t } = useTranslation();
  const go = useAppNavigate();
  return (
    <Page
      title={t("nav.withdraw")}
      width={720}
      extra={
        <Button icon={<HistoryOutlined />} onClick={() => go("/tbjl")} data-testid="withdraw-records">
          {t("funding.common.records")}
        </Button>
      }
    >
      <RealAccountOnly>
        <Withdraw />
      </RealAccountOnly>
    </Page>
  );
}

function Withdraw() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const go = useAppNavigate();
  // The window opens and closes with the clock: the terms are read again every minute.
  const terms = useQuery(trpc.withdrawal.terms.queryOptions(undefined, { refetchInterval: 60_000 }));
  if (terms.isPending) {
    return <LoadingState rows={8} />;
  }
  if (terms.isError) {
    return <ErrorState onRetry={() => void terms.refetch()} />;
  }
  return (
    <Flex vertical gap={24}>
      <TermsPanel terms={terms.data} />
      {terms.data.tradePasswordSet ? (
        <WithdrawForm terms={terms.data} />
      ) : (
        <Result
          status="warning"
          icon={<KeyOutlined />}
          title={t("errors.TRADE_PASSWORD_NOT_SET")}
          data-testid="withdraw-trade-password-missing"
          extra={
            <Button
              type="primary"
              onClick={() => go(`/bindmpwd?redirect=${encodeURIComponent(WITHDRAW_PAGE_PATH)}`)}
            >
              {t("funding.withdraw.setTradePassword")}
            </Button>
          }
        />
      )}
    </Flex>
  );
}
