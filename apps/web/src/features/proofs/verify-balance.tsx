import { verifyLiabilityProof } from "@northstar/shared/proofs";
import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Flex, Typography } from "antd";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import { useMoneyFormat } from "../assets/assets-format.ts";
import { LoadingState } from "../common/page-states.tsx";
import { Panel } from "../common/panel.tsx";
import { KeyValue } from "../funding/key-value.tsx";
import { BucketBreakdown } from "./bucket-breakdown.tsx";
import { HASH_STYLE } from "./hash-style.ts";

/**
 * "Verify my balance": the user's leaf of the latest proof (their balances, what each is made of by
 * bucket, and the salt), the path up to the root, and the root recomputed here in the browser from those alone, compared with the
 * published one. The proof can be downloaded for `pnpm verify-proof`.
 */
export function VerifyBalance() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const format = useMoneyFormat();
  const mine = useQuery(trpc.proofs.mine.queryOptions({}, { retry: false }));
  const check = useMemo(() => (mine.data ? verifyLiabilityProof(mine.data) : null), [mine.data]);
  const download = () => {
    if (!mine.data) {
      return;
    }
    const url = URL.createObjectURL(
      new Blob([JSON.stringify(mine.data, null, 2)], { type: "application/json" }),
    );
    const a = document.createElement("a");
    a.href = url;
    a.download = `proof-${mine.data.proofId}.json`;
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Panel title={t("proofs.verifyTitle")} testId="proof-verify" style={{ marginBottom: 16 }}>
      {mine.isPending ? (
        <LoadingState rows={3} />
      ) : mine.isError ? (
        <Alert type="info" showIcon title={mine.error.message} data-testid="proof-verify-none" />
      ) : (
        <Flex vertical gap={8}>
          <Alert
            type={check?.ok ? "success" : "error"}
            showIcon
            title={t(
              check?.ok
                ? "proofs.verified"
                : check?.reason === "breakdown_mismatch"
                  ? "proofs.failedBreakdown"
                  : check?.reason === "negative"
                    ? "proofs.failedNegative"
                    : "proofs.failed",
            )}
            data-testid="proof-verify-result"
            data-ok={check?.ok ? "true" : "false"}
          />
          <KeyValue label={t("proofs.proof")}>#{mine.data.proofId}</KeyValue>
          {mine.data.currencies.map((c, i) => (
            <Flex key={c} vertical gap={2}>
              <KeyValue label={t("proofs.yourBalance", { currency: c })}>
                <span className="ns-num" data-testid={`proof-balance-${c}`}>
                  {format.exact(mine.data.leaf.balances[i] ?? "0", 2, 8)}
                </span>
              </KeyValue>
              <BucketBreakdown
                buckets={(mine.data.buckets ?? []).map((bucket, b) => ({
                  bucket,
                  amount: mine.data.leaf.breakdown?.[b]?.[i] ?? "0",
                }))}
                testId={`proof-bucket-${c}`}
              />
            </Flex>
          ))}
          <KeyValue label={t("proofs.pathLength")}>{mine.data.path.length}</KeyValue>
          <Typography.Text type="secondary">{t("proofs.recomputed")}</Typography.Text>
          <Typography.Text className="ns-num" style={HASH_STYLE} data-testid="proof-recomputed">
            {check?.root.hash}
          </Typography.Text>
          <Button onClick={download} style={{ alignSelf: "flex-start" }} data-testid="proof-download">
            {t("proofs.download")}
          </Button>
        </Flex>
      )}
    </Panel>
  );
}
