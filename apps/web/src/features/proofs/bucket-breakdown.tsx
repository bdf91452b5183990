import { MoneyDecimal } from "@northstar/shared/money";
import { Flex, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useMoneyFormat } from "../assets/assets-format.ts";

/**
 * What an amount of a proof is made of: one line per bucket that holds something (available,
 * frozen, contract margin, earn principal and accrued yield, option stakes, launchpad, C2C, pending
 * withdrawals), in the proof's bucket order. Nothing for a proof published before the breakdown.
 */
export function BucketBreakdown({
  buckets,
  testId,
}: {
  buckets: { bucket: string; amount: string }[];
  testId: string;
}) {
  const { t } = useTranslation();
  const format = useMoneyFormat();
  const shown = buckets.filter((b) => !new MoneyDecimal(b.amount).isZero());
  if (shown.length === 0) {
    return null;
  }
  return (
    <Flex vertical gap={0} style={{ paddingInlineStart: 12 }} data-testid={testId}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t("proofs.breakdown")}
      </Typography.Text>
      {shown.map((b) => (
        <Flex key={b.bucket} justify="space-between" gap={12} style={{ fontSize: 12 }}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t(`proofs.bucket.${b.bucket}`)}
          </Typography.Text>
          <Typography.Text className="ns-num" style={{ fontSize: 12 }} data-testid={`${testId}-${b.bucket}`}>
            {format.exact(b.amount, 2, 8)}
          </Typography.Text>
        </Flex>
      ))}
    </Flex>
  );
}
