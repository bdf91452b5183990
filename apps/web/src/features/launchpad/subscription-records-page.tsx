import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Flex, Tag, Typography, theme } from "antd";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import { useMoneyFormat } from "../assets/assets-format.ts";
import { SetByPlatform } from "../common/set-by-platform.tsx";
import { KeyValue } from "../funding/key-value.tsx";
import { RecordsPage } from "../funding/records-page.tsx";
import { useFormatDateTime } from "../funding/use-format-date-time.ts";
import type { SubscriptionRecord } from "./launchpad-types.ts";

const STATUS_COLOR: Record<string, string> = {
  reviewing: "processing",
  passed: "success",
  failed: "error",
  sold_out: "warning",
  issuance_failed: "error",
  refunded: "default",
};

function useRecords(page: number) {
  const trpc = useTRPC();
  return useQuery(
    trpc.launchpad.records.queryOptions({ page, page_size: 20 }, { placeholderData: keepPreviousData }),
  );
}

/** /subscriptionRecord: every figure of each subscription (subscribed, passed, remaining, frozen, fee, reasons). */
export function SubscriptionRecordsPage() {
  const { t } = useTranslation();
  return (
    <RecordsPage
      title={t("launchpad.records")}
      action={{ label: t("launchpad.subscribe"), to: "/subscription" }}
      emptyText={t("launchpad.emptyRecords")}
      listTestId="launchpad-record-list"
      useRecords={useRecords}
      renderRow={(r) => <RecordRow key={r.id} record={r} />}
    />
  );
}

function RecordRow({ record: r }: { record: SubscriptionRecord }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const format = useMoneyFormat();
  const formatDateTime = useFormatDateTime();
  const pay = (v: string) => `${format.exact(v, 2, 8)} ${r.payCurrency}`;
  const coins = (v: string) => `${format.exact(v, 0, 8)} ${r.coin}`;
  return (
    <Flex
      vertical
      gap={6}
      className="ns-record"
      style={{ paddingBlock: 14 }}
      data-testid="launchpad-record"
      data-id={r.id}
      data-status={r.status}
    >
      <Flex justify="space-between" align="flex-start" gap={12}>
        <Flex vertical gap={2}>
          <Typography.Text strong>
            {r.coin} · {r.name}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
            {formatDateTime(r.createdAt)}
          </Typography.Text>
        </Flex>
        <Tag
          color={STATUS_COLOR[r.status]}
          variant="filled"
          style={{ marginInlineEnd: 0 }}
          data-testid="launchpad-record-status"
        >
          {t(`launchpad.status.${r.status}`)}
        </Tag>
      </Flex>
      <KeyValue label={t("launchpad.issuePrice")}>{pay(r.issuePrice)}</KeyValue>
      <KeyValue label={t("launchpad.subscribePrice")}>
        {pay(r.subscribePrice)}
        <SetByPlatform />
      </KeyValue>
      <KeyValue label={t("launchpad.quantity")}>{coins(r.quantity)}</KeyValue>
      <KeyValue label={t("launchpad.passedQuantity")}>
        <span data-testid="launchpad-record-passed">{coins(r.passedQuantity)}</span>
      </KeyValue>
      <KeyValue label={t("launchpad.remainingQuantity")}>{coins(r.remainingQuantity)}</KeyValue>
      <KeyValue label={t("launchpad.subscribed")}>{pay(r.subscribedAmount)}</KeyValue>
      <KeyValue label={t("launchpad.frozen")}>
        <span data-testid="launchpad-record-frozen">{pay(r.frozen)}</span>
      </KeyValue>
      <KeyValue label={t("launchpad.fee")}>{pay(r.fee)}</KeyValue>
      <KeyValue label={t("launchpad.refunded")}>{pay(r.refunded)}</KeyValue>
      <KeyValue label={t("launchpad.lockDays")}>{t("launchpad.days", { count: r.lockDays })}</KeyValue>
      <KeyValue label={t("launchpad.listingDay")}>{r.listingDay}</KeyValue>
      <KeyValue label={t("launchpad.circulation")}>{coins(r.circulation)}</KeyValue>
      {r.unlockAt && (
        <KeyValue label={t("launchpad.unlockAt")}>
          {formatDateTime(r.unlockAt)} · {r.unlocked ? t("launchpad.unlocked") : t("launchpad.locked")}
        </KeyValue>
      )}
      {r.failReason && (
        <KeyValue label={t("launchpad.failReason")}>
          <Typography.Text type="danger">{r.failReason}</Typography.Text>
        </KeyValue>
      )}
      {r.rejectReason && (
        <KeyValue label={t("launchpad.rejectReason")}>
          <Typography.Text type="danger">{r.rejectReason}</Typography.Text>
        </KeyValue>
      )}
    </Flex>
  );
}
