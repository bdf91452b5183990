import type { TOrderSide } from "@northstar/shared/contracts/spot";
import { Drawer } from "antd";
import { useTranslation } from "react-i18next";
import type { MarketRow } from "../markets/market-data.ts";
import { OrderForm, type PickedPrice } from "./order-form.tsx";
import type { SpotTerms } from "./spot-data.ts";

/** The phone's order form: a bottom sheet opened by the Buy or Sell bar (or a price picked in the book). */
export function OrderSheet({
  instrument,
  terms,
  picked,
  side,
  onClose,
}: {
  instrument: MarketRow;
  terms: SpotTerms;
  picked: PickedPrice | null;
  side: TOrderSide;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Drawer
      placement="bottom"
      open
      onClose={onClose}
      title={`${t("spot.form.title")} · ${instrument.base}/${instrument.quote}`}
      size="auto"
      styles={{ body: { padding: 8 }, wrapper: { maxHeight: "92vh" } }}
      className="ns-order-sheet"
      data-testid="order-sheet"
    >
      <OrderForm key={side} instrument={instrument} terms={terms} picked={picked} initialSide={side} />
    </Drawer>
  );
}
