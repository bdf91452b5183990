import {
  COUNTRY_CODES,
  isValidPhone,
  zCode,
  zEmail,
  zPassword,
  zPhoneDigits,
} from "@northstar/shared/contracts/common";
import type { TCodePurpose } from "@northstar/shared/contracts/identity";
import { isErrorCode } from "@northstar/shared/errors";
import { LANGUAGE_INFO, type Language } from "@northstar/shared/languages";
import type { FormInstance, FormRule } from "antd";
import { Alert, Button, Flex, Form, Input, Select, Space, Tabs, Typography } from "antd";
import type { TFunction } from "i18next";
import { type CountryCode, getCountryCallingCode } from "libphonenumber-js";
import { type ReactNode, useCallback, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../lib/client-rules.ts";
import { passwordLengthRule, sameAs, zodRule } from "../../lib/form-rules.ts";
import { AppLink } from "../../lib/navigation.tsx";
import { useLanguage } from "../../lib/session.ts";
import { SendCodeButton } from "../common/send-code-button.tsx";

/** How an account is named: by email, or by area code and phone number. Email is the default tab. */
export type AccountType = "email" | "phone";
export const ACCOUNT_TYPES: readonly AccountType[] = ["email", "phone"];

/**
 * The identity forms' field names. They match the legacy call's field names where they can, so a
 * server refusal naming a field lands on that field; `region` is the ISO country whose calling code
 * is sent as `area_code`, since several countries share one (US and CA are both +1).
 */
export interface AccountValues {
  email?: string;
  region?: string;
  phone?: string;
}

// ---------------------------------------------------------------- countries and calling codes

export interface Country {
  code: string;
  name: string;
  english: string;
  callingCode: string;
}

const countryCache = new Map<string, Country[]>();

function regionName(names: Intl.DisplayNames, code: string): string {
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

/** Every country the phone library knows, named in `bcp47` and sorted in that language's order. */
export function countriesIn(bcp47: string): Country[] {
  const cached = countryCache.get(bcp47);
  if (cached) {
    return cached;
  }
  const names = new Intl.DisplayNames([bcp47], { type: "region" });
  const english = new Intl.DisplayNames(["en"], { type: "region" });
  const collator = new Intl.Collator(bcp47);
  const list = COUNTRY_CODES.map((code) => ({
    code,
    name: regionName(names, code),
    english: regionName(english, code),
    callingCode: getCountryCallingCode(code as CountryCode),
  })).sort((a, b) => collator.compare(a.name, b.name));
  countryCache.set(bcp47, list);
  return list;
}

/** The countries in the current interface language. */
export function useCountries(): Country[] {
  const lang = useLanguage();
  return useMemo(() => countriesIn(LANGUAGE_INFO[lang].bcp47), [lang]);
}

/** The calling code of an ISO region ("US" → "1"), or "" when the region is unknown. */
export function callingCodeOf(region: string | undefined): string {
  if (!region || !COUNTRY_CODES.includes(region)) {
    return "";
  }
  return getCountryCallingCode(region as CountryCode);
}

const LANGUAGE_REGION: Record<Language, string> = {
  en: "US",
  xby: "ES",
  jp: "JP",
  hy: "KR",
  ty: "TH",
  yn: "VN",
  zh: "CN",
  ft: "TW",
};

/**
 * A sensible default phone region: the first browser locale that names a region ("en-GB" → GB),
 * else the region most associated with the interface language.
 */
export function guessRegion(lang: Language): string {
  const tags = typeof navigator === "undefined" ? [] : (navigator.languages ?? [navigator.language]);
  for (const tag of tags) {
    try {
      const region = new Intl.Locale(tag).region;
      if (region && COUNTRY_CODES.includes(region)) {
        return region;
      }
    } catch {
      // An unparsable locale tag: try the next one.
    }
  }
  return LANGUAGE_REGION[lang];
}

/** Lower-case text a country is found by: its names in the interface language and English, ISO and calling code. */
const searchText = (c: Country) => `${c.name} ${c.english} ${c.code} +${c.callingCode}`.toLowerCase();

function matchCountry(input: string, option: { search?: string } | undefined): boolean {
  return (option?.search ?? "").includes(input.trim().toLowerCase());
}

/** The area-code select: lists every country with its calling code; shows "US +1" once chosen. */
export function AreaCodeSelect({
  value,
  onChange,
  testId,
  disabled,
}: {
  value?: string;
  onChange?: (value: string) => void;
  testId: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const countries = useCountries();
  const options = useMemo(
    () =>
      countries.map((c) => ({
        value: c.code,
        label: `${c.code} +${c.callingCode}`,
        name: c.name,
        callingCode: c.callingCode,
        search: searchText(c),
      })),
    [countries],
  );
  return (
    <Select
      value={value}
      onChange={onChange}
      disabled={disabled}
      options={options}
      showSearch={{ filterOption: matchCountry }}
      popupMatchSelectWidth={300}
      style={{ width: 124, flex: "none" }}
      aria-label={t("fields.areaCode")}
      data-testid={testId}
      optionRender={(option) => (
        <Flex justify="space-between" gap={8}>
          <Typography.Text ellipsis>{option.data.name}</Typography.Text>
          <Typography.Text type="secondary">+{option.data.callingCode}</Typography.Text>
        </Flex>
      )}
    />
  );
}

/** The nationality select: every country named in the interface language, searchable. */
export function NationalitySelect({
  value,
  onChange,
  testId,
}: {
  value?: string;
  onChange?: (value: string) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const countries = useCountries();
  const options = useMemo(
    () => countries.map((c) => ({ value: c.code, label: c.name, search: searchText(c) })),
    [countries],
  );
  return (
    <Select
      value={value}
      onChange={onChange}
      options={options}
      showSearch={{ filterOption: matchCountry }}
      placeholder={t("auth.placeholders.nationality")}
      data-testid={testId}
    />
  );
}

// ---------------------------------------------------------------- form rules

/** Phone digits as the server parses them, and a number the phone library accepts for the chosen region. */
export function phoneRule(t: TFunction): FormRule {
  return (form) => ({
    validator: async (_, value: string | undefined) => {
      const digits = zPhoneDigits.safeParse(value ?? "");
      if (!digits.success) {
        const code = digits.error.issues[0]?.message;
        throw new Error(t(`errors.${isErrorCode(code) ? code : "PHONE_FORMAT"}`));
      }
      const area = callingCodeOf(form.getFieldValue("region"));
      if (!area || !isValidPhone(area, digits.data)) {
        throw new Error(t("errors.PHONE_FORMAT"));
      }
    },
  });
}

/** The legacy calls' account fields from the form values. */
export function accountPayload(
  type: AccountType,
  values: AccountValues,
): { type: AccountType; account: string; area_code?: string } {
  if (type === "email") {
    return { type, account: (values.email ?? "").trim() };
  }
  return { type, account: (values.phone ?? "").trim(), area_code: callingCodeOf(values.region) };
}

/** The form fields that hold the account of the given type. */
export const accountFieldNames = (type: AccountType): string[] =>
  type === "email" ? ["email"] : ["region", "phone"];

/**
 * Puts a server refusal that names a field on that form field (the toast was already shown by the
 * client rules). `account` and `area_code` map to the email or phone field of the active tab.
 */
export function showServerError(form: FormInstance, error: unknown, type?: AccountType): void {
  if (!(error instanceof ApiError) || !error.field || !error.message) {
    return;
  }
  let name = error.field;
  if (name === "account" || name === "area_code") {
    if (!type) {
      return;
    }
    name = type === "email" ? "email" : "phone";
  }
  form.setFields([{ name, errors: [error.message] }]);
}

/**
 * Runs a submit at most once at a time: the flag drives the button's loading state, and the ref
 * refuses a second run (a double click or a repeated Enter) before React re-renders.
 */
export function useSubmitLock(): [boolean, (run: () => Promise<void>) => Promise<void>] {
  const busy = useRef(false);
  const [submitting, setSubmitting] = useState(false);
  const guard = useCallback(async (run: () => Promise<void>) => {
    if (busy.current) {
      return;
    }
    busy.current = true;
    setSubmitting(true);
    try {
      await run();
    } finally {
      busy.current = false;
      setSubmitting(false);
    }
  }, []);
  return [submitting, guard];
}

/**
 * Where to go after logging in: the `redirect` parameter when it is a path on this site, never an
 * absolute or protocol-relative URL, and never back to the login or register page.
 */
export function safeRedirect(raw: string | null): string {
  if (!raw?.startsWith("/") || raw.startsWith("//") || raw.startsWith("/\\")) {
    return "/";
  }
  try {
    const url = new URL(raw, window.location.origin);
    if (url.origin !== window.location.origin || url.pathname === "/login" || url.pathname === "/register") {
      return "/";
    }
    return url.pathname + url.search + url.hash;
  } catch {
    return "/";
  }
}

// ---------------------------------------------------------------- shared form pieces

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

/** The verification code input with its send button beside it. */
export function CodeField({
  purpose,
  getTarget,
  testId,
}: {
  purpose: TCodePurpose;
  getTarget: () => Promise<{ type: AccountType; account?: string; area_code?: string } | null>;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Form.Item label={t("fields.code")} required>
      <Space.Compact block>
        <Form.Item name="code" noStyle rules={[zodRule(zCode, t, "code")]}>
          <Input
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            placeholder={t("auth.placeholders.code")}
            data-testid={testId}
          />
        </Form.Item>
        <SendCodeButton purpose={purpose} getTarget={getTarget} />
      </Space.Compact>
    </Form.Item>
  );
}

/** A new password with its length from policy, and its confirmation. */
export function NewPasswordFields({
  min,
  max,
  testIdPrefix,
  label,
}: {
  min: number;
  max: number;
  testIdPrefix: string;
  label?: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name="password"
        label={label ?? t("fields.password")}
        rules={[passwordLengthRule(t, min, max)]}
        extra={t("errors.PASSWORD_LENGTH", { min, max })}
      >
        <Input.Password
          name="password"
          autoComplete="new-password"
          maxLength={max}
          placeholder={t("auth.placeholders.newPassword")}
          data-testid={`${testIdPrefix}-password`}
        />
      </Form.Item>
      <Form.Item
        name="confirm_password"
        label={t("fields.confirmPassword")}
        dependencies={["password"]}
        rules={[zodRule(zPassword, t, "confirmPassword"), sameAs("password", t)]}
        validateFirst
      >
        <Input.Password
          name="confirm_password"
          autoComplete="new-password"
          maxLength={max}
          placeholder={t("auth.placeholders.confirmPassword")}
          data-testid={`${testIdPrefix}-confirm`}
        />
      </Form.Item>
    </>
  );
}

/** The submit button: loading while the call runs, and blocked from a second click meanwhile. */
export function SubmitButton({
  loading,
  testId,
  children,
}: {
  loading: boolean;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Button type="primary" htmlType="submit" size="large" block loading={loading} data-testid={testId}>
      {children}
    </Button>
  );
}

/** The short line under a page title. */
export function Intro({ children }: { children: ReactNode }) {
  return (
    <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
      {children}
    </Typography.Paragraph>
  );
}

/** SPEC section 5: an email or phone must be bound before the password can be changed. */
export function BindRequired() {
  const { t } = useTranslation();
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="bind-required"
      title={t("errors.BIND_REQUIRED")}
      description={
        <Space wrap style={{ marginTop: 8 }}>
          <AppLink to="/email">
            <Button data-testid="bind-email-link">{t("nav.bindEmail")}</Button>
          </AppLink>
          <AppLink to="/mobile">
            <Button data-testid="bind-phone-link">{t("nav.bindPhone")}</Button>
          </AppLink>
        </Space>
      }
    />
  );
}
