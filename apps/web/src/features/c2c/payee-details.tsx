import { Typography } from "antd";
import { useTranslation } from "react-i18next";
import { KeyValue } from "../funding/key-value.tsx";
import type { C2cOrder } from "./c2c-types.ts";

/** Who to wire to: the merchant's payee name, bank, account and branch, each copyable. */
export function PayeeDetails({ payee }: { payee: NonNullable<C2cOrder["payee"]> }) {
  const { t } = useTranslation();
  const copyable = (value: string, testId: string) => (
    <Typography.Text copyable data-testid={testId}>
      {value}
    </Typography.Text>
  );
  return (
    <div data-testid="c2c-payee">
      <KeyValue label={t("fields.payeeName")}>{copyable(payee.payeeName, "c2c-payee-name")}</KeyValue>
      <KeyValue label={t("fields.bankName")}>{copyable(payee.bankName, "c2c-payee-bank")}</KeyValue>
      <KeyValue label={t("fields.bankAccount")}>{copyable(payee.bankAccount, "c2c-payee-account")}</KeyValue>
      {payee.bankBranch && <KeyValue label={t("fields.bankBranch")}>{payee.bankBranch}</KeyValue>}
    </div>
  );
}
