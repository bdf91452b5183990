import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Flex, Tag, Typography, theme } from "antd";
import { useTranslation } from "react-i18next";
import { usePolicy } from "../../lib/policy.ts";
import { useTRPC } from "../../lib/trpc.ts";
import type { WithdrawalAddress } from "./funding-types.ts";
import { KeyValue } from "./key-value.tsx";
import { DeleteItemButton, SavedListPage } from "./saved-list-page.tsx";
import "./funding.css";

/** /address: the user's saved withdrawal addresses (/wallet lists the wallets that sign in). */
export function AddressListPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const addresses = useQuery(trpc.withdrawalAddress.getMany.queryOptions());
  return (
    <SavedListPage
      title={t("nav.addresses")}
      addLabel={t("funding.address.add")}
      addPath="/walletAdd"
      emptyText={t("funding.address.empty")}
      testPrefix="address"
      items={addresses}
      renderItem={(a) => <AddressRow key={a.id} address={a} />}
    />
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
        <DeleteItemButton
          title={t("funding.address.deleteTitle")}
          testPrefix="address"
          busy={remove.isPending}
          onDelete={() => remove.mutateAsync({ id: address.id })}
          onSettled={() =>
            void queryClient.invalidateQueries({ queryKey: trpc.withdrawalAddress.getMany.queryKey() })
          }
        />
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
