import { ZAddBankCardRequestSchema } from "@northstar/shared/contracts/funding";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Flex, Form, Input } from "antd";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { markRefusedField, useReturnPath } from "../account/account-helpers.ts";
import { Page } from "../common/page.tsx";
import { fieldRule } from "./amount-rules.ts";
import { RealAccountOnly } from "./real-account-only.tsx";
import "./funding.css";

interface CardForm {
  bank_name: string;
  account: string;
  card_id: string;
  swift_code?: string;
  routing_number?: string;
  bank_address?: string;
  phone?: string;
  payee_name: string;
  payee_address?: string;
}

// The shared contract's field rules: the web refuses exactly what the server refuses.
const shape = ZAddBankCardRequestSchema.shape;

/** /bankAdd: every bank-card field of SPEC section 3; back to /bank (or `?redirect=`) when saved. */
export function BankCardAddPage() {
  const { t } = useTranslation();
  return (
    <Page title={t("funding.bank.addTitle")}>
      <RealAccountOnly>
        <BankCardForm />
      </RealAccountOnly>
    </Page>
  );
}

function BankCardForm() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const go = useAppNavigate();
  const returnPath = useReturnPath("/bank");
  const [form] = Form.useForm<CardForm>();
  const create = useMutation(trpc.bankCard.create.mutationOptions());

  const submit = (values: CardForm) => {
    const clean = Object.fromEntries(
      Object.entries(values).map(([k, v]) => [k, typeof v === "string" ? v.trim() || undefined : v]),
    ) as CardForm;
    create.mutate(clean, {
      onSuccess: () => {
        feedback.success(t("funding.bank.added"));
        void queryClient.invalidateQueries({ queryKey: trpc.bankCard.getMany.queryKey() });
        go(returnPath, { replace: true });
      },
      onError: (error) => markRefusedField(form, error),
    });
  };

  return (
    <Flex vertical gap={16}>
      <Alert type="info" showIcon title={t("funding.bank.intro")} />
      <Form form={form} layout="vertical" requiredMark={false} onFinish={submit} disabled={create.isPending}>
        <Form.Item
          name="bank_name"
          label={t("fields.bankName")}
          rules={[fieldRule(shape.bank_name, t, t("fields.bankName"))]}
        >
          <Input maxLength={100} autoComplete="off" data-testid="bank-name" />
        </Form.Item>
        <Form.Item
          name="account"
          label={t("funding.bank.account")}
          rules={[fieldRule(shape.account, t, t("funding.bank.account"))]}
          extra={t("funding.bank.accountHelp")}
        >
          <Input maxLength={64} autoComplete="off" spellCheck={false} data-testid="bank-account" />
        </Form.Item>
        <Form.Item
          name="card_id"
          label={t("fields.cardId")}
          rules={[fieldRule(shape.card_id, t, t("fields.cardId"))]}
          extra={t("funding.bank.cardHelp")}
        >
          <Input
            maxLength={40}
            inputMode="numeric"
            autoComplete="off"
            spellCheck={false}
            className="ns-num"
            style={{ textAlign: "start" }}
            data-testid="bank-card-id"
          />
        </Form.Item>
        <Flex gap={16} wrap>
          <Form.Item
            name="swift_code"
            label={t("fields.swiftCode")}
            rules={[fieldRule(shape.swift_code, t, t("fields.swiftCode"))]}
            extra={t("funding.bank.swiftHelp")}
            style={{ flex: "1 1 200px" }}
            normalize={(v: string) => v.toUpperCase()}
          >
            <Input
              maxLength={11}
              autoComplete="off"
              spellCheck={false}
              placeholder={t("funding.common.optional")}
              data-testid="bank-swift"
            />
          </Form.Item>
          <Form.Item
            name="routing_number"
            label={t("fields.routingNumber")}
            rules={[fieldRule(shape.routing_number, t, t("fields.routingNumber"))]}
            extra={t("funding.bank.routingHelp")}
            style={{ flex: "1 1 200px" }}
          >
            <Input
              maxLength={9}
              inputMode="numeric"
              autoComplete="off"
              placeholder={t("funding.common.optional")}
              data-testid="bank-routing"
            />
          </Form.Item>
        </Flex>
        <Form.Item
          name="bank_address"
          label={t("fields.bankAddress")}
          rules={[fieldRule(shape.bank_address, t, t("fields.bankAddress"))]}
        >
          <Input maxLength={200} placeholder={t("funding.common.optional")} data-testid="bank-address" />
        </Form.Item>
        <Form.Item
          name="phone"
          label={t("fields.phone")}
          rules={[fieldRule(shape.phone, t, t("fields.phone"))]}
        >
          <Input
            maxLength={30}
            inputMode="tel"
            autoComplete="tel"
            placeholder={t("funding.common.optional")}
            data-testid="bank-phone"
          />
        </Form.Item>
        <Form.Item
          name="payee_name"
          label={t("fields.payeeName")}
          rules={[fieldRule(shape.payee_name, t, t("fields.payeeName"))]}
        >
          <Input maxLength={100} autoComplete="name" data-testid="bank-payee-name" />
        </Form.Item>
        <Form.Item
          name="payee_address"
          label={t("fields.payeeAddress")}
          rules={[fieldRule(shape.payee_address, t, t("fields.payeeAddress"))]}
        >
          <Input
            maxLength={200}
            autoComplete="street-address"
            placeholder={t("funding.common.optional")}
            data-testid="bank-payee-address"
          />
        </Form.Item>
        <Button
          type="primary"
          htmlType="submit"
          block
          size="large"
          loading={create.isPending}
          data-testid="bank-submit"
        >
          {t("common.save")}
        </Button>
      </Form>
    </Flex>
  );
}
