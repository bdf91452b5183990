import { Alert, Flex, Typography, theme } from "antd";
import { QRCodeSVG } from "qrcode.react";
import { useTranslation } from "react-i18next";
import { Amount } from "./amount.tsx";
import type { DepositOption } from "./funding-types.ts";
import { KeyValue } from "./key-value.tsx";
import "./funding.css";

/** Where to send: QR code, address with copy, memo, and the minimum, all before the form. */
export function DepositTarget({ target }: { target: DepositOption }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const copyTips = [t("common.copy"), t("common.copied")];
  return (
    <Flex
      vertical
      gap={12}
      style={{
        padding: token.padding,
        marginBottom: token.marginLG,
        borderRadius: token.borderRadiusLG,
        background: token.colorFillQuaternary,
      }}
    >
      <div className="ns-deposit-target">
        <div
          style={{
            padding: 8,
            borderRadius: token.borderRadius,
            // A QR code must be dark on light for scanners, in the dark theme too.
            background: token.colorWhite,
            lineHeight: 0,
            flex: "none",
          }}
        >
          <QRCodeSVG
            value={target.address}
            size={148}
            bgColor={token.colorWhite}
            fgColor="#000000"
            aria-label={t("funding.deposit.qr")}
            data-testid="deposit-qr"
          />
        </div>
        <Flex vertical gap={8}>
          <Typography.Text type="secondary">
            {t("funding.deposit.addressLabel", { currency: target.currency, chain: target.chain })}
          </Typography.Text>
          <Typography.Text
            strong
            className="ns-break"
            copyable={{ text: target.address, tooltips: copyTips }}
            data-testid="deposit-address"
            style={{ fontFamily: token.fontFamilyCode, fontSize: token.fontSizeLG }}
          >
            {target.address}
          </Typography.Text>
          {target.memo && (
            <KeyValue label={t("fields.memo")}>
              <Typography.Text
                strong
                className="ns-break"
                copyable={{ text: target.memo, tooltips: copyTips }}
                data-testid="deposit-memo"
              >
                {target.memo}
              </Typography.Text>
            </KeyValue>
          )}
          <KeyValue label={t("funding.deposit.minimum")}>
            <span data-testid="deposit-minimum">
              <Amount value={target.minimum} currency={target.currency} strong />
            </span>
          </KeyValue>
          {target.confirmations !== null && (
            <KeyValue label={t("funding.deposit.confirmations")}>
              <Typography.Text strong data-testid="deposit-confirmations">
                {target.confirmations}
              </Typography.Text>
            </KeyValue>
          )}
        </Flex>
      </div>
      <Alert
        type="warning"
        showIcon
        title={t("funding.deposit.warning", {
          currency: target.currency,
          chain: target.chain,
          min: target.minimum,
        })}
        description={
          target.confirmations !== null
            ? t("funding.deposit.autoCredit", { count: target.confirmations })
            : target.memo
              ? t("funding.deposit.memoWarning")
              : undefined
        }
      />
    </Flex>
  );
}
