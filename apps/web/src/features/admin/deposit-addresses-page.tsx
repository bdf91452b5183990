import { EditOutlined } from "@ant-design/icons";
import { zChain, zCurrency } from "@northstar/shared/contracts/funding";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TableColumnsType } from "antd";
import { Button, Card, Col, Flex, Form, Input, Row, Switch, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { feedback } from "../../lib/feedback.ts";
import { zodRule } from "../../lib/form-rules.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { AdminPage, RefreshButton } from "./admin-page.tsx";
import type { AdminInputs, DepositAddressRow } from "./admin-types.ts";
import { Code } from "./code-text.tsx";
import { ConfirmActionDialog } from "./confirm-action-dialog.tsx";
import { DateTime } from "./date-time.tsx";
import { QueueTable } from "./queue-table.tsx";

type AddressInput = AdminInputs["setDepositAddress"];

interface AddressForm {
  currency: string;
  chain: string;
  address: string;
  memo?: string;
  enabled: boolean;
}

// The server's bounds (admin.setDepositAddress), so the form refuses what the server would.
const zAddress = z.string().trim().min(10).max(120);
const zMemo = z.string().max(64);

/**
 * The addresses users are shown for crypto deposits, one per currency and chain. Setting one
 * replaces the address for that pair (audited with the new values); it never touches a balance.
 */
export function DepositAddressesPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<AddressForm>();
  const list = useQuery(trpc.admin.depositAddresses.queryOptions());
  const save = useMutation(trpc.admin.setDepositAddress.mutationOptions({ meta: { inline: true } }));
  const [pending, setPending] = useState<AddressInput | null>(null);

  const edit = (row: DepositAddressRow) => {
    window.scrollTo({ top: 0, behavior: "smooth" });
    form.setFieldsValue({
      currency: row.currency,
      chain: row.chain,
      address: row.address,
      memo: row.memo ?? "",
      enabled: row.enabled,
    });
  };

  const columns: TableColumnsType<DepositAddressRow> = [
    {
      title: t("fields.currency"),
      dataIndex: "currency",
      width: 100,
      render: (value: string) => <Typography.Text strong>{value}</Typography.Text>,
    },
    { title: t("fields.chain"), dataIndex: "chain", width: 90 },
    {
      title: t("fields.address"),
      dataIndex: "address",
      width: 390,
      render: (value: string) => <Code value={value} width={370} />,
    },
    {
      title: t("fields.memo"),
      dataIndex: "memo",
      width: 110,
      render: (value: string | null) => value || <Typography.Text type="secondary">—</Typography.Text>,
    },
    {
      title: t("admin.columns.enabled"),
      dataIndex: "enabled",
      width: 90,
      render: (value: boolean) =>
        value ? <Tag color="success">{t("admin.addresses.on")}</Tag> : <Tag>{t("admin.addresses.off")}</Tag>,
    },
    {
      title: t("admin.columns.created"),
      dataIndex: "createdAt",
      width: 130,
      render: (value: string) => <DateTime value={value} stacked />,
    },
    {
      title: t("admin.columns.actions"),
      key: "actions",
      width: 100,
      fixed: "right",
      render: (_, row) => (
        <Button
          size="small"
          icon={<EditOutlined />}
          onClick={() => edit(row)}
          data-testid={`admin-address-edit-${row.currency}-${row.chain}`}
        >
          {t("common.edit")}
        </Button>
      ),
    },
  ];

  return (
    <AdminPage
      title={t("admin.addresses.title")}
      extra={<RefreshButton onClick={() => void list.refetch()} loading={list.isFetching} />}
    >
      <Card title={t("admin.addresses.formTitle")}>
        <Form<AddressForm>
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={{ enabled: true }}
          onFinish={(values) =>
            setPending({
              currency: values.currency.trim().toUpperCase(),
              chain: values.chain.trim().toUpperCase(),
              address: values.address.trim(),
              memo: values.memo?.trim() ? values.memo.trim() : undefined,
              enabled: values.enabled,
            })
          }
        >
          <Row gutter={12}>
            <Col xs={12} md={4} xl={3}>
              <Form.Item
                name="currency"
                label={t("fields.currency")}
                rules={[zodRule(zCurrency, t, "currency")]}
                normalize={(v?: string) => v?.toUpperCase()}
              >
                <Input placeholder="USDT" maxLength={10} data-testid="admin-address-currency" />
              </Form.Item>
            </Col>
            <Col xs={12} md={4} xl={3}>
              <Form.Item
                name="chain"
                label={t("fields.chain")}
                rules={[zodRule(zChain, t, "chain")]}
                normalize={(v?: string) => v?.toUpperCase()}
              >
                <Input placeholder="ERC20" maxLength={12} data-testid="admin-address-chain" />
              </Form.Item>
            </Col>
            <Col xs={24} md={16} xl={10}>
              <Form.Item name="address" label={t("fields.address")} rules={[zodRule(zAddress, t, "address")]}>
                <Input maxLength={120} data-testid="admin-address-address" />
              </Form.Item>
            </Col>
            <Col xs={16} md={12} xl={5}>
              <Form.Item name="memo" label={t("fields.memo")} rules={[zodRule(zMemo, t, "memo")]}>
                <Input
                  maxLength={64}
                  placeholder={t("admin.addresses.memoHint")}
                  data-testid="admin-address-memo"
                />
              </Form.Item>
            </Col>
            <Col xs={8} md={4} xl={3}>
              <Form.Item name="enabled" label={t("admin.columns.enabled")} valuePropName="checked">
                <Switch data-testid="admin-address-enabled" />
              </Form.Item>
            </Col>
          </Row>
          <Flex gap={12} align="center" justify="space-between" wrap>
            <Typography.Text type="secondary">{t("admin.addresses.replaceNote")}</Typography.Text>
            <Flex gap={8}>
              <Button onClick={() => form.resetFields()}>{t("admin.addresses.clear")}</Button>
              <Button type="primary" htmlType="submit" data-testid="admin-address-save">
                {t("common.save")}
              </Button>
            </Flex>
          </Flex>
        </Form>
      </Card>
      <QueueTable<DepositAddressRow>
        list={list}
        columns={columns}
        rowTestIdPrefix={(r) => `admin-address-row-${r.currency}-${r.chain}`}
        emptyText={t("admin.addresses.empty")}
        paged={false}
      />
      <ConfirmActionDialog
        open={pending !== null}
        title={t("admin.addresses.confirmTitle", { currency: pending?.currency, chain: pending?.chain })}
        description={
          pending && (
            <Flex vertical gap={8}>
              <span>
                {pending.enabled ? t("admin.addresses.confirmOn") : t("admin.addresses.confirmOff")}
              </span>
              <Typography.Text code copyable style={{ wordBreak: "break-all" }}>
                {pending.address}
              </Typography.Text>
              {pending.memo && (
                <span>
                  {t("fields.memo")}: <Typography.Text code>{pending.memo}</Typography.Text>
                </span>
              )}
            </Flex>
          )
        }
        okText={t("common.save")}
        onClose={() => setPending(null)}
        onSubmit={async () => {
          if (!pending) {
            return;
          }
          try {
            await save.mutateAsync(pending);
            feedback.success(t("common.saved"));
            form.resetFields();
          } finally {
            void queryClient.invalidateQueries();
          }
        }}
      />
    </AdminPage>
  );
}
