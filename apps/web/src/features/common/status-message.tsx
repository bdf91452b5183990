import {
  ClockCircleFilled,
  ExclamationCircleFilled,
  InfoCircleFilled,
  QuestionCircleFilled,
} from "@ant-design/icons";
import { Flex, theme } from "antd";
import type { ReactNode } from "react";

/** What the message is about; each kind has its icon and colour. */
export type StatusKind = "info" | "warning" | "notFound" | "soon";

const ICONS = {
  info: InfoCircleFilled,
  warning: ExclamationCircleFilled,
  notFound: QuestionCircleFilled,
  soon: ClockCircleFilled,
} as const;

/**
 * A centred icon, title, hint and actions: the page-level "nothing here / not yet / went wrong"
 * message. Drawn with plain elements rather than antd's Result, whose illustrations would add about
 * 9 KB (compressed) to every first load.
 */
export function StatusMessage({
  kind,
  title,
  hint,
  actions,
  testId,
}: {
  kind: StatusKind;
  title: ReactNode;
  hint?: ReactNode;
  actions?: ReactNode;
  testId?: string;
}) {
  const { token } = theme.useToken();
  const Icon = ICONS[kind];
  const color = {
    info: token.colorInfo,
    warning: token.colorWarning,
    notFound: token.colorTextTertiary,
    soon: token.colorPrimary,
  }[kind];
  return (
    <Flex
      vertical
      align="center"
      gap={12}
      role={kind === "warning" ? "alert" : undefined}
      style={{ padding: "40px 16px", textAlign: "center" }}
      data-testid={testId}
    >
      <Icon style={{ fontSize: 56, color }} aria-hidden />
      <div style={{ fontSize: token.fontSizeHeading4, color: token.colorText, lineHeight: 1.4 }}>{title}</div>
      {hint ? <div style={{ color: token.colorTextSecondary }}>{hint}</div> : null}
      {actions ? (
        <Flex gap={8} wrap justify="center" style={{ marginTop: 12 }}>
          {actions}
        </Flex>
      ) : null}
    </Flex>
  );
}
