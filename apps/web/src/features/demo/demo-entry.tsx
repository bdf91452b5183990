import { ExperimentOutlined } from "@ant-design/icons";
import { formatAmount } from "@northstar/shared/money";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Modal, Radio, Space, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { startDemo } from "../../lib/demo.ts";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { usePolicy } from "../../lib/policy.ts";

/** The login screen's "demo account": pick a simulated amount and start trading with it. */
export function DemoEntry() {
  const { t } = useTranslation();
  const policy = usePolicy();
  const amounts = policy["demo.amounts"];
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const go = useAppNavigate();
  const queryClient = useQueryClient();
  const chosen = amount ?? amounts[0];

  const start = async () => {
    if (!chosen) {
      return;
    }
    setBusy(true);
    try {
      await startDemo(chosen);
      await queryClient.invalidateQueries();
      setOpen(false);
      go("/table1");
    } catch {
      // shown by the client rules
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button block icon={<ExperimentOutlined />} onClick={() => setOpen(true)} data-testid="demo-open">
        {t("common.demo.try")}
      </Button>
      <Modal
        open={open}
        title={t("common.demo.title")}
        okText={t("common.demo.start")}
        cancelText={t("common.cancel")}
        confirmLoading={busy}
        onOk={start}
        onCancel={() => setOpen(false)}
        okButtonProps={{ "data-testid": "demo-start" } as Record<`data-${string}`, string>}
      >
        <Typography.Paragraph type="secondary">
          {t("common.demo.explain", { days: policy["demo.ttlDays"] })}
        </Typography.Paragraph>
        <Radio.Group value={chosen} onChange={(e) => setAmount(e.target.value as string)}>
          <Space direction="vertical">
            {amounts.map((a) => (
              <Radio key={a} value={a} data-testid={`demo-amount-${a}`}>
                {formatAmount(a, 0)} USDT
              </Radio>
            ))}
          </Space>
        </Radio.Group>
      </Modal>
    </>
  );
}
