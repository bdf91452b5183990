import { Flex, Pagination } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Page } from "../common/page.tsx";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import { OptionOrderCard } from "./option-order-card.tsx";
import { RECORD_PAGE_SIZE, useOptionOrders } from "./options-data.ts";

/** /optionsRecord: the delivery record, settled options newest first, with their prices and profit. */
export function OptionsRecordPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const history = useOptionOrders("history", page);
  let body: React.ReactNode;
  if (history.isPending) {
    body = <LoadingState rows={6} />;
  } else if (history.isError) {
    body = <ErrorState onRetry={() => void history.refetch()} />;
  } else if (history.data.items.length === 0) {
    body = <EmptyState>{t("options.emptyRecord")}</EmptyState>;
  } else {
    body = (
      <Flex vertical gap={8} data-testid="option-record">
        {history.data.items.map((order) => (
          <OptionOrderCard key={order.id} order={order} />
        ))}
        {history.data.total > RECORD_PAGE_SIZE && (
          <Pagination
            align="center"
            current={page}
            pageSize={RECORD_PAGE_SIZE}
            total={history.data.total}
            onChange={setPage}
            showSizeChanger={false}
          />
        )}
      </Flex>
    );
  }
  return (
    <Page title={t("options.record")} width={860}>
      {body}
    </Page>
  );
}
