import { BankOutlined, HistoryOutlined, WalletOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Button, Result, Tabs } from "antd";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { usePolicy } from "../../lib/policy.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { Page } from "../common/page.tsx";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import { CryptoDepositForm } from "./crypto-deposit-form.tsx";
import { RealAccountOnly } from "./real-account-only.tsx";
import "./funding.css";

type Tab = "crypto" | "bank";

/** /authenticationrj: deposit by crypto (address, QR code, report the transfer) or by bank card. */
export function DepositPage() {
  const { t } = useTranslation();
  const go = useAppNavigate();
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get("tab") === "bank" ? "bank" : "crypto";
  return (
    <Page
      title={t("nav.deposit")}
      width={720}
      extra={
        <Button
          icon={<HistoryOutlined />}
          onClick={() => go("/rechargeRecord")}
          data-testid="deposit-records"
        >
          {t("funding.common.records")}
        </Button>
      }
    >
      <RealAccountOnly>
        <Tabs
          activeKey={tab}
          onChange={(key) => setParams(key === "bank" ? { tab: "bank" } : {}, { replace: true })}
          items={[
            {
              key: "crypto",
              icon: <WalletOutlined />,
              label: <span data-testid="deposit-tab-crypto">{t("funding.deposit.tabCrypto")}</span>,
              children: <CryptoDeposit />,
            },
            {
              key: "bank",
              icon: <BankOutlined />,
              label: <span data-testid="deposit-tab-bank">{t("funding.deposit.tabBank")}</span>,
              children: <BankDeposit />,
            },
          ]}
        />
      </RealAccountOnly>
    </Page>
  );
}

/** Bank deposits: closed while policy keeps the channel closed (the server refuses the same way). */
function BankDeposit() {
  const { t } = useTranslation();
  const go = useAppNavigate();
  const policy = usePolicy();
  if (!policy["funding.deposit.channels"].bank) {
    return (
      <Result status="info" title={t("errors.RECHARGE_CHANNEL_CLOSED")} data-testid="deposit-bank-closed" />
    );
  }
  return (
    <Result
      status="info"
      title={t("funding.deposit.bankTitle")}
      subTitle={t("funding.deposit.bankContact")}
      extra={
        <Button type="primary" onClick={() => go("/service")}>
          {t("nav.service")}
        </Button>
      }
    />
  );
}

function CryptoDeposit() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const options = useQuery(trpc.deposit.options.queryOptions());
  if (options.isPending) {
    return <LoadingState rows={6} />;
  }
  if (options.isError) {
    return <ErrorState onRetry={() => void options.refetch()} />;
  }
  if (!options.data.channels.crypto) {
    return <Result status="info" title={t("errors.RECHARGE_CHANNEL_CLOSED")} />;
  }
  if (options.data.addresses.length === 0) {
    return (
      <div data-testid="deposit-empty">
        <EmptyState>{t("funding.deposit.noAddress")}</EmptyState>
      </div>
    );
  }
  return <CryptoDepositForm addresses={options.data.addresses} />;
}
