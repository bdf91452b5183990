import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Flex, Popconfirm, Tag, Typography, theme } from "antd";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { usePolicy } from "../../lib/policy.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { Page } from "../common/page.tsx";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import type { WithdrawalAddress } from "./funding-types.ts";
import { KeyValue } from "./key-value.tsx";
import "./funding.css";

/** /address and /wallet: the user's saved withdrawal addresses. */
export function AddressListPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const go = useAppNavigate();
  const addresses = useQuery(trpc.withdrawalAddress.getMany.queryOptions());
  const add = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => go("/walletAdd")} data-testid="address-add">
      {t("funding.address.add")}
    </Button>
  );
  return (
    <Page title={t("nav.addresses")} width={720} extra={addresses.data?.length ? add : undefined}>
      {addresses.isPending ? (
        <LoadingState rows={5} />
      ) : addresses.isError ? (
        <ErrorState onRetry={() => void addresses.refetch()} />
      ) : addresses.data.length === 0 ? (
        <Flex vertical align="center" gap={8} data-testid="address-empty">
          <EmptyState>{t("funding.address.empty")}</EmptyState>
          {add}
        </Flex>
      ) : (
        <div data-testid="address-list">
          {addresses.data.map((a) => (
            <AddressRow key={a.id} address={a} />
          ))}
        </div>
      )}
    </Page>
  );
}

function AddressRow({ address }: { address: WithdrawalAddress }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const policy = usePolicy();
  const remove = useMutation(trpc.withdrawalAddress.delete.mutationOptions());
  const usable = (policy["funding.withdraw.chains"][address.currency] ?? []).includes(address.chain);

  const doDelete = () =>
    remove
      .mutateAsync({ id: address.id })
      .then(() => feedback.success(t("funding.common.deleted")))
      .catch(() => undefined)
      .finally(
        () => void queryClient.invalidateQueries({ queryKey: trpc.withdrawalAddress.getMany.queryKey() }),
      );

  return (
    <Flex vertical gap={6} className="ns-record" style={{ paddingBlock: 14 }} data-testid="address-row">
      <Flex justify="space-between" align="flex-start" gap={12}>
        <Flex align="center" gap={6} wrap style={{ minWidth: 0 }}>
          <Typography.Text strong>{address.currency}</Typography.Text>
          <Tag style={{ marginInlineEnd: 0 }}>{address.chain}</Tag>
          {address.remark && <Typography.Text type="secondary">{address.remark}</Typography.Text>}
          {!usable && (
            <Tag color="warning" style={{ marginInlineEnd: 0 }}>
              {t("funding.address.notUsable")}
            </Tag>
          )}
        </Flex>
        <Popconfirm
          title={t("funding.address.deleteTitle")}
          okText={t("funding.common.delete")}
          cancelText={t("common.cancel")}
          okButtonProps={{ danger: true, "data-testid": "address-delete-confirm" }}
          onConfirm={doDelete}
        >
          <Button
            size="small"
            type="text"
            danger
            icon={<DeleteOutlined />}
            loading={remove.isPending}
            aria-label={t("funding.common.delete")}
            data-testid="address-delete"
          />
        </Popconfirm>
      </Flex>
      <Typography.Text
        className="ns-break"
        copyable={{ text: address.address, tooltips: [t("common.copy"), t("common.copied")] }}
        style={{ fontFamily: token.fontFamilyCode }}
        data-testid="address-value"
      >
        {address.address}
      </Typography.Text>
      {address.memo && (
        <KeyValue label={t("fields.memo")}>
          <Typography.Text className="ns-break">{address.memo}</Typography.Text>
        </KeyValue>
      )}
    </Flex>
  );
}
