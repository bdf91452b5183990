import { Form, Input, Modal } from "antd";
import { useTranslation } from "react-i18next";
import type { C2cAdminMerchant } from "../c2c/c2c-types.ts";

const DECIMAL = /^\d+(\.\d+)?$/;
export type MerchantValues = Record<string, string>;

/** Create or edit a merchant: name, coin and fiat, price, range per order, the payee's bank details. */
export function C2cMerchantForm({
  open,
  merchant,
  busy,
  onSave,
  onClose,
}: {
  open: boolean;
  merchant?: C2cAdminMerchant;
  busy: boolean;
  onSave: (values: MerchantValues) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<MerchantValues>();
  const initial = merchant
    ? {
        name: merchant.name,
        coin: merchant.coin,
        fiat: merchant.fiat,
        price: merchant.price,
        min_fiat: merchant.minFiat,
        max_fiat: merchant.maxFiat,
        payee_name: merchant.payeeName,
        bank_name: merchant.bankName,
        bank_account: merchant.bankAccount,
        bank_branch: merchant.bankBranch,
        note: merchant.note,
      }
    : { coin: "USDT", fiat: "CNY" };
  const text = (name: string, label: string, required = true, max = 120) => (
    <Form.Item name={name} label={label} rules={[{ required, max }]}>
      <Input data-testid={`c2c-merchant-${name}`} />
    </Form.Item>
  );
  const decimal = (name: string, label: string) => (
    <Form.Item name={name} label={label} rules={[{ required: true, pattern: DECIMAL }]}>
      <Input inputMode="decimal" data-testid={`c2c-merchant-${name}`} />
    </Form.Item>
  );
  return (
    <Modal
      open={open}
      title={merchant ? t("c2c.admin.editMerchant") : t("c2c.admin.createMerchant")}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={busy}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={initial} onFinish={onSave} preserve={false}>
        {text("name", t("fields.name"), true, 80)}
        <Form.Item
          name="coin"
          label={t("fields.coin")}
          rules={[{ required: true, pattern: /^[A-Z0-9]{2,10}$/ }]}
        >
          <Input />
        </Form.Item>
        <Form.Item
          name="fiat"
          label={t("fields.fiat")}
          rules={[{ required: true, pattern: /^[A-Z0-9]{2,10}$/ }]}
        >
          <Input />
        </Form.Item>
        {decimal("price", t("c2c.price"))}
        {decimal("min_fiat", t("fields.minFiat"))}
        {decimal("max_fiat", t("fields.maxFiat"))}
        {text("payee_name", t("fields.payeeName"))}
        {text("bank_name", t("fields.bankName"))}
        {text("bank_account", t("fields.bankAccount"), true, 40)}
        {text("bank_branch", t("fields.bankBranch"), false, 200)}
        {text("note", t("fields.note"), false, 500)}
      </Form>
    </Modal>
  );
}
