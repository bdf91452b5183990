import {
  AndroidOutlined,
  AppleOutlined,
  CheckCircleOutlined,
  DesktopOutlined,
  DownloadOutlined,
} from "@ant-design/icons";
import { Alert, Button, Flex, Typography } from "antd";
import { type ReactNode, useState, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { installPrompt } from "../../lib/install-prompt.ts";
import { Page } from "../common/page.tsx";

const standalone = () =>
  window.matchMedia?.("(display-mode: standalone)").matches ||
  (navigator as { standalone?: boolean }).standalone === true;

/**
 * /downLoad: the site installs as a web app (manifest and icons in index.html). Where the browser
 * offers it, one button installs; otherwise the steps to add it to the home screen, per platform.
 */
export function DownloadPage() {
  const { t } = useTranslation();
  const offer = useSyncExternalStore(installPrompt.subscribe, installPrompt.get);
  const [installed, setInstalled] = useState(standalone);
  const install = async () => {
    if (await installPrompt.show()) {
      setInstalled(true);
    }
  };
  return (
    <Page title={t("nav.download")}>
      <Flex vertical gap={16} data-testid="download-page">
        <Flex align="center" gap={12}>
          <img src="/icons/icon-192.png" alt="" width={56} height={56} style={{ borderRadius: 12 }} />
          <Typography.Text>{t("wallet.install.intro")}</Typography.Text>
        </Flex>
        {installed ? (
          <Alert
            type="success"
            showIcon
            icon={<CheckCircleOutlined />}
            title={t("wallet.install.installed")}
          />
        ) : (
          offer && (
            <Button
              type="primary"
              size="large"
              icon={<DownloadOutlined />}
              onClick={() => void install()}
              data-testid="download-install"
            >
              {t("wallet.install.button")}
            </Button>
          )
        )}
        <Steps
          icon={<AppleOutlined />}
          title={t("wallet.install.ios.title")}
          steps={[
            t("wallet.install.ios.step1"),
            t("wallet.install.ios.step2"),
            t("wallet.install.ios.step3"),
          ]}
        />
        <Steps
          icon={<AndroidOutlined />}
          title={t("wallet.install.android.title")}
          steps={[
            t("wallet.install.android.step1"),
            t("wallet.install.android.step2"),
            t("wallet.install.android.step3"),
          ]}
        />
        <Steps
          icon={<DesktopOutlined />}
          title={t("wallet.install.desktop.title")}
          steps={[t("wallet.install.desktop.step1"), t("wallet.install.desktop.step2")]}
        />
      </Flex>
    </Page>
  );
}

function Steps({ icon, title, steps }: { icon: ReactNode; title: string; steps: string[] }) {
  return (
    <Flex vertical gap={4}>
      <Typography.Title level={5} style={{ margin: 0 }}>
        <Flex gap={8} align="center">
          {icon}
          {title}
        </Flex>
      </Typography.Title>
      <ol style={{ margin: 0, paddingInlineStart: 24 }}>
        {steps.map((step) => (
          <li key={step}>
            <Typography.Text>{step}</Typography.Text>
          </li>
        ))}
      </ol>
    </Flex>
  );
}
