import { Button, Card, Flex, Segmented } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useIsLoggedIn } from "../../lib/session.ts";
import { ConfirmModal } from "../common/confirm-summary-dialog.tsx";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import { ContractPositionCard } from "./contract-position-card.tsx";
import { type ContractScope, useCloseAllContracts, useContractPositions } from "./contracts-data.ts";

const EMPTY: Record<ContractScope, string> = {
  holding: "contracts.emptyPositions",
  pending: "contracts.emptyPending",
  history: "contracts.emptyHistory",
};

/** Current positions (with one-click close all), pending orders and history, one tab each. */
export function ContractPositionsPanel() {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const [scope, setScope] = useState<ContractScope>("holding");
  const list = useContractPositions(scope);
  const closeAll = useCloseAllContracts();
  const [confirmAll, setConfirmAll] = useState(false);
  if (!loggedIn) {
    return null;
  }
  let body: React.ReactNode;
  if (list.isPending) {
    body = <LoadingState rows={3} />;
  } else if (list.isError) {
    body = <ErrorState onRetry={() => void list.refetch()} />;
  } else if (list.data.items.length === 0) {
    body = <EmptyState>{t(EMPTY[scope])}</EmptyState>;
  } else {
    body = (
      <Flex vertical gap={8}>
        {list.data.items.map((p) => (
          <ContractPositionCard key={p.id} position={p} />
        ))}
      </Flex>
    );
  }
  const holdingCount = scope === "holding" ? (list.data?.items.length ?? 0) : 0;
  return (
    <Card
      size="small"
      data-testid="contract-positions"
      title={
        <Segmented
          value={scope}
          onChange={(v) => setScope(v as ContractScope)}
          options={[
            {
              value: "holding",
              label: <span data-testid="contract-tab-holding">{t("contracts.positions")}</span>,
            },
            {
              value: "pending",
              label: <span data-testid="contract-tab-pending">{t("contracts.pending")}</span>,
            },
            {
              value: "history",
              label: <span data-testid="contract-tab-history">{t("contracts.history")}</span>,
            },
          ]}
        />
      }
      extra={
        holdingCount > 0 && (
          <Button size="small" danger onClick={() => setConfirmAll(true)} data-testid="contract-close-all">
            {t("contracts.closeAll")}
          </Button>
        )
      }
    >
      {body}
      <ConfirmModal
        open={confirmAll}
        title={t("contracts.closeAll")}
        busy={closeAll.isPending}
        okTestId="contract-close-all-confirm"
        onCancel={() => setConfirmAll(false)}
        onOk={() =>
          closeAll.mutate(undefined, {
            onSuccess: () => {
              setConfirmAll(false);
              feedback.success(t("contracts.closed"));
            },
            onError: () => setConfirmAll(false),
          })
        }
      >
        {t("contracts.confirmCloseAll", { count: holdingCount })}
      </ConfirmModal>
    </Card>
  );
}
