import { Button, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { KeyValue } from "../funding/key-value.tsx";
import { BuyForm } from "./buy-form.tsx";
import { C2cGate } from "./c2c-gate.tsx";
import { MerchantList } from "./merchant-list.tsx";
import { useMerchants } from "./use-merchants.ts";

/**
 * /kjmbSelect, quick coin purchase: choose a merchant, then buy from it (`?merchant=<id>` keeps the
 * choice in the address, so back returns to the list).
 */
export function QuickBuyPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const merchants = useMerchants();
  const chosenId = Number(params.get("merchant") ?? 0);
  const chosen = merchants.data?.find((m) => m.id === chosenId);
  return (
    <Page title={t("c2c.quickBuy")} width={640}>
      <C2cGate>
        {merchants.isPending ? (
          <LoadingState rows={6} />
        ) : merchants.isError ? (
          <ErrorState onRetry={() => void merchants.refetch()} />
        ) : chosen ? (
          <>
            <KeyValue label={t("c2c.merchant")}>
              <Typography.Text strong data-testid="c2c-chosen-merchant">
                {chosen.name}
              </Typography.Text>
            </KeyValue>
            <Button type="link" style={{ padding: 0, marginBottom: 8 }} onClick={() => setParams({})}>
              {t("c2c.otherMerchant")}
            </Button>
            <BuyForm key={chosen.id} merchants={merchants.data} merchant={chosen} />
          </>
        ) : (
          <>
            <Typography.Paragraph type="secondary">{t("c2c.chooseMerchant")}</Typography.Paragraph>
            <MerchantList
              merchants={merchants.data}
              onChoose={(m) => setParams({ merchant: String(m.id) })}
            />
          </>
        )}
      </C2cGate>
    </Page>
  );
}
