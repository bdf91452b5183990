import { CheckOutlined, CloseOutlined, FileImageOutlined, ReloadOutlined } from "@ant-design/icons";
import { LANGUAGE_INFO } from "@northstar/shared/languages";
import { money } from "@northstar/shared/money";
import {
  Alert,
  Button,
  Card,
  Empty,
  Flex,
  Form,
  Image,
  Input,
  Modal,
  Result,
  Segmented,
  Skeleton,
  Table,
  type TableColumnsType,
  Tag,
  Tooltip,
  Typography,
  theme,
} from "antd";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { usePrivateFile } from "../../lib/private-file.ts";
import { useLanguage } from "../../lib/session.ts";
import { refusalText } from "./admin-query-client.ts";
import { operatorTokenStore } from "./operator-session.ts";

/**
 * A decimal string as it is, trailing zeros trimmed ("100.500000" → "100.5"). Computed with
 * decimal.js: a JS number never holds money. A value that is not a decimal is shown unchanged.
 */
export function trimAmount(value: string | null | undefined): string {
  if (value === null || value === undefined || value === "") {
    return "—";
  }
  try {
    return money(value).toFixed();
  } catch {
    return value;
  }
}

export function Amount({ value, signed = false }: { value: string | null | undefined; signed?: boolean }) {
  const { token } = theme.useToken();
  const text = trimAmount(value);
  const negative = text.startsWith("-");
  const color =
    !signed || text === "—" || text === "0" ? undefined : negative ? token.colorError : token.colorSuccess;
  return (
    <span style={{ fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap", color }}>
      {signed && !negative && text !== "0" && text !== "—" ? `+${text}` : text}
    </span>
  );
}

type TimeValue = string | number | Date | null | undefined;

function toDate(value: TimeValue): Date | null {
  if (value === null || value === undefined || value === "") {
    return null;
  }
  const date = typeof value === "number" ? new Date(value * 1000) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Date and time in the interface language; accepts an ISO string, a Date or unix seconds. */
export function useFormatDateTime(): {
  dateTime: (value: TimeValue) => string;
  date: (value: TimeValue) => string;
  time: (value: TimeValue) => string;
} {
  const lang = useLanguage();
  return useMemo(() => {
    const locale = LANGUAGE_INFO[lang].bcp47;
    const both = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "medium" });
    const day = new Intl.DateTimeFormat(locale, { dateStyle: "medium" });
    const clock = new Intl.DateTimeFormat(locale, { timeStyle: "medium" });
    const fmt = (format: Intl.DateTimeFormat) => (value: TimeValue) => {
      const date = toDate(value);
      return date ? format.format(date) : value ? String(value) : "—";
    };
    return { dateTime: fmt(both), date: fmt(day), time: fmt(clock) };
  }, [lang]);
}

/** A moment on one line, or `stacked` as the date over the time (for narrow table columns). */
export function DateTime({ value, stacked = false }: { value: TimeValue; stacked?: boolean }) {
  const format = useFormatDateTime();
  if (stacked && toDate(value)) {
    return (
      <Flex vertical style={{ whiteSpace: "nowrap" }}>
        <span>{format.date(value)}</span>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {format.time(value)}
        </Typography.Text>
      </Flex>
    );
  }
  return <span style={{ whiteSpace: "nowrap" }}>{format.dateTime(value)}</span>;
}

const STATUS_COLOR: Record<string, string> = {
  pending: "processing",
  success: "success",
  failed: "error",
  cancelled: "default",
};

/** A review status as a tag; a rejection shows its reason on hover. */
export function StatusTag({ status, reason }: { status: string; reason?: string | null }) {
  const { t } = useTranslation();
  const tag = (
    <Tag color={STATUS_COLOR[status] ?? "default"} style={{ marginInlineEnd: 0 }}>
      {t(`admin.status.${status}`, { defaultValue: status })}
    </Tag>
  );
  return reason ? <Tooltip title={`${t("fields.reason")}: ${reason}`}>{tag}</Tooltip> : tag;
}

/** A long code (hash, address) in monospace, shortened, copyable in full. */
export function Code({ value, width = 180 }: { value: string | null | undefined; width?: number }) {
  if (!value) {
    return <Typography.Text type="secondary">—</Typography.Text>;
  }
  return (
    <Typography.Text
      copyable={{ text: value }}
      ellipsis={{ tooltip: value }}
      style={{ maxWidth: width, fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace" }}
    >
      {value}
    </Typography.Text>
  );
}

/** Pretty JSON in a scrollable block, coloured by the theme. */
export function JsonBlock({ value, maxHeight = 160 }: { value: unknown; maxHeight?: number }) {
  const { token } = theme.useToken();
  return (
    <pre
      style={{
        margin: 0,
        maxHeight,
        maxWidth: 480,
        overflow: "auto",
        padding: "4px 8px",
        fontSize: token.fontSizeSM,
        background: token.colorFillQuaternary,
        borderRadius: token.borderRadiusSM,
        whiteSpace: "pre-wrap",
        wordBreak: "break-all",
      }}
    >
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

/**
 * A proof image, fetched with the operator's header (uploads are private). Click enlarges it.
 */
export function ProofImage({ id, size = 48 }: { id: string | null | undefined; size?: number }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const state = usePrivateFile(id ? `/uploads/${encodeURIComponent(id)}` : undefined, {
    "x-operator-token": operatorTokenStore.get(),
  });

  if (!id) {
    return <Typography.Text type="secondary">{t("admin.proof.none")}</Typography.Text>;
  }
  if (state.failed) {
    return (
      <Tooltip title={t("admin.proof.failed")}>
        <Flex
          align="center"
          justify="center"
          style={{
            width: size,
            height: size,
            borderRadius: token.borderRadiusSM,
            background: token.colorFillTertiary,
            color: token.colorTextTertiary,
          }}
        >
          <FileImageOutlined />
        </Flex>
      </Tooltip>
    );
  }
  if (!state.url) {
    return <Skeleton.Node active style={{ width: size, height: size }} />;
  }
  return (
    <Image
      src={state.url}
      width={size}
      height={size}
      alt={t("fields.proof")}
      style={{ objectFit: "cover", borderRadius: token.borderRadiusSM }}
      preview={{ mask: t("admin.proof.enlarge") }}
    />
  );
}

/** A page of the back office: its title, tools on the right, then the content. */
export function AdminPage({
  title,
  extra,
  children,
}: {
  title: ReactNode;
  extra?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Flex vertical gap={16}>
      <Flex align="center" justify="space-between" gap={12} wrap>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        {extra && (
          <Flex gap={8} wrap align="center">
            {extra}
          </Flex>
        )}
      </Flex>
      {children}
    </Flex>
  );
}

export function RefreshButton({ onClick, loading }: { onClick: () => void; loading: boolean }) {
  const { t } = useTranslation();
  return (
    <Button icon={<ReloadOutlined />} onClick={onClick} loading={loading} data-testid="admin-refresh">
      {t("admin.refresh")}
    </Button>
  );
}

/** The error of a query as a page state: the server's own refusal text, with a retry. */
export function QueryError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Result
      status="warning"
      title={t("common.loadFailed")}
      subTitle={refusalText(error)}
      extra={<Button onClick={onRetry}>{t("common.retry")}</Button>}
    />
  );
}

export function EmptyText({ text }: { text?: string }) {
  const { t } = useTranslation();
  return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text ?? t("common.empty")} />;
}

/**
 * The confirmation of an operator action. With `reasonRequired` it asks for a reason (1–200
 * characters, the server's bounds). The server's refusal is shown in the dialog.
 */
export function ConfirmActionDialog({
  open,
  title,
  description,
  okText,
  danger,
  reasonRequired,
  onSubmit,
  onClose,
}: {
  open: boolean;
  title: ReactNode;
  description: ReactNode;
  okText: string;
  danger?: boolean;
  reasonRequired?: boolean;
  onSubmit: (reason: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  useEffect(() => {
    if (open) {
      form.resetFields();
      setError(undefined);
    }
  }, [open, form]);

  const submit = async () => {
    let reason = "";
    if (reasonRequired) {
      try {
        reason = (await form.validateFields()).reason.trim();
      } catch {
        return;
      }
    }
    setBusy(true);
    setError(undefined);
    try {
      await onSubmit(reason);
      onClose();
    } catch (e) {
      setError(refusalText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      cancelText={t("common.cancel")}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={busy}
      okButtonProps={{ danger, "data-testid": "admin-confirm-ok" }}
      cancelButtonProps={{ "data-testid": "admin-confirm-cancel" }}
      destroyOnHidden
      mask={{ closable: !busy }}
    >
      <Flex vertical gap={12}>
        <Typography.Paragraph style={{ margin: 0 }}>{description}</Typography.Paragraph>
        {reasonRequired && (
          <Form form={form} layout="vertical" requiredMark={false}>
            <Form.Item
              name="reason"
              label={t("fields.reason")}
              extra={t("admin.review.reasonHint")}
              rules={[
                {
                  required: true,
                  whitespace: true,
                  message: t("errors.FIELD_REQUIRED", { field: t("fields.reason") }),
                },
                { max: 200, message: t("admin.review.reasonTooLong", { max: 200 }) },
              ]}
              style={{ marginBottom: 0 }}
            >
              <Input.TextArea rows={3} maxLength={200} showCount data-testid="admin-reject-reason" />
            </Form.Item>
          </Form>
        )}
        {error && <Alert type="error" showIcon title={error} data-testid="admin-action-error" />}
      </Flex>
    </Modal>
  );
}

/**
 * A queue's status filter, kept in the URL (`?status=`) so a filtered queue can be linked to.
 * The first status is the default.
 */
export function useStatusFilter<S extends string>(
  statuses: readonly S[],
): [S | "all", (s: S | "all") => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get("status");
  const status: S | "all" = raw === "all" ? "all" : (statuses.find((s) => s === raw) ?? (statuses[0] as S));
  const set = (next: S | "all") => {
    const copy = new URLSearchParams(params);
    if (next === statuses[0]) {
      copy.delete("status");
    } else {
      copy.set("status", next);
    }
    setParams(copy, { replace: true });
  };
  return [status, set];
}

export function StatusFilter<S extends string>({
  statuses,
  value,
  onChange,
}: {
  statuses: readonly S[];
  value: S | "all";
  onChange: (s: S | "all") => void;
}) {
  const { t } = useTranslation();
  return (
    <Segmented<S | "all">
      value={value}
      onChange={onChange}
      options={[...statuses, "all" as const].map((s) => ({
        value: s,
        label: <span data-testid={`admin-status-${s}`}>{t(`admin.status.${s}`)}</span>,
      }))}
    />
  );
}

/** Props for a table row carrying a test id (antd's row props are plain HTML attributes). */
export function rowTestId(testId: string): React.HTMLAttributes<HTMLElement> {
  return { "data-testid": testId } as React.HTMLAttributes<HTMLElement>;
}

/** A table's footer note: how many rows, and that queues show the newest 200. */
export function useTablePagination() {
  const { t } = useTranslation();
  return {
    defaultPageSize: 20,
    style: { marginInline: 16 },
    showSizeChanger: true,
    pageSizeOptions: [20, 50, 100, 200],
    showTotal: (total: number) => t("admin.table.total", { count: total }),
  };
}

/** The width a table needs for its columns: it scrolls sideways below that, and fills wider screens. */
export function tableWidth(columns: readonly { width?: number | string }[]): number {
  return columns.reduce((sum, c) => sum + (typeof c.width === "number" ? c.width : 160), 0);
}

/** A reviewed request's state: its status tag (with the rejection reason on hover) and when it was reviewed. */
export function ReviewState({
  row,
}: {
  row: { status: string; rejectReason: string | null; reviewedAt: string | null };
}) {
  const { t } = useTranslation();
  const format = useFormatDateTime();
  return (
    <Flex vertical gap={2} align="flex-start">
      <StatusTag status={row.status} reason={row.rejectReason} />
      {row.reviewedAt && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t("admin.review.reviewedAt")} {format.dateTime(row.reviewedAt)}
        </Typography.Text>
      )}
      {row.rejectReason && (
        <Typography.Text
          type="secondary"
          ellipsis={{ tooltip: row.rejectReason }}
          style={{ fontSize: 12, maxWidth: 200 }}
        >
          {row.rejectReason}
        </Typography.Text>
      )}
    </Flex>
  );
}

/** The two review buttons of a pending row in a queue: accept (confirm or approve) and reject. */
export function ReviewButtons({
  acceptLabel,
  testIdPrefix,
  onAccept,
  onReject,
}: {
  acceptLabel: string;
  /** e.g. "admin-deposit-confirm" and "admin-deposit-reject" come from ("admin-deposit", "confirm"). */
  testIdPrefix: { accept: string; reject: string };
  onAccept: () => void;
  onReject: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={6} align="stretch" style={{ maxWidth: 120 }}>
      <Button
        type="primary"
        size="small"
        icon={<CheckOutlined />}
        onClick={onAccept}
        data-testid={testIdPrefix.accept}
      >
        {acceptLabel}
      </Button>
      <Button
        danger
        size="small"
        icon={<CloseOutlined />}
        onClick={onReject}
        data-testid={testIdPrefix.reject}
      >
        {t("admin.review.reject")}
      </Button>
    </Flex>
  );
}

/** A review queue's table in its card, with the error, loading and empty states. */
export function QueueTable<T extends { id: number }>({
  list,
  columns,
  rowTestIdPrefix,
  emptyText,
  testId,
}: {
  list: {
    data: T[] | undefined;
    isPending: boolean;
    isError: boolean;
    error: unknown;
    refetch: () => unknown;
  };
  columns: TableColumnsType<T>;
  rowTestIdPrefix: string;
  emptyText: string;
  testId: string;
}) {
  const pagination = useTablePagination();
  return (
    <Card styles={{ body: { padding: 0 } }}>
      {list.isError ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <Table<T>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={list.data}
          loading={list.isPending}
          scroll={{ x: tableWidth(columns) }}
          pagination={pagination}
          onRow={(r) => rowTestId(`${rowTestIdPrefix}${r.id}`)}
          locale={{ emptyText: list.isPending ? " " : <EmptyText text={emptyText} /> }}
          data-testid={testId}
        />
      )}
    </Card>
  );
}
