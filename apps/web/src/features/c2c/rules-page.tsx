import { useQuery } from "@tanstack/react-query";
import { Typography } from "antd";
import { useTranslation } from "react-i18next";
import { usePolicy } from "../../lib/policy.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";

/**
 * /c2c_rule: the operators' rules page (sanitised on the server), or, until one is written, the
 * built-in rules with the validity the server enforces (policy `c2c.orderValidityMinutes`).
 */
export function RulesPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const policy = usePolicy();
  const rules = useQuery(trpc.c2c.rules.queryOptions());
  const hours = policy["c2c.orderValidityMinutes"] / 60;
  return (
    <Page title={t("c2c.rules")}>
      {rules.isPending ? (
        <LoadingState rows={6} />
      ) : rules.isError ? (
        <ErrorState onRetry={() => void rules.refetch()} />
      ) : rules.data.body ? (
        <div
          className="ns-article"
          data-testid="c2c-rules"
          // The server sanitises operator HTML when it is saved (sanitize-html: no scripts, styles or
          // event handlers), so it is safe to render.
          // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on save by the server, see above
          dangerouslySetInnerHTML={{ __html: rules.data.body }}
        />
      ) : (
        <ol data-testid="c2c-rules">
          {(["one", "two", "three", "four", "five"] as const).map((k) => (
            <li key={k}>
              <Typography.Paragraph>
                {t(`c2c.rule.${k}`, { count: hours, max: policy["c2c.maxOpenOrders"] })}
              </Typography.Paragraph>
            </li>
          ))}
        </ol>
      )}
    </Page>
  );
}
