import { BankOutlined } from "@ant-design/icons";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Flex, Typography, theme } from "antd";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import { maskCard } from "./amount-text.ts";
import type { BankCard } from "./funding-types.ts";
import { KeyValue } from "./key-value.tsx";
import { DeleteItemButton, SavedListPage } from "./saved-list-page.tsx";
import "./funding.css";

/** /bank: the user's bank cards for withdrawals by wire, card numbers masked. */
export function BankCardListPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const cards = useQuery(trpc.bankCard.getMany.queryOptions());
  return (
    <SavedListPage
      title={t("nav.bank")}
      addLabel={t("funding.bank.add")}
      addPath="/bankAdd"
      emptyText={t("funding.bank.empty")}
      testPrefix="bank"
      items={cards}
      renderItem={(card) => <BankCardRow key={card.id} card={card} />}
    />
  );
}

function BankCardRow({ card }: { card: BankCard }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(trpc.bankCard.delete.mutationOptions());

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
          <DeleteItemButton
            title={t("funding.bank.deleteTitle")}
            testPrefix="bank"
            busy={remove.isPending}
            onDelete={() => remove.mutateAsync({ id: card.id })}
            onSettled={() =>
              void queryClient.invalidateQueries({ queryKey: trpc.bankCard.getMany.queryKey() })
            }
          />
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
