import { Alert } from "antd";
import { useTranslation } from "react-i18next";
import { useFormatDateTime } from "../funding/use-format-date-time.ts";
import type { ContractProduct } from "./contracts-data.ts";

/** A delivery contract's expiry and how it settles, under the instrument header (phone and desktop). */
export function DeliveryExpiryNote({ product }: { product: ContractProduct }) {
  const { t } = useTranslation();
  const formatDateTime = useFormatDateTime();
  if (product.type !== "delivery" || !product.expires_at) {
    return null;
  }
  return (
    <Alert
      type="info"
      showIcon
      title={t("contracts.deliveryNote", { time: formatDateTime(product.expires_at) })}
      data-testid="contract-expiry"
      data-expires-at={product.expires_at}
    />
  );
}
