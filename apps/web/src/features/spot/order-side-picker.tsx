import type { TOrderSide } from "@northstar/shared/contracts/spot";
import { Button, Flex } from "antd";
import { useTranslation } from "react-i18next";

/** Buy or sell, as two radio buttons in the side's colour. */
export function SidePicker({ side, onChange }: { side: TOrderSide; onChange: (side: TOrderSide) => void }) {
  const { t } = useTranslation();
  return (
    <Flex gap={8} style={{ marginBottom: 8 }} role="radiogroup" aria-label={t("spot.orders.side")}>
      {(["buy", "sell"] as const).map((s) => (
        <Button
          key={s}
          block
          role="radio"
          aria-checked={side === s}
          color={s === "buy" ? "green" : "danger"}
          variant={side === s ? "solid" : "filled"}
          onClick={() => side !== s && onChange(s)}
          data-testid={`order-side-${s}`}
          style={{ fontWeight: 600 }}
        >
          {t(`spot.form.${s}`)}
        </Button>
      ))}
    </Flex>
  );
}
