import { BankOutlined, DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Flex, Popconfirm, Typography, theme } from "antd";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { Page } from "../common/page.tsx";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import { maskCard } from "./amount-text.ts";
import type { BankCard } from "./funding-types.ts";
import { KeyValue } from "./key-value.tsx";
import "./funding.css";

/** /bank: the user's bank cards for withdrawals by wire, card numbers masked. */
export function BankCardListPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const go = useAppNavigate();
  const cards = useQuery(trpc.bankCard.getMany.queryOptions());
  const add = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => go("/bankAdd")} data-testid="bank-add">
      {t("funding.bank.add")}
    </Button>
  );
  return (
    <Page title={t("nav.bank")} width={720} extra={cards.data?.length ? add : undefined}>
      {cards.isPending ? (
        <LoadingState rows={5} />
      ) : cards.isError ? (
        <ErrorState onRetry={() => void cards.refetch()} />
      ) : cards.data.length === 0 ? (
        <Flex vertical align="center" gap={8} data-testid="bank-empty">
          <EmptyState>{t("funding.bank.empty")}</EmptyState>
          {add}
        </Flex>
      ) : (
        <div data-testid="bank-list">
          {cards.data.map((card) => (
            <BankCardRow key={card.id} card={card} />
          ))}
        </div>
      )}
    </Page>
  );
}

function BankCardRow({ card }: { card: BankCard }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(trpc.bankCard.delete.mutationOptions());

  const doDelete = () =>
    remove
      .mutateAsync({ id: card.id })
      .then(() => feedback.success(t("funding.common.deleted")))
      .catch(() => undefined)
      .finally(() => void queryClient.invalidateQueries({ queryKey: trpc.bankCard.getMany.queryKey() }));

  return (
    <Flex
      gap={12}
      align="flex-start"
      className="ns-record"
      style={{ paddingBlock: 14 }}
      data-testid="bank-row"
    >
      <Flex
        align="center"
        justify="center"
        aria-hidden
        style={{
          width: 40,
          height: 40,
          flex: "none",
          borderRadius: token.borderRadiusLG,
          background: token.colorPrimaryBg,
          color: token.colorPrimary,
          fontSize: 20,
        }}
      >
        <BankOutlined />
      </Flex>
      <Flex vertical gap={4} style={{ flex: 1, minWidth: 0 }}>
        <Flex justify="space-between" align="flex-start" gap={8}>
          <Typography.Text strong style={{ minWidth: 0 }}>
            {card.bankName}
          </Typography.Text>
          <Popconfirm
            title={t("funding.bank.deleteTitle")}
            okText={t("funding.common.delete")}
            cancelText={t("common.cancel")}
            okButtonProps={{ danger: true, "data-testid": "bank-delete-confirm" }}
            onConfirm={doDelete}
          >
            <Button
              size="small"
              type="text"
              danger
              icon={<DeleteOutlined />}
              loading={remove.isPending}
              aria-label={t("funding.common.delete")}
              data-testid="bank-delete"
            />
          </Popconfirm>
        </Flex>
        <Typography.Text
          className="ns-num"
          style={{ fontSize: token.fontSizeLG }}
          data-testid="bank-card-number"
        >
          {maskCard(card.cardId)}
        </Typography.Text>
        <KeyValue label={t("fields.payeeName")}>
          <Typography.Text>{card.payeeName}</Typography.Text>
        </KeyValue>
        <KeyValue label={t("funding.bank.account")}>
          <Typography.Text className="ns-num">{maskCard(card.account)}</Typography.Text>
        </KeyValue>
        {card.swiftCode && (
          <KeyValue label={t("fields.swiftCode")}>
            <Typography.Text>{card.swiftCode}</Typography.Text>
          </KeyValue>
        )}
      </Flex>
    </Flex>
  );
}
