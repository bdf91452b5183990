import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  Button,
  DatePicker,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Table,
  type TableColumnsType,
  Tag,
} from "antd";
import type { Dayjs } from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useTRPC } from "../../lib/trpc.ts";
import type { Offering } from "../launchpad/launchpad-types.ts";
import { AdminPage, QueryError } from "./admin-page.tsx";
import { ConfirmActionDialog } from "./confirm-action-dialog.tsx";
import { LaunchpadSubscriptionsAdmin } from "./launchpad-subscriptions-admin.tsx";

const DECIMAL_FIELDS = [
  ["issue_price", "launchpad.issuePrice"],
  ["subscribe_price", "launchpad.subscribePrice"],
  ["total_quantity", "launchpad.total"],
  ["min_quantity", "launchpad.admin.minQuantity"],
  ["max_quantity", "launchpad.perUser"],
  ["circulation", "launchpad.circulation"],
] as const;

/** The form's dates (picked in the operator's time zone) as the API takes them: instants and a UTC day. */
function toOfferingInput(
  v: Record<string, unknown> & { starts_at: Dayjs; ends_at: Dayjs; listing_day: Dayjs },
) {
  return {
    ...v,
    starts_at: v.starts_at.toISOString(),
    ends_at: v.ends_at.toISOString(),
    listing_day: v.listing_day.format("YYYY-MM-DD"),
  };
}

/**
 * New-coin offerings in the back office: create one, run the allocation once its window has closed
 * (the server refuses it earlier), or end it as a failed issuance (every subscription refunded), and
 * release coins whose lock-up has ended; a row opens to the offering's subscriptions, where one under
 * review can be rejected. The server audits each action.
 */
