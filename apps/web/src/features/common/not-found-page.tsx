import { Button, Result } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../lib/navigation.tsx";

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Result
      status="404"
      title="404"
      subTitle={t("common.notFound")}
      data-testid="not-found"
      extra={
        <AppLink to="/">
          <Button type="primary">{t("common.backHome")}</Button>
        </AppLink>
      }
    />
  );
}
