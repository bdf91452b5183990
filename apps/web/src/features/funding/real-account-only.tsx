import { Button, Result } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { exitDemo } from "../../lib/demo.ts";
import { useSession } from "../../lib/queries.ts";
import { ErrorState, LoadingState } from "../common/page-states.tsx";

/**
 * Money screens are for real accounts only (the server refuses demo users with
 * REAL_ACCOUNT_REQUIRED): a demo user is told so before any form, with the way out of the demo.
 */
export function RealAccountOnly({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const session = useSession();
  if (session.isPending) {
    return <LoadingState />;
  }
  if (session.isError) {
    return <ErrorState onRetry={() => void session.refetch()} />;
  }
  if (session.data.account_kind === "demo") {
    return (
      <Result
        status="info"
        title={t("errors.REAL_ACCOUNT_REQUIRED")}
        subTitle={t("funding.common.demoHint")}
        data-testid="real-account-required"
        extra={
          <Button type="primary" onClick={exitDemo}>
            {t("common.demo.exit")}
          </Button>
        }
      />
    );
  }
  return children;
}
