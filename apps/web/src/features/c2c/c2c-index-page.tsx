import { Button, Divider, Flex } from "antd";
import { useTranslation } from "react-i18next";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { Page } from "../common/page.tsx";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import { BuyForm } from "./buy-form.tsx";
import { C2cGate } from "./c2c-gate.tsx";
import { MerchantList } from "./merchant-list.tsx";
import { useMerchants } from "./use-merchants.ts";

/**
 * /c2c_index and /c2c_create: buy coins by bank wire at the best price, or from a merchant of the
 * list; links to my orders, my payment accounts and the rules.
 */
export function C2cIndexPage() {
  const { t } = useTranslation();
  const go = useAppNavigate();
  const merchants = useMerchants();
  return (
    <Page
      title={t("c2c.title")}
      width={640}
      extra={
        <Flex gap={8} wrap>
          <Button onClick={() => go("/c2c_order")} data-testid="c2c-my-orders">
            {t("c2c.myOrders")}
          </Button>
        </Flex>
      }
    >
      <C2cGate>
        {merchants.isPending ? (
          <LoadingState rows={6} />
        ) : merchants.isError ? (
          <ErrorState onRetry={() => void merchants.refetch()} />
        ) : merchants.data.length === 0 ? (
          <EmptyState>{t("c2c.noMerchants")}</EmptyState>
        ) : (
          <>
            <BuyForm merchants={merchants.data} />
            <Divider plain>{t("c2c.orChoose")}</Divider>
            <MerchantList merchants={merchants.data} onChoose={(m) => go(`/kjmbSelect?merchant=${m.id}`)} />
          </>
        )}
        <Flex gap={8} wrap justify="center" style={{ marginTop: 16 }}>
          <Button type="link" onClick={() => go("/c2c_account")} data-testid="c2c-account-link">
            {t("c2c.account")}
          </Button>
          <Button type="link" onClick={() => go("/c2c_rule")} data-testid="c2c-rules-link">
            {t("c2c.rules")}
          </Button>
        </Flex>
      </C2cGate>
    </Page>
  );
}
