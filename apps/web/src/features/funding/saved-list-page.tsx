import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import type { UseQueryResult } from "@tanstack/react-query";
import { Button, Flex, Popconfirm } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { Page } from "../common/page.tsx";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import "./funding.css";

/**
 * A list of what the user saved for withdrawals (addresses, bank cards), with the way to add one;
 * when there is none, the empty state carries the add button instead of the header.
 */
export function SavedListPage<Item extends { id: number }>({
  title,
  addLabel,
  addPath,
  emptyText,
  testPrefix,
  items,
  renderItem,
}: {
  title: string;
  addLabel: string;
  addPath: string;
  emptyText: string;
  /** `address` gives address-add, address-empty and address-list. */
  testPrefix: string;
  items: UseQueryResult<Item[], unknown>;
  renderItem: (item: Item) => ReactNode;
}) {
  const go = useAppNavigate();
  const add = (
    <Button
      type="primary"
      icon={<PlusOutlined />}
      onClick={() => go(addPath)}
      data-testid={`${testPrefix}-add`}
    >
      {addLabel}
    </Button>
  );
  return (
    <Page title={title} width={720} extra={items.data?.length ? add : undefined}>
      {items.isPending ? (
        <LoadingState rows={5} />
      ) : items.isError ? (
        <ErrorState onRetry={() => void items.refetch()} />
      ) : items.data.length === 0 ? (
        <Flex vertical align="center" gap={8} data-testid={`${testPrefix}-empty`}>
          <EmptyState>{emptyText}</EmptyState>
          {add}
        </Flex>
      ) : (
        <div data-testid={`${testPrefix}-list`}>{items.data.map((item) => renderItem(item))}</div>
      )}
    </Page>
  );
}

/**
 * Delete, after a confirmation. A refusal is shown by the client rules; the list is read again
 * either way, so it shows what the server holds.
 */
export function DeleteItemButton({
  title,
  testPrefix,
  busy,
  onDelete,
  onSettled,
}: {
  title: string;
  testPrefix: string;
  busy: boolean;
  onDelete: () => Promise<unknown>;
  onSettled: () => void;
}) {
  const { t } = useTranslation();
  const doDelete = () =>
    onDelete()
      .then(() => feedback.success(t("funding.common.deleted")))
      .catch(() => undefined)
      .finally(onSettled);
  return (
    <Popconfirm
      title={title}
      okText={t("funding.common.delete")}
      cancelText={t("common.cancel")}
      okButtonProps={{ danger: true, "data-testid": `${testPrefix}-delete-confirm` }}
      onConfirm={doDelete}
    >
      <Button
        size="small"
        type="text"
        danger
        icon={<DeleteOutlined />}
        loading={busy}
        aria-label={t("funding.common.delete")}
        data-testid={`${testPrefix}-delete`}
      />
    </Popconfirm>
  );
}
