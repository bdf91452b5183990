import { useQuery } from "@tanstack/react-query";
import { Flex, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../lib/navigation.tsx";
import { useIsLoggedIn } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useMoneyFormat } from "../assets/assets-format.ts";
import { Page } from "../common/page.tsx";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import { Panel } from "../common/panel.tsx";
import { useFormatDateTime } from "../funding/use-format-date-time.ts";
import { BucketBreakdown } from "./bucket-breakdown.tsx";
import { HASH_STYLE } from "./hash-style.ts";
import { VerifyBalance } from "./verify-balance.tsx";

/**
 * /proofOfLiabilities: the published proofs (snapshot time, root hash, what the platform owed its
 * users per currency and what each total is made of by bucket) for anyone, and for a signed-in user "verify my balance", checked here in the
 * browser against the latest root.
 */
export function ProofsPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const loggedIn = useIsLoggedIn();
  const format = useMoneyFormat();
  const formatDateTime = useFormatDateTime();
  const proofs = useQuery(trpc.proofs.list.queryOptions());
  return (
    <Page title={t("proofs.title")} width={820}>
      <Typography.Paragraph type="secondary">{t("proofs.intro")}</Typography.Paragraph>
      {loggedIn ? (
        <VerifyBalance />
      ) : (
        <Typography.Paragraph>
          <AppLink to="/login">{t("proofs.loginToVerify")}</AppLink>
        </Typography.Paragraph>
      )}
      {proofs.isPending ? (
        <LoadingState rows={4} />
      ) : proofs.isError ? (
        <ErrorState onRetry={() => void proofs.refetch()} />
      ) : proofs.data.length === 0 ? (
        <EmptyState>{t("proofs.empty")}</EmptyState>
      ) : (
        <Flex vertical gap={12} data-testid="proofs-list">
          {proofs.data.map((p) => (
            <Panel
              key={p.id}
              testId="proof-published"
              title={`#${p.id} · ${formatDateTime(p.snapshotAt)}`}
              extra={t("proofs.accounts", { count: p.leafCount })}
            >
              <Typography.Text type="secondary">{t("proofs.root")}</Typography.Text>
              <Typography.Paragraph copyable className="ns-num" style={HASH_STYLE}>
                {p.rootHash}
              </Typography.Paragraph>
              <Flex wrap gap={16}>
                {p.totals.map((x) => (
                  <Flex key={x.currency} vertical>
                    <Typography.Text type="secondary">{x.currency}</Typography.Text>
                    <Typography.Text className="ns-num" data-testid={`proof-total-${x.currency}`}>
                      {format.exact(x.total, 2, 8)}
                    </Typography.Text>
                    <BucketBreakdown buckets={x.buckets} testId={`proof-total-${x.currency}`} />
                  </Flex>
                ))}
              </Flex>
            </Panel>
          ))}
        </Flex>
      )}
    </Page>
  );
}
