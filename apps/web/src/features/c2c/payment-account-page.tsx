import { useMutation, useQuery } from "@tanstack/react-query";
import { Button, Divider, Form, Input } from "antd";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";

type Settings = {
  name: string;
  bank_name?: string;
  bank_number?: string;
  alipay_account?: string;
  weixin_nickname?: string;
  weixin_account?: string;
};

/** /c2c_account: the user's own payment settings (SPEC section 3): bank, Alipay and WeChat. */
export function PaymentAccountPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const settings = useQuery(trpc.c2c.paymentSettings.queryOptions());
  const save = useMutation(trpc.c2c.savePaymentSettings.mutationOptions());
  const [form] = Form.useForm<Settings>();
  useEffect(() => {
    if (settings.data) {
      form.setFieldsValue(settings.data);
    }
  }, [settings.data, form]);
  const field = (name: keyof Settings, label: string, max: number) => (
    <Form.Item name={name} label={t(`fields.${label}`)} rules={[{ max }]}>
      <Input autoComplete="off" data-testid={`c2c-account-${name}`} />
    </Form.Item>
  );
  return (
    <Page title={t("c2c.account")}>
      {settings.isPending ? (
        <LoadingState rows={6} />
      ) : settings.isError ? (
        <ErrorState onRetry={() => void settings.refetch()} />
      ) : (
        <Form
          form={form}
          layout="vertical"
          onFinish={(v) =>
            void save
              .mutateAsync(v)
              .then(() => feedback.success(t("c2c.accountSaved")))
              .catch(() => undefined)
          }
        >
          <Form.Item
            name="name"
            label={t("fields.name")}
            rules={[{ required: true, message: t("errors.FIELD_REQUIRED"), max: 80 }]}
          >
            <Input autoComplete="name" data-testid="c2c-account-name" />
          </Form.Item>
          <Divider plain>{t("c2c.bank")}</Divider>
          {field("bank_name", "bankName", 120)}
          {field("bank_number", "bankNumber", 40)}
          <Divider plain>{t("c2c.alipay")}</Divider>
          {field("alipay_account", "alipayAccount", 100)}
          <Divider plain>{t("c2c.wechat")}</Divider>
          {field("weixin_nickname", "weixinNickname", 64)}
          {field("weixin_account", "weixinAccount", 64)}
          <Button
            type="primary"
            htmlType="submit"
            block
            loading={save.isPending}
            data-testid="c2c-account-save"
          >
            {t("common.save")}
          </Button>
        </Form>
      )}
    </Page>
  );
}
