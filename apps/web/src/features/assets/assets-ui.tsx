import { Button, Flex, Modal, Typography, theme } from "antd";
import type { CSSProperties, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { NUMERIC_STYLE } from "./assets-format.ts";

/** A currency's mark: its code's first letters in a tinted circle (no remote icons to load or trust). */
export function CurrencyMark({ code, size = 32 }: { code: string; size?: number }) {
  const { token } = theme.useToken();
  return (
    <Flex
      align="center"
      justify="center"
      aria-hidden
      style={{
        width: size,
        height: size,
        flex: "none",
        borderRadius: "50%",
        background: token.colorPrimaryBg,
        color: token.colorPrimary,
        fontSize: Math.round(size * (size < 24 ? 0.5 : code.length > 3 ? 0.28 : 0.34)),
        fontWeight: token.fontWeightStrong,
        letterSpacing: -0.3,
      }}
    >
      {size < 24 ? code.slice(0, 1) : code.slice(0, 4)}
    </Flex>
  );
}

/** Code in bold with the currency's name under it. */
export function CurrencyLabel({ code, name, size }: { code: string; name: string; size?: number }) {
  const { token } = theme.useToken();
  return (
    <Flex align="center" gap={10} style={{ minWidth: 0 }}>
      <CurrencyMark code={code} size={size} />
      <Flex vertical style={{ minWidth: 0 }}>
        <Typography.Text strong style={{ lineHeight: 1.3 }}>
          {code}
        </Typography.Text>
        <Typography.Text type="secondary" ellipsis style={{ fontSize: token.fontSizeSM, lineHeight: 1.3 }}>
          {name}
        </Typography.Text>
      </Flex>
    </Flex>
  );
}

/** An amount in tabular figures, optionally coloured (credits and debits). */
export function Num({
  children,
  color,
  strong,
  style,
  testId,
}: {
  children: ReactNode;
  color?: string;
  strong?: boolean;
  style?: CSSProperties;
  testId?: string;
}) {
  return (
    <Typography.Text strong={strong} style={{ ...NUMERIC_STYLE, color, ...style }} data-testid={testId}>
      {children}
    </Typography.Text>
  );
}

/** A small label above a value, right-aligned: the cells of an asset or record row on narrow screens. */
export function Stat({
  label,
  children,
  align = "end",
}: {
  label: ReactNode;
  children: ReactNode;
  align?: "start" | "end";
}) {
  const { token } = theme.useToken();
  return (
    <Flex vertical align={align === "end" ? "flex-end" : "flex-start"} style={{ minWidth: 0 }}>
      <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM, lineHeight: 1.4 }}>
        {label}
      </Typography.Text>
      <div style={{ maxWidth: "100%", overflowWrap: "anywhere", textAlign: align }}>{children}</div>
    </Flex>
  );
}

/**
 * The confirmation before money moves (SPEC): what will happen, then Cancel / Confirm. While the
 * request runs it cannot be dismissed and the Confirm button shows its progress.
 */
export function ConfirmModal({
  open,
  title,
  busy,
  onOk,
  onCancel,
  okTestId,
  children,
}: {
  open: boolean;
  title: ReactNode;
  busy: boolean;
  onOk: () => void;
  onCancel: () => void;
  okTestId: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const close = () => {
    if (!busy) {
      onCancel();
    }
  };
  return (
    <Modal
      open={open}
      title={title}
      onCancel={close}
      closable={!busy}
      keyboard={!busy}
      mask={{ closable: !busy }}
      destroyOnHidden
      centered
      footer={[
        <Button key="cancel" onClick={close} disabled={busy}>
          {t("common.cancel")}
        </Button>,
        // A loading button ignores clicks: data-ready tells when a click will be taken.
        <Button
          key="ok"
          type="primary"
          onClick={onOk}
          loading={busy}
          aria-busy={busy}
          data-ready={busy ? "false" : "true"}
          data-testid={okTestId}
        >
          {t("common.confirm")}
        </Button>,
      ]}
    >
      {children}
    </Modal>
  );
}

/** Label and value pairs in a confirmation, the values right-aligned in tabular figures. */
export function SummaryRows({ rows }: { rows: { key: string; label: ReactNode; value: ReactNode }[] }) {
  const { token } = theme.useToken();
  return (
    <Flex
      vertical
      style={{
        borderRadius: token.borderRadiusLG,
        background: token.colorFillQuaternary,
        padding: `${token.paddingXS}px ${token.padding}px`,
      }}
    >
      {rows.map((r, i) => (
        <Flex
          key={r.key}
          justify="space-between"
          align="baseline"
          gap={16}
          style={{
            paddingBlock: token.paddingXS,
            borderTop: i > 0 ? `1px solid ${token.colorSplit}` : undefined,
          }}
          data-testid={`summary-${r.key}`}
        >
          <Typography.Text type="secondary" style={{ flex: "none", maxWidth: "45%" }}>
            {r.label}
          </Typography.Text>
          <Typography.Text style={{ ...NUMERIC_STYLE, whiteSpace: "normal", textAlign: "end", minWidth: 0 }}>
            {r.value}
          </Typography.Text>
        </Flex>
      ))}
    </Flex>
  );
}
