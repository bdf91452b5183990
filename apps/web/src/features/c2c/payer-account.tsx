import { useQuery } from "@tanstack/react-query";
import { Button, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { KeyValue } from "../funding/key-value.tsx";

/**
 * The account the user pays from (their own payment settings, /c2c_account), shown beside the
 * payee so the wire comes from an account in their own name; a link to add one when none is saved.
 */
export function PayerAccount() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const go = useAppNavigate();
  const settings = useQuery(trpc.c2c.paymentSettings.queryOptions());
  if (settings.isPending || settings.isError) {
    return null;
  }
  const s = settings.data;
  const channel = s
    ? [
        s.bank_number && `${s.bank_name} ${s.bank_number}`,
        s.alipay_account && `${t("c2c.alipay")} ${s.alipay_account}`,
        s.weixin_account && `${t("c2c.wechat")} ${s.weixin_account}`,
      ].find(Boolean)
    : undefined;
  return (
    <KeyValue label={t("c2c.payFrom")}>
      {s && channel ? (
        <Typography.Text data-testid="c2c-payer">{`${s.name} · ${channel}`}</Typography.Text>
      ) : (
        <Button type="link" size="small" style={{ padding: 0 }} onClick={() => go("/c2c_account")}>
          {t("c2c.addAccount")}
        </Button>
      )}
    </KeyValue>
  );
}
