import { Button, Flex, Modal, Typography, theme } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

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
  okLabel,
  children,
}: {
  open: boolean;
  title: ReactNode;
  busy: boolean;
  onOk: () => void;
  onCancel: () => void;
  okTestId: string;
  /** The confirm button's text when it does something else than confirm (e.g. ask for a new quote). */
  okLabel?: ReactNode;
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
          {okLabel ?? t("common.confirm")}
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
          <Typography.Text
            style={{
              fontVariantNumeric: "tabular-nums",
              whiteSpace: "normal",
              textAlign: "end",
              minWidth: 0,
            }}
          >
            {r.value}
          </Typography.Text>
        </Flex>
      ))}
    </Flex>
  );
}
