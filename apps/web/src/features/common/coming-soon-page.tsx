import { Button } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../lib/navigation.tsx";
import { StatusMessage } from "./status-message.tsx";

/** Routes whose module is not built yet: a real page in the layout that says what is coming. */
export function ComingSoonPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <StatusMessage
      kind="soon"
      title={t(`nav.${titleKey}`)}
      hint={t("common.comingSoon")}
      testId="coming-soon"
      actions={
        <AppLink to="/">
          <Button type="primary">{t("common.backHome")}</Button>
        </AppLink>
      }
    />
  );
}
