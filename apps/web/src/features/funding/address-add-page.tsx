import { ZAddWithdrawalAddressRequestSchema } from "@northstar/shared/contracts/funding";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Flex, Form, Input, Select, theme } from "antd";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { usePolicy } from "../../lib/policy.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { markRefusedField, useReturnPath } from "../account/account-helpers.ts";
import { Page } from "../common/page.tsx";
import { fieldRule, requiredRule } from "./amount-rules.ts";
import { CHAINS } from "./funding-types.ts";
import { RealAccountOnly } from "./real-account-only.tsx";
import "./funding.css";

interface AddressForm {
  currency: string;
  chain: string;
  address: string;
  remark?: string;
  memo?: string;
}

const shape = ZAddWithdrawalAddressRequestSchema.shape;

/**
 * /walletAdd: save a withdrawal address. The server checks the address format for the chain and
 * answers ADDRESS_FORMAT on the address field; the page says beforehand which chains a currency
 * can actually be withdrawn on (policy funding.withdraw.chains).
 */
export function AddressAddPage() {
  const { t } = useTranslation();
  return (
    <Page title={t("funding.address.addTitle")}>
      <RealAccountOnly>
        <AddressAddForm />
      </RealAccountOnly>
    </Page>
  );
}

function AddressAddForm() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const go = useAppNavigate();
  const returnPath = useReturnPath("/address");
  const policy = usePolicy();
  const { token } = theme.useToken();
  const [form] = Form.useForm<AddressForm>();
  const currencies = useQuery(trpc.asset.currencies.queryOptions(undefined, { staleTime: 10 * 60_000 }));
  const create = useMutation(trpc.withdrawalAddress.create.mutationOptions());
  const withdrawChains = policy["funding.withdraw.chains"];
  const currency = Form.useWatch("currency", form) ?? "USDT";
  const chain = Form.useWatch("chain", form);
  const allowed = withdrawChains[currency] ?? [];

  const currencyOptions = (currencies.data?.map((c) => c.code) ?? Object.keys(withdrawChains)).map((c) => ({
    value: c,
    label: c,
  }));

  const submit = (values: AddressForm) => {
    create.mutate(
      {
        currency: values.currency,
        chain: values.chain,
        address: values.address.trim(),
        remark: values.remark?.trim() || undefined,
        memo: values.memo?.trim() || undefined,
      },
      {
        onSuccess: () => {
          feedback.success(t("funding.address.added"));
          void queryClient.invalidateQueries({ queryKey: trpc.withdrawalAddress.getMany.queryKey() });
          go(returnPath, { replace: true });
        },
        onError: (error) => markRefusedField(form, error),
      },
    );
  };

  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={submit}
      disabled={create.isPending}
      initialValues={{ currency: "USDT", chain: withdrawChains.USDT?.[0] ?? "ERC20" }}
      onValuesChange={(changed: Partial<AddressForm>) => {
        if (changed.currency) {
          const first = withdrawChains[changed.currency]?.[0];
          if (first) {
            form.setFieldValue("chain", first);
          }
        }
        if (changed.chain && form.getFieldValue("address")) {
          // A server refusal on the address was for the old chain.
          form.setFields([{ name: "address", errors: [] }]);
        }
      }}
    >
      <Flex gap={16} wrap>
        <Form.Item
          name="currency"
          label={t("fields.currency")}
          rules={[fieldRule(shape.currency, t, t("fields.currency"))]}
          style={{ flex: "1 1 160px" }}
        >
          <Select
            showSearch
            loading={currencies.isPending}
            options={currencyOptions}
            data-testid="address-currency"
            aria-label={t("fields.currency")}
          />
        </Form.Item>
        <Form.Item
          name="chain"
          label={t("fields.chain")}
          rules={[fieldRule(shape.chain, t, t("fields.chain"))]}
          style={{ flex: "1 1 160px" }}
        >
          <Select
            options={CHAINS.map((c) => ({ value: c, label: c }))}
            data-testid="address-chain"
            aria-label={t("fields.chain")}
          />
        </Form.Item>
      </Flex>
      {chain && !allowed.includes(chain) && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 24 }}
          data-testid="address-chain-warning"
          title={
            allowed.length > 0
              ? t("errors.WITHDRAW_CHAIN_NOT_ALLOWED", { currency, chains: allowed.join(", ") })
              : t("funding.address.noWithdrawal", { currency })
          }
          description={t("funding.address.canStillSave")}
        />
      )}
      <Form.Item
        name="address"
        label={t("fields.address")}
        rules={[
          requiredRule(t, t("fields.address")),
          { max: 120, message: t("errors.FIELD_INVALID", { field: t("fields.address") }) },
        ]}
        extra={t("funding.address.addressHelp", { chain: chain ?? "" })}
      >
        <Input.TextArea
          autoSize={{ minRows: 2, maxRows: 3 }}
          maxLength={120}
          spellCheck={false}
          autoComplete="off"
          style={{ fontFamily: token.fontFamilyCode }}
          data-testid="address-input"
        />
      </Form.Item>
      <Form.Item name="remark" label={t("fields.remark")}>
        <Input maxLength={50} showCount data-testid="address-remark" />
      </Form.Item>
      <Form.Item name="memo" label={t("fields.memo")} extra={t("funding.address.memoHelp")}>
        <Input maxLength={64} autoComplete="off" data-testid="address-memo" />
      </Form.Item>
      <Button
        type="primary"
        htmlType="submit"
        block
        size="large"
        loading={create.isPending}
        data-testid="address-submit"
      >
        {t("common.save")}
      </Button>
    </Form>
  );
}
