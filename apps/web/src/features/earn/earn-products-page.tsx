import { EARN_FAMILIES } from "@northstar/shared/contracts/earn";
import { riskLevelAllows } from "@northstar/shared/kyc";
import { useQuery } from "@tanstack/react-query";
import { Button, Segmented } from "antd";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { usePolicy } from "../../lib/policy.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useAssets } from "../assets/assets-data.ts";
import { Page } from "../common/page.tsx";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import { FAMILY_ROUTES, familyOfPath } from "./earn-rules.ts";
import { EarnTotals } from "./earn-totals.tsx";
import type { EarnProduct } from "./earn-types.ts";
import { ProductCard } from "./product-card.tsx";

/** /profit_index, /profit_buy, /vip_index, /etflow_buy: the products of one family, each with its buy form. */
export function EarnProductsPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const go = useAppNavigate();
  const family = familyOfPath(useLocation().pathname);
  const products = useQuery(trpc.earn.products.queryOptions({ family }));
  const assets = useAssets();
  // The user's risk level against each product's, checked here as the server checks it at purchase.
  const risk = useQuery(trpc.kyc.risk.queryOptions());
  const policy = usePolicy();
  const riskOf = (required: EarnProduct["riskLevel"]) =>
    risk.data
      ? {
          own: risk.data.level,
          allowed: riskLevelAllows(risk.data.level, required, policy["kyc.risk.unassessedMayBuy"]),
        }
      : undefined;
  const availableOf = (currency: string) =>
    assets.data?.rows.find((r) => r.wallet === "exchange" && r.currency === currency)?.available ?? "0";

  return (
    <Page
      title={t(`earn.families.${family}`)}
      width={720}
      extra={
        <Button onClick={() => go("/profit_wdtg")} data-testid="earn-my-orders">
          {t("earn.myOrders")}
        </Button>
      }
    >
      <EarnTotals />
      <Segmented
        block
        value={family}
        onChange={(f) => go(FAMILY_ROUTES[f as keyof typeof FAMILY_ROUTES])}
        options={EARN_FAMILIES.map((f) => ({ value: f, label: t(`earn.families.${f}`) }))}
        style={{ marginBottom: 16 }}
        data-testid="earn-families"
      />
      {products.isPending ? (
        <LoadingState rows={6} />
      ) : products.isError ? (
        <ErrorState onRetry={() => void products.refetch()} />
      ) : products.data.length === 0 ? (
        <EmptyState>{t("earn.noProducts")}</EmptyState>
      ) : (
        <div data-testid="earn-products">
          {products.data.map((p) => (
            <ProductCard
              key={p.id}
              product={p}
              available={availableOf(p.currency)}
              risk={riskOf(p.riskLevel)}
            />
          ))}
        </div>
      )}
    </Page>
  );
}
