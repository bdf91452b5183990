import { Alert, Button, Descriptions, Flex } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { KycStatusTag } from "./kyc-status-tag.tsx";

export interface KycApplication {
  id: number;
  status: string;
  details: Record<string, unknown>;
  rejectReason: string | null;
  rejectNote: string | null;
}

/**
 * A level's latest application: under review (nothing to do but wait), approved (read-only
 * forever) or rejected (the reason in the user's language, and the way to apply again). With no
 * application, or after "apply again", the form is shown.
 */
export function ApplicationState({
  application,
  rows,
  onReapply,
  form,
}: {
  application: KycApplication | null;
  rows: { key: string; label: string; value: ReactNode }[];
  onReapply: () => void;
  form: ReactNode;
}) {
  const { t } = useTranslation();
  if (!application) {
    return form;
  }
  const reason = application.rejectReason
    ? [t(`kyc.reasons.${application.rejectReason}`), application.rejectNote].filter(Boolean).join(" — ")
    : "";
  return (
    <Flex vertical gap={16} data-testid={`kyc-application-${application.status}`}>
      <Flex justify="space-between" align="center">
        <KycStatusTag status={application.status} testId="kyc-application-status" />
      </Flex>
      {application.status === "under_review" && (
        <Alert type="info" showIcon title={t("kyc.hints.underReview")} />
      )}
      {application.status === "approved" && <Alert type="success" showIcon title={t("kyc.hints.readOnly")} />}
      {application.status === "rejected" && (
        <Alert
          type="error"
          showIcon
          title={t("kyc.hints.rejected", { reason })}
          data-testid="kyc-reject-reason"
          action={
            <Button type="primary" size="small" onClick={onReapply} data-testid="kyc-reapply">
              {t("kyc.actions.reapply")}
            </Button>
          }
        />
      )}
      <Descriptions
        column={1}
        size="small"
        items={rows.map((r) => ({ key: r.key, label: r.label, children: r.value }))}
      />
    </Flex>
  );
}
