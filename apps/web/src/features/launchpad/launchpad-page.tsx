import { useQuery } from "@tanstack/react-query";
import { Button } from "antd";
import { useTranslation } from "react-i18next";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { Page } from "../common/page.tsx";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import { OfferingCard } from "./offering-card.tsx";

/** /subscription and /subscriptionBuy: the new-coin offerings, each with its subscribe form while open. */
export function LaunchpadPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const go = useAppNavigate();
  const offerings = useQuery(trpc.launchpad.offerings.queryOptions());
  return (
    <Page
      title={t("launchpad.title")}
      width={720}
      extra={
        <Button onClick={() => go("/subscriptionRecord")} data-testid="launchpad-records">
          {t("launchpad.records")}
        </Button>
      }
    >
      {offerings.isPending ? (
        <LoadingState rows={6} />
      ) : offerings.isError ? (
        <ErrorState onRetry={() => void offerings.refetch()} />
      ) : offerings.data.length === 0 ? (
        <EmptyState>{t("launchpad.empty")}</EmptyState>
      ) : (
        offerings.data.map((o) => <OfferingCard key={o.id} offering={o} />)
      )}
    </Page>
  );
}
