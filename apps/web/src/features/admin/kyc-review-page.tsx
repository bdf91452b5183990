import { REJECT_REASONS } from "@northstar/shared/kyc";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TableColumnsType } from "antd";
import { Flex, Form, Input, InputNumber, Modal, Segmented, Select, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { usePolicy } from "../../lib/policy.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useCountryName } from "../identity/country-list.ts";
import { AdminPage, RefreshButton } from "./admin-page.tsx";
import { DateTime } from "./date-time.tsx";
import { kycDetailRows, kycPhotoLabel } from "./kyc-details.ts";
import { ProofImage } from "./proof-image.tsx";
import { QueueTable } from "./queue-table.tsx";
import { ReviewButtons } from "./review-controls.tsx";

const STATUSES = ["under_review", "approved", "rejected"] as const;
const LEVELS = ["all", "primary", "advanced", "address", "credit"] as const;
type Status = (typeof STATUSES)[number];

interface KycRow {
  id: number;
  userId: number;
  level: string;
  status: string;
  details: Record<string, unknown>;
  photos: { role: string; uploadId: string }[];
  rejectReason: string | null;
  rejectNote: string | null;
  assessmentPoints: number | null;
  createdAt: string;
  reviewedAt: string | null;
}

/**
 * /admin/kyc: one queue for primary and advanced KYC, address and credit proofs, with the photos
 * (private, fetched with the operator's header, each labelled by what it shows) and the details under
 * their form labels, the document number in full to compare with the photo. Approve, or reject
 * with a reason from the translated list plus optional text; each decision is audited. Reviewed
 * rows show their decision, so the filter on approved and rejected is the decision history.
 */
export function KycReviewPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const policy = usePolicy();
  const countryName = useCountryName();
  const [status, setStatus] = useState<Status>("under_review");
  const [level, setLevel] = useState<(typeof LEVELS)[number]>("all");
  const list = useQuery(
    trpc.admin.kyc.queue.queryOptions(
      { status, ...(level === "all" ? {} : { level }) },
      { refetchInterval: 30_000 },
    ),
  );
  const approve = useMutation(trpc.admin.kyc.approve.mutationOptions({ meta: { inline: true } }));
  const reject = useMutation(trpc.admin.kyc.reject.mutationOptions({ meta: { inline: true } }));
  const [action, setAction] = useState<{ kind: "approve" | "reject"; row: KycRow } | null>(null);
  const [form] = Form.useForm<{ reason?: string; note?: string; points?: number }>();

  const columns: TableColumnsType<KycRow> = [
    { title: t("fields.id"), dataIndex: "id", width: 56, fixed: "left" },
    { title: t("admin.columns.user"), dataIndex: "userId", width: 72 },
    {
      title: t("kyc.admin.level"),
      dataIndex: "level",
      width: 110,
      render: (value: string) => <Tag>{t(`kyc.admin.levels.${value}`)}</Tag>,
    },
    {
      title: t("kyc.admin.details"),
      dataIndex: "details",
      width: 280,
      render: (details: Record<string, unknown>) => (
        <Flex vertical data-testid="admin-kyc-details">
          {kycDetailRows(details, t, countryName).map((r) => (
            <Typography.Text key={r.key} style={{ fontSize: 12 }} ellipsis={{ tooltip: r.value }}>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {r.label}:
              </Typography.Text>{" "}
              <span data-testid={`admin-kyc-detail-${r.key}`}>{r.value}</span>
            </Typography.Text>
          ))}
        </Flex>
      ),
    },
    {
      title: t("kyc.admin.photos"),
      dataIndex: "photos",
      width: 240,
      render: (photos: KycRow["photos"]) => (
        <Flex gap={6} wrap>
          {photos.map((p) => (
            <Flex key={p.uploadId} vertical align="center" gap={2} style={{ width: 64 }}>
              <ProofImage id={p.uploadId} size={56} />
              <Typography.Text type="secondary" style={{ fontSize: 11, textAlign: "center" }}>
                {kycPhotoLabel(p.role, t)}
              </Typography.Text>
            </Flex>
          ))}
        </Flex>
      ),
    },
    {
      title: t("admin.columns.time"),
      dataIndex: "createdAt",
      width: 130,
      render: (value: string) => <DateTime value={value} stacked />,
    },
    {
      title: status === "under_review" ? t("admin.columns.actions") : t("fields.status"),
      key: "review",
      width: status === "under_review" ? 120 : 200,
      fixed: "right",
      render: (_, row) =>
        row.status === "under_review" ? (
          <ReviewButtons
            acceptLabel={t("kyc.admin.approve")}
            testIdPrefix={{ accept: `admin-kyc-approve-${row.id}`, reject: `admin-kyc-reject-${row.id}` }}
            onAccept={() => setAction({ kind: "approve", row })}
            onReject={() => setAction({ kind: "reject", row })}
          />
        ) : (
          <Flex vertical gap={2} align="flex-start">
            <Tag color={row.status === "approved" ? "success" : "error"}>{t(`kyc.status.${row.status}`)}</Tag>
            {row.reviewedAt && <DateTime value={row.reviewedAt} />}
            {row.rejectReason && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t(`kyc.reasons.${row.rejectReason}`)}
                {row.rejectNote ? ` — ${row.rejectNote}` : ""}
              </Typography.Text>
            )}
            {row.assessmentPoints !== null && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t("kyc.admin.points")}: {row.assessmentPoints}
              </Typography.Text>
            )}
          </Flex>
        ),
    },
  ];

  const row = action?.row;
  const close = () => {
    setAction(null);
    form.resetFields();
  };
  const submit = async () => {
    if (!row || !action) {
      return;
    }
    const values = await form.validateFields();
    try {
      if (action.kind === "approve") {
        await approve.mutateAsync({ id: row.id, assessment_points: values.points });
        feedback.success(t("kyc.admin.approved", { id: row.id }));
      } else {
        await reject.mutateAsync({
          id: row.id,
          reason: values.reason as (typeof REJECT_REASONS)[number],
          note: values.note?.trim() || undefined,
        });
        feedback.success(t("kyc.admin.rejected", { id: row.id }));
      }
      close();
    } catch (error) {
      feedback.warning(error instanceof Error ? error.message : t("errors.REQUEST_ERROR"));
    } finally {
      void queryClient.invalidateQueries({ queryKey: trpc.admin.kyc.queue.queryKey() });
    }
  };

  return (
    <AdminPage
      title={t("kyc.admin.title")}
      extra={
        <>
          <Segmented<Status>
            value={status}
            onChange={setStatus}
            options={STATUSES.map((s) => ({ value: s, label: t(`kyc.status.${s}`) }))}
            data-testid="admin-kyc-status"
          />
          <Select
            value={level}
            onChange={setLevel}
            style={{ minWidth: 130 }}
            options={LEVELS.map((l) => ({
              value: l,
              label: l === "all" ? t("kyc.admin.all") : t(`kyc.admin.levels.${l}`),
            }))}
          />
          <RefreshButton onClick={() => void list.refetch()} loading={list.isFetching} />
        </>
      }
    >
      <QueueTable<KycRow>
        list={list as never}
        columns={columns}
        rowTestIdPrefix="admin-kyc-row-"
        emptyText={t("kyc.admin.empty")}
        testId="admin-kyc-table"
      />
      <Modal
        open={action !== null}
        title={
          row
            ? t(action?.kind === "reject" ? "kyc.admin.rejectTitle" : "kyc.admin.approveTitle", {
                id: row.id,
              })
            : ""
        }
        okText={action?.kind === "reject" ? t("kyc.admin.reject") : t("kyc.admin.approve")}
        okButtonProps={{ danger: action?.kind === "reject", "data-testid": "admin-kyc-confirm" } as never}
        confirmLoading={approve.isPending || reject.isPending}
        onOk={() => void submit()}
        onCancel={close}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" requiredMark={false} preserve={false}>
          {action?.kind === "reject" && (
            <>
              <Form.Item
                name="reason"
                label={t("kyc.admin.reason")}
                rules={[{ required: true, message: t("errors.REJECT_REASON_REQUIRED") }]}
              >
                <Select
                  data-testid="admin-kyc-reason"
                  options={REJECT_REASONS.map((r) => ({ value: r, label: t(`kyc.reasons.${r}`) }))}
                />
              </Form.Item>
              <Form.Item name="note" label={t("kyc.admin.note")}>
                <Input.TextArea maxLength={300} autoSize={{ minRows: 2 }} />
              </Form.Item>
            </>
          )}
          {action?.kind === "approve" && row?.level === "credit" && (
            <Form.Item
              name="points"
              label={t("kyc.admin.points")}
              initialValue={policy["kyc.credit.points"].assessmentMax}
            >
              <InputNumber min={0} max={policy["kyc.credit.points"].assessmentMax} />
            </Form.Item>
          )}
        </Form>
      </Modal>
    </AdminPage>
  );
}
