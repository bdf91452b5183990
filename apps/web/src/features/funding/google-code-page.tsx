import { GoogleOutlined, SafetyOutlined } from "@ant-design/icons";
import { ZGoogleCodeSchema } from "@northstar/shared/contracts/funding";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Flex, Form, Input, Result, Steps, Typography, theme } from "antd";
import { QRCodeSVG } from "qrcode.react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { digitsOnly, markRefusedField, useReturnPath } from "../account/account-helpers.ts";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { fieldRule } from "./amount-rules.ts";
import "./funding.css";

/**
 * /googleCode: bind Google Authenticator. Start gives a new secret and its otpauth URI (shown as a
 * QR code); binding completes when the user proves a first code. Withdrawals then ask for a code.
 */
export function GoogleCodePage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const status = useQuery(trpc.googleAuth.status.queryOptions());
  const [justBound, setJustBound] = useState(false);
  return (
    <Page title={t("nav.googleCode")}>
      {status.isPending ? (
        <LoadingState />
      ) : status.isError ? (
        <ErrorState onRetry={() => void status.refetch()} />
      ) : status.data.bound || justBound ? (
        <Bound />
      ) : (
        <Binding onBound={() => setJustBound(true)} />
      )}
    </Page>
  );
}

function Bound() {
  const { t } = useTranslation();
  const go = useAppNavigate();
  const returnPath = useReturnPath("/security");
  return (
    <Result
      status="success"
      title={t("funding.google.boundTitle")}
      subTitle={t("funding.google.boundText")}
      data-testid="google-bound"
      extra={
        <Button type="primary" onClick={() => go(returnPath)}>
          {returnPath === "/security" ? t("nav.security") : t("common.back")}
        </Button>
      }
    />
  );
}

function Binding({ onBound }: { onBound: () => void }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { token } = theme.useToken();
  const [form] = Form.useForm<{ code: string }>();
  const start = useMutation(trpc.googleAuth.start.mutationOptions());
  const confirm = useMutation(trpc.googleAuth.confirm.mutationOptions());
  const copyTips = [t("common.copy"), t("common.copied")];

  if (!start.data) {
    return (
      <Flex vertical gap={16} align="center" style={{ textAlign: "center" }}>
        <GoogleOutlined style={{ fontSize: 48, color: token.colorPrimary }} aria-hidden />
        <Typography.Paragraph style={{ maxWidth: 440, marginBottom: 0 }}>
          {t("funding.google.intro")}
        </Typography.Paragraph>
        <Button
          type="primary"
          size="large"
          loading={start.isPending}
          onClick={() => start.mutate()}
          data-testid="google-start"
        >
          {t("funding.google.start")}
        </Button>
      </Flex>
    );
  }

  const { secret, uri } = start.data;
  const submit = (values: { code: string }) => {
    confirm.mutate(
      { code: values.code },
      {
        onSuccess: () => {
          feedback.success(t("funding.google.boundTitle"));
          onBound();
          void queryClient.invalidateQueries({ queryKey: ["web/info"] });
          void queryClient.invalidateQueries({ queryKey: trpc.googleAuth.status.queryKey() });
          void queryClient.invalidateQueries({ queryKey: trpc.withdrawal.terms.queryKey() });
        },
        onError: (error) => markRefusedField(form, error),
      },
    );
  };

  return (
    <Flex vertical gap={16}>
      <Steps
        orientation="vertical"
        size="small"
        current={2}
        items={[
          { title: t("funding.google.step1"), content: t("funding.google.step1Text") },
          {
            title: t("funding.google.step2"),
            content: (
              <Flex vertical gap={12} style={{ paddingBlock: 8 }}>
                <Typography.Text type="secondary">{t("funding.google.step2Text")}</Typography.Text>
                <div
                  style={{
                    alignSelf: "flex-start",
                    padding: 8,
                    borderRadius: token.borderRadius,
                    // A QR code must be dark on light for scanners, in the dark theme too.
                    background: token.colorWhite,
                    lineHeight: 0,
                  }}
                >
                  <QRCodeSVG
                    value={uri}
                    size={160}
                    bgColor={token.colorWhite}
                    fgColor="#000000"
                    aria-label={t("funding.google.qr")}
                    data-testid="google-qr"
                  />
                </div>
                <Flex vertical gap={2}>
                  <Typography.Text type="secondary">{t("funding.google.secret")}</Typography.Text>
                  <Typography.Text
                    strong
                    className="ns-break"
                    copyable={{ text: secret, tooltips: copyTips }}
                    style={{ fontFamily: token.fontFamilyCode, letterSpacing: 1 }}
                    data-testid="google-secret"
                  >
                    {secret}
                  </Typography.Text>
                </Flex>
              </Flex>
            ),
          },
          { title: t("funding.google.step3"), content: t("funding.google.step3Text") },
        ]}
      />
      <Alert type="warning" showIcon title={t("funding.google.backup")} />
      <Form form={form} layout="vertical" requiredMark={false} onFinish={submit} disabled={confirm.isPending}>
        <Form.Item
          name="code"
          label={t("fields.googleCode")}
          rules={[fieldRule(ZGoogleCodeSchema.shape.code, t, t("fields.googleCode"))]}
          normalize={digitsOnly(6)}
        >
          <Input
            prefix={<SafetyOutlined />}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            size="large"
            className="ns-num"
            style={{ letterSpacing: 4, textAlign: "start" }}
            data-testid="google-code"
          />
        </Form.Item>
        <Button
          type="primary"
          htmlType="submit"
          block
          size="large"
          loading={confirm.isPending}
          data-testid="google-confirm"
        >
          {t("funding.google.confirm")}
        </Button>
      </Form>
    </Flex>
  );
}