export function LaunchpadAdminPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const offerings = useQuery(trpc.adminLaunchpad.offerings.queryOptions());
  const create = useMutation(trpc.adminLaunchpad.create.mutationOptions());
  const allocate = useMutation(trpc.adminLaunchpad.allocate.mutationOptions({ meta: { inline: true } }));
  const fail = useMutation(trpc.adminLaunchpad.fail.mutationOptions({ meta: { inline: true } }));
  const unlock = useMutation(trpc.adminLaunchpad.unlock.mutationOptions());
  const [open, setOpen] = useState(false);
  const [acting, setActing] = useState<{ id: number; kind: "allocate" | "fail" } | null>(null);
  const [form] = Form.useForm<Record<string, string | number>>();
  const refresh = () => queryClient.invalidateQueries(trpc.adminLaunchpad.pathFilter());

  const columns: TableColumnsType<Offering> = [
    { title: "ID", dataIndex: "id", width: 56 },
    { title: t("launchpad.admin.coin"), key: "coin", render: (_, o) => `${o.coin} · ${o.name}` },
    {
      title: t("launchpad.subscribePrice"),
      key: "price",
      render: (_, o) => `${o.subscribePrice} ${o.payCurrency}`,
    },
    { title: t("launchpad.total"), dataIndex: "totalQuantity", align: "right" },
    { title: t("launchpad.subscribed"), dataIndex: "subscribed", align: "right" },
    {
      title: t("launchpad.admin.endsAt"),
      dataIndex: "endsAt",
      render: (v: string) => new Date(v).toISOString(),
    },
    { title: "", dataIndex: "status", render: (s: string) => <Tag>{t(`launchpad.offering.${s}`)}</Tag> },
    {
      title: "",
      key: "actions",
      render: (_, o) =>
        o.status === "open" && (
          <Flex gap={8}>
            <Button size="small" type="primary" onClick={() => setActing({ id: o.id, kind: "allocate" })}>
              {t("launchpad.admin.allocate")}
            </Button>
            <Button size="small" danger onClick={() => setActing({ id: o.id, kind: "fail" })}>
              {t("launchpad.admin.fail")}
            </Button>
          </Flex>
        ),
    },
  ];

  return (
    <AdminPage
      title={t("launchpad.admin.title")}
      extra={
        <>
          <Button loading={unlock.isPending} onClick={() => void unlock.mutateAsync().then(refresh)}>
            {t("launchpad.admin.unlock")}
          </Button>
          <Button type="primary" onClick={() => setOpen(true)}>
            {t("launchpad.admin.create")}
          </Button>
        </>
      }
    >
      {offerings.isError ? (
        <QueryError error={offerings.error} onRetry={() => void offerings.refetch()} />
      ) : (
        <Table<Offering>
          rowKey="id"
          size="small"
          loading={offerings.isPending}
          dataSource={offerings.data ?? []}
          columns={columns}
          scroll={{ x: 900 }}
          pagination={false}
          expandable={{ expandedRowRender: (o) => <LaunchpadSubscriptionsAdmin offeringId={o.id} /> }}
        />
      )}
      <Modal
        open={open}
        title={t("launchpad.admin.create")}
        onCancel={() => setOpen(false)}
        onOk={() => form.submit()}
        confirmLoading={create.isPending}
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          initialValues={{ pay_currency: "USDT", lock_days: 30 }}
          onFinish={(v) =>
            void create
              .mutateAsync(toOfferingInput(v as never) as never)
              .then(() => {
                feedback.success(t("launchpad.admin.saved"));
                setOpen(false);
                void refresh();
              })
              .catch(() => undefined)
          }
        >
          <Form.Item
            name="coin"
            label={t("launchpad.admin.coin")}
            rules={[{ required: true, pattern: /^[A-Z0-9]{2,10}$/ }]}
          >
            <Input />
          </Form.Item>
          <Form.Item name="name" label={t("launchpad.admin.name")} rules={[{ required: true, max: 80 }]}>
            <Input />
          </Form.Item>
          <Form.Item name="pay_currency" label={t("launchpad.admin.payCurrency")}>
            <Input />
          </Form.Item>
          {DECIMAL_FIELDS.map(([name, label]) => (
            <Form.Item
              key={name}
              name={name}
              label={t(label)}
              rules={[{ required: true, pattern: /^\d+(\.\d+)?$/ }]}
            >
              <Input inputMode="decimal" />
            </Form.Item>
          ))}
          <Form.Item name="starts_at" label={t("launchpad.admin.startsAt")} rules={[{ required: true }]}>
            <DatePicker showTime style={{ width: "100%" }} data-testid="launchpad-starts-at" />
          </Form.Item>
          <Form.Item name="ends_at" label={t("launchpad.admin.endsAt")} rules={[{ required: true }]}>
            <DatePicker showTime style={{ width: "100%" }} data-testid="launchpad-ends-at" />
          </Form.Item>
          <Form.Item name="lock_days" label={t("launchpad.lockDays")}>
            <InputNumber min={0} max={3650} precision={0} />
          </Form.Item>
          <Form.Item name="listing_day" label={t("launchpad.listingDay")} rules={[{ required: true }]}>
            <DatePicker style={{ width: "100%" }} data-testid="launchpad-listing-day" />
          </Form.Item>
        </Form>
      </Modal>
      <ConfirmActionDialog
        open={acting !== null}
        title={acting?.kind === "fail" ? t("launchpad.admin.fail") : t("launchpad.admin.allocate")}
        description={acting ? `ID ${acting.id}` : ""}
        okText={acting?.kind === "fail" ? t("launchpad.admin.fail") : t("launchpad.admin.allocate")}
        danger={acting?.kind === "fail"}
        reasonRequired={acting?.kind === "fail"}
        onSubmit={(reason) =>
          (acting?.kind === "fail"
            ? fail.mutateAsync({ id: acting.id, reason })
            : allocate.mutateAsync({ id: acting?.id ?? 0 })
          ).then(refresh)
        }
        onClose={() => setActing(null)}
      />
    </AdminPage>
  );
}
