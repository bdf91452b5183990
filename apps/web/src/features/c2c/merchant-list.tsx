import { Button, Card, Flex, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useMoneyFormat } from "../assets/assets-format.ts";
import { EmptyState } from "../common/page-states.tsx";
import { SetByPlatform } from "../common/set-by-platform.tsx";
import { KeyValue } from "../funding/key-value.tsx";
import type { C2cMerchant } from "./c2c-types.ts";

/** Merchants selling coins: price, range per order and free stock; choosing one opens its purchase form. */
export function MerchantList({
  merchants,
  onChoose,
}: {
  merchants: C2cMerchant[];
  onChoose: (m: C2cMerchant) => void;
}) {
  const { t } = useTranslation();
  const format = useMoneyFormat();
  if (merchants.length === 0) {
    return <EmptyState>{t("c2c.noMerchants")}</EmptyState>;
  }
  return (
    <Flex vertical gap={8}>
      {merchants.map((m) => (
        <Card key={m.id} size="small" data-testid="c2c-merchant" data-merchant={m.name}>
          <Flex justify="space-between" align="center" gap={8} wrap>
            <Typography.Text strong>{m.name}</Typography.Text>
            <Button type="primary" size="small" onClick={() => onChoose(m)} data-testid="c2c-merchant-choose">
              {t("c2c.buyFrom", { coin: m.coin })}
            </Button>
          </Flex>
          <KeyValue label={t("c2c.price")}>
            {`1 ${m.coin} = ${format.exact(m.price, 2, 8)} ${m.fiat}`}
            <SetByPlatform />
          </KeyValue>
          <KeyValue label={t("c2c.limits")}>
            {`${format.exact(m.minFiat, 0, 2)} – ${format.exact(m.maxFiat, 0, 2)} ${m.fiat}`}
          </KeyValue>
          <KeyValue label={t("c2c.stock")}>{`${format.exact(m.stock, 0, 8)} ${m.coin}`}</KeyValue>
        </Card>
      ))}
    </Flex>
  );
}
