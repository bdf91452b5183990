import { Tabs } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { useAssets, useCurrencies } from "./assets-data.ts";
import { ConvertForm } from "./convert-form.tsx";
import { TransferForm } from "./transfer-form.tsx";

/**
 * /transfer: moving funds between the user's own accounts, and converting one currency into another
 * in the exchange account. `?tab=convert` opens the second; `?from=`, `?to=` and `?currency=` preset
 * the fields (the asset rows link here).
 */
export function TransferPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const assets = useAssets();
  const currencies = useCurrencies();
  const tab = params.get("tab") === "convert" ? "convert" : "transfer";

  let body: (kind: "transfer" | "convert") => ReactNode;
  if (assets.isPending || currencies.isPending) {
    body = () => <LoadingState rows={6} />;
  } else if (assets.isError || currencies.isError) {
    body = () => (
      <ErrorState
        onRetry={() => {
          void assets.refetch();
          void currencies.refetch();
        }}
      />
    );
  } else {
    body = (kind) =>
      kind === "transfer" ? (
        <TransferForm assets={assets.data} currencies={currencies.data} />
      ) : (
        <ConvertForm assets={assets.data} currencies={currencies.data} />
      );
  }

  return (
    <Page title={t("nav.transfer")} width={560}>
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === "convert" ? { tab: "convert" } : {}, { replace: true })}
        style={{ marginTop: -12 }}
        items={[
          {
            key: "transfer",
            label: <span data-testid="transfer-tab-transfer">{t("nav.transfer")}</span>,
            children: body("transfer"),
          },
          {
            key: "convert",
            label: <span data-testid="transfer-tab-convert">{t("assets.convert.tab")}</span>,
            children: body("convert"),
          },
        ]}
      />
    </Page>
  );
}
