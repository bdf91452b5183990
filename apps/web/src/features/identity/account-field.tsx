import { zEmail } from "@northstar/shared/contracts/common";
import { Form, Input, Space, Tabs } from "antd";
import { useTranslation } from "react-i18next";
import { zodRule } from "../../lib/form-rules.ts";
import { ACCOUNT_TYPES, type AccountType } from "./account-type.ts";
import { phoneRule } from "./auth-rules.ts";
import { AreaCodeSelect } from "./country-selects.tsx";

/** Tabs that switch the form between email and phone. Each label carries `<prefix>-tab-<type>`. */
export function AccountTypeTabs({
  value,
  onChange,
  testIdPrefix,
}: {
  value: AccountType;
  onChange: (type: AccountType) => void;
  testIdPrefix: string;
}) {
  const { t } = useTranslation();
  return (
    <Tabs
      activeKey={value}
      onChange={(key) => onChange(key as AccountType)}
      items={ACCOUNT_TYPES.map((key) => ({
        key,
        label: <span data-testid={`${testIdPrefix}-tab-${key}`}>{t(`auth.tabs.${key}`)}</span>,
      }))}
      style={{ marginBottom: 8 }}
    />
  );
}

/**
 * The account field of the active tab: an email input, or the area-code select beside a phone input.
 * `autoComplete` is "username" on the login and reset forms (password managers pair it with the
 * password) and "email"/"tel-national" where a new account is created.
 */
export function AccountField({
  type,
  testIdPrefix,
  newAccount = false,
}: {
  type: AccountType;
  testIdPrefix: string;
  newAccount?: boolean;
}) {
  const { t } = useTranslation();
  if (type === "email") {
    return (
      <Form.Item name="email" label={t("fields.email")} rules={[zodRule(zEmail, t, "email")]} validateFirst>
        <Input
          name="email"
          type="email"
          inputMode="email"
          autoComplete={newAccount ? "email" : "username"}
          placeholder={t("auth.placeholders.email")}
          maxLength={254}
          data-testid={`${testIdPrefix}-email`}
        />
      </Form.Item>
    );
  }
  return (
    <Form.Item label={t("fields.phone")} required>
      <Space.Compact block>
        <Form.Item name="region" noStyle>
          <AreaCodeSelect testId={`${testIdPrefix}-area-code`} />
        </Form.Item>
        <Form.Item name="phone" noStyle rules={[phoneRule(t)]} dependencies={["region"]}>
          <Input
            name="phone"
            type="tel"
            inputMode="numeric"
            autoComplete={newAccount ? "tel-national" : "username"}
            placeholder={t("auth.placeholders.phone")}
            maxLength={15}
            data-testid={`${testIdPrefix}-phone`}
          />
        </Form.Item>
      </Space.Compact>
    </Form.Item>
  );
}
