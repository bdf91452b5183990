import { Button } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../lib/navigation.tsx";
import { StatusMessage } from "./status-message.tsx";

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <StatusMessage
      kind="notFound"
      title="404"
      hint={t("common.notFound")}
      testId="not-found"
      actions={
        <AppLink to="/">
          <Button type="primary">{t("common.backHome")}</Button>
        </AppLink>
      }
    />
  );
}
