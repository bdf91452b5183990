import { ClockCircleOutlined } from "@ant-design/icons";
import { Button, Result } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../lib/navigation.tsx";

/** Routes whose module is not built yet: a real page in the layout that says what is coming. */
export function ComingSoonPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <Result
      icon={<ClockCircleOutlined />}
      title={t(`nav.${titleKey}`)}
      subTitle={t("common.comingSoon")}
      data-testid="coming-soon"
      extra={
        <AppLink to="/">
          <Button type="primary">{t("common.backHome")}</Button>
        </AppLink>
      }
    />
  );
}
