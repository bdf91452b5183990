import { MobileOutlined, SafetyOutlined } from "@ant-design/icons";
import { isValidPhone, zPhoneDigits } from "@northstar/shared/contracts/common";
import { maskPhone } from "@northstar/shared/display";
import { useMutation } from "@tanstack/react-query";
import { Alert, Button, Flex, Form, Input, Select, Space, Typography } from "antd";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { zodRule } from "../../lib/form-rules.ts";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useSession } from "../../lib/queries.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { CodeField } from "../common/code-field.tsx";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { type Country, useCountries } from "../identity/country-list.ts";
import { digitsOnly, markRefusedField, useInvalidateSession, useReturnPath } from "./account-helpers.ts";

interface BindPhoneForm {
  /** ISO country code; several countries share a calling code (+1), so the country is what is chosen. */
  country: string;
  phone: string;
  code: string;
}

/** /mobile: binds a phone number (or replaces the bound one) after a code sent to it. */
export function BindPhonePage() {
  const { t } = useTranslation();
  const session = useSession();
  return (
    <Page title={t("nav.bindPhone")}>
      {session.isPending ? (
        <LoadingState />
      ) : session.isError ? (
        <ErrorState onRetry={() => void session.refetch()} />
      ) : (
        <BindPhoneForm
          currentPhone={session.data.phone}
          currentArea={session.data.area_code}
          nationality={session.data.nationality}
        />
      )}
    </Page>
  );
}

function BindPhoneForm({
  currentPhone,
  currentArea,
  nationality,
}: {
  currentPhone: string;
  currentArea: string;
  nationality: string;
}) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const [form] = Form.useForm<BindPhoneForm>();
  const invalidateSession = useInvalidateSession();
  const go = useAppNavigate();
  const returnPath = useReturnPath();
  const countries = useCountries();
  const bind = useMutation(trpc.identity.bindPhone.mutationOptions());

  const byCode = useMemo(() => new Map(countries.map((c) => [c.code, c])), [countries]);
  const initialCountry = useMemo(() => {
    // The nationality's country when its calling code matches the bound number (or nothing is bound).
    const own = byCode.get(nationality);
    if (own && (!currentArea || own.callingCode === currentArea)) {
      return own.code;
    }
    return countries.find((c) => c.callingCode === currentArea)?.code ?? own?.code ?? "US";
  }, [byCode, countries, nationality, currentArea]);

  const countryCode = Form.useWatch("country", form) ?? initialCountry;
  const calling = byCode.get(countryCode)?.callingCode ?? "";

  const options = useMemo(
    () =>
      countries.map((c: Country) => ({
        value: c.code,
        label: `${c.name} (+${c.callingCode})`,
        search: `${c.name} ${c.code} +${c.callingCode}`,
      })),
    [countries],
  );

  const phoneRules = [
    zodRule(zPhoneDigits, t, "phone"),
    {
      validator: async (_: unknown, value: string | undefined) => {
        if (value && calling && !isValidPhone(calling, value)) {
          throw new Error(t("errors.PHONE_FORMAT"));
        }
      },
    },
  ];

  const submit = (values: BindPhoneForm) => {
    bind.mutate(
      { area_code: calling, phone: values.phone, code: values.code },
      {
        onSuccess: () => {
          feedback.success(t("account.phone.done"));
          void invalidateSession();
          go(returnPath, { replace: true });
        },
        onError: (error) => markRefusedField(form, error, { area_code: "country", account: "phone" }),
      },
    );
  };

  const getTarget = async () => {
    try {
      const { phone } = await form.validateFields(["country", "phone"]);
      return { type: "phone" as const, account: phone, area_code: calling };
    } catch {
      return null;
    }
  };

  return (
    <Flex vertical gap={16}>
      <Alert
        type="info"
        showIcon
        title={
          currentPhone
            ? t("account.phone.current", { phone: `+${currentArea} ${maskPhone(currentPhone)}` })
            : t("account.phone.intro")
        }
        description={currentPhone ? t("account.phone.replaceHint") : undefined}
        data-testid="bind-phone-current"
      />
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ country: initialCountry }}
        onFinish={submit}
        disabled={bind.isPending}
        onValuesChange={(changed: Partial<BindPhoneForm>) => {
          // A number valid for one country may not be for another: re-check it when the country changes.
          if (changed.country && form.getFieldValue("phone")) {
            void form.validateFields(["phone"]).catch(() => undefined);
          }
        }}
      >
        <Form.Item name="country" label={t("account.phone.country")}>
          <Select
            options={options}
            showSearch={{ optionFilterProp: "search" }}
            popupMatchSelectWidth
            data-testid="bind-phone-country"
          />
        </Form.Item>
        <Form.Item
          name="phone"
          label={t("fields.phone")}
          rules={phoneRules}
          normalize={digitsOnly(15)}
          validateTrigger="onBlur"
        >
          <Input
            prefix={
              <Space size={4}>
                <MobileOutlined />
                <Typography.Text type="secondary">+{calling}</Typography.Text>
              </Space>
            }
            inputMode="tel"
            autoComplete="tel-national"
            maxLength={15}
            data-testid="bind-phone-input"
          />
        </Form.Item>
        <CodeField
          purpose="bind"
          getTarget={getTarget}
          testId="bind-phone-code"
          sendTestId="bind-phone-send-code"
          prefix={<SafetyOutlined />}
        />
        <Button
          type="primary"
          htmlType="submit"
          block
          loading={bind.isPending}
          data-testid="bind-phone-submit"
        >
          {currentPhone ? t("account.phone.replace") : t("common.bind")}
        </Button>
      </Form>
    </Flex>
  );
}
