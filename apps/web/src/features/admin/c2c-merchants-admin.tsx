import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Flex, Input, Modal, Table, type TableColumnsType, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useTRPC } from "../../lib/trpc.ts";
import type { C2cAdminMerchant } from "../c2c/c2c-types.ts";
import { QueryError } from "./admin-page.tsx";
import { C2cMerchantForm, type MerchantValues } from "./c2c-merchant-form.tsx";

type StockMove = { merchant: C2cAdminMerchant; kind: "fund" | "withdraw" };

/** Merchants with their free and reserved stock; create, edit, pause, and move stock in or out of escrow. */
export function C2cMerchantsAdmin() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const merchants = useQuery(trpc.c2cAdmin.merchants.queryOptions());
  const create = useMutation(trpc.c2cAdmin.createMerchant.mutationOptions());
  const update = useMutation(trpc.c2cAdmin.updateMerchant.mutationOptions());
  const pause = useMutation(trpc.c2cAdmin.pauseMerchant.mutationOptions());
  const resume = useMutation(trpc.c2cAdmin.resumeMerchant.mutationOptions());
  const fund = useMutation(trpc.c2cAdmin.fundStock.mutationOptions());
  const withdraw = useMutation(trpc.c2cAdmin.withdrawStock.mutationOptions());
  const [editing, setEditing] = useState<C2cAdminMerchant | "new" | null>(null);
  const [moving, setMoving] = useState<StockMove | null>(null);
  const [amount, setAmount] = useState("");
  const refresh = () => queryClient.invalidateQueries(trpc.c2cAdmin.pathFilter());

  const save = (values: MerchantValues) => {
    const action =
      editing && editing !== "new"
        ? update.mutateAsync({ id: editing.id, data: values as never })
        : create.mutateAsync(values as never);
    void action
      .then(() => {
        feedback.success(t("c2c.admin.saved"));
        setEditing(null);
        void refresh();
      })
      .catch(() => undefined);
  };
  const move = () => {
    if (!moving) {
      return;
    }
    const input = { merchant_id: moving.merchant.id, amount };
    void (moving.kind === "fund" ? fund.mutateAsync(input) : withdraw.mutateAsync(input))
      .then(() => {
        setMoving(null);
        setAmount("");
        void refresh();
      })
      .catch(() => undefined);
  };

  const columns: TableColumnsType<C2cAdminMerchant> = [
    { title: "ID", dataIndex: "id", width: 56 },
    { title: t("fields.name"), dataIndex: "name" },
    { title: t("c2c.price"), key: "price", render: (_, m) => `1 ${m.coin} = ${m.price} ${m.fiat}` },
    { title: t("c2c.limits"), key: "limits", render: (_, m) => `${m.minFiat} – ${m.maxFiat} ${m.fiat}` },
    { title: t("c2c.stock"), dataIndex: "stock", align: "right" },
    { title: t("c2c.admin.reserved"), dataIndex: "reserved", align: "right" },
    {
      title: t("fields.payeeName"),
      key: "payee",
      render: (_, m) => `${m.payeeName} · ${m.bankName} · ${m.bankAccount}`,
    },
    {
      title: "",
      dataIndex: "status",
      render: (s: string) => <Tag>{t(`c2c.admin.merchantStatus.${s}`)}</Tag>,
    },
    {
      title: "",
      key: "actions",
      render: (_, m) => (
        <Flex gap={8} wrap>
          <Button size="small" type="primary" onClick={() => setMoving({ merchant: m, kind: "fund" })}>
            {t("c2c.admin.fund")}
          </Button>
          <Button size="small" onClick={() => setMoving({ merchant: m, kind: "withdraw" })}>
            {t("c2c.admin.withdraw")}
          </Button>
          <Button size="small" onClick={() => setEditing(m)}>
            {t("c2c.admin.editMerchant")}
          </Button>
          <Button
            size="small"
            onClick={() =>
              void (m.status === "active" ? pause : resume).mutateAsync({ id: m.id }).then(refresh)
            }
          >
            {m.status === "active" ? t("c2c.admin.pause") : t("c2c.admin.resume")}
          </Button>
        </Flex>
      ),
    },
  ];

  return (
    <>
      <Flex justify="end" style={{ marginBottom: 12 }}>
        <Button type="primary" onClick={() => setEditing("new")}>
          {t("c2c.admin.createMerchant")}
        </Button>
      </Flex>
      {merchants.isError ? (
        <QueryError error={merchants.error} onRetry={() => void merchants.refetch()} />
      ) : (
        <Table<C2cAdminMerchant>
          rowKey="id"
          size="small"
          loading={merchants.isPending}
          dataSource={merchants.data ?? []}
          columns={columns}
          scroll={{ x: 1100 }}
          pagination={false}
        />
      )}
      <C2cMerchantForm
        open={editing !== null}
        merchant={editing && editing !== "new" ? editing : undefined}
        busy={create.isPending || update.isPending}
        onSave={save}
        onClose={() => setEditing(null)}
      />
      <Modal
        open={moving !== null}
        title={moving ? `${t(`c2c.admin.${moving.kind}`)} · ${moving.merchant.name}` : ""}
        onCancel={() => setMoving(null)}
        onOk={move}
        okButtonProps={{ disabled: !/^\d+(\.\d+)?$/.test(amount) }}
        confirmLoading={fund.isPending || withdraw.isPending}
        destroyOnHidden
      >
        <Input
          value={amount}
          onChange={(e) => setAmount(e.target.value.trim())}
          inputMode="decimal"
          suffix={moving?.merchant.coin}
          placeholder={t("fields.amount")}
        />
      </Modal>
    </>
  );
}
