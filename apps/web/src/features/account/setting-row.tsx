import { RightOutlined } from "@ant-design/icons";
import { Flex, Typography, theme } from "antd";
import type { ReactNode } from "react";
import { AppLink } from "../../lib/navigation.tsx";
import "./account.css";

/**
 * One row of a settings list: an icon, a title with an optional status, a description, and on the
 * right either an action (a button, a select) or, when the whole row is a link, a value and a chevron.
 */
export function SettingRow({
  icon,
  title,
  status,
  description,
  action,
  to,
  value,
  testId,
}: {
  icon: ReactNode;
  title: ReactNode;
  status?: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  to?: string;
  value?: ReactNode;
  testId?: string;
}) {
  const { token } = theme.useToken();
  const body = (
    <Flex
      align="center"
      gap={12}
      style={{ paddingBlock: 14, minHeight: 56 }}
      data-testid={to ? undefined : testId}
    >
      <Flex
        align="center"
        justify="center"
        style={{
          width: 36,
          height: 36,
          flex: "none",
          borderRadius: token.borderRadiusLG,
          background: token.colorPrimaryBg,
          color: token.colorPrimary,
          fontSize: 18,
        }}
        aria-hidden
      >
        {icon}
      </Flex>
      <Flex vertical gap={2} style={{ flex: 1, minWidth: 0 }}>
        <Flex align="center" gap={8} wrap>
          <Typography.Text strong>{title}</Typography.Text>
          {status}
        </Flex>
        {description && (
          <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
            {description}
          </Typography.Text>
        )}
      </Flex>
      {action && <div style={{ flex: "none" }}>{action}</div>}
      {to && (
        <Flex
          align="center"
          gap={8}
          style={{ flex: "none", color: token.colorTextTertiary, maxWidth: "45%" }}
        >
          {value && (
            <Typography.Text type="secondary" ellipsis>
              {value}
            </Typography.Text>
          )}
          <RightOutlined />
        </Flex>
      )}
    </Flex>
  );
  if (to) {
    return (
      <AppLink to={to} className="ns-setting-row-link">
        <div data-testid={testId} style={{ color: token.colorText }}>
          {body}
        </div>
      </AppLink>
    );
  }
  return body;
}

/** Rows separated by hairlines, with an optional small heading above the group. */
export function SettingGroup({ title, children }: { title?: ReactNode; children: ReactNode[] | ReactNode }) {
  const { token } = theme.useToken();
  const rows = (Array.isArray(children) ? children : [children]).filter(Boolean);
  return (
    <section>
      {title && (
        <Typography.Text
          type="secondary"
          style={{ display: "block", fontSize: token.fontSizeSM, marginTop: token.marginSM, marginBottom: 2 }}
        >
          {title}
        </Typography.Text>
      )}
      {rows.map((row, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a static list of rows that never reorders
        <div key={i} style={i > 0 ? { borderTop: `1px solid ${token.colorSplit}` } : undefined}>
          {row}
        </div>
      ))}
    </section>
  );
}
