import { FileImageOutlined } from "@ant-design/icons";
import { Flex, Image, Skeleton, Tooltip, Typography, theme } from "antd";
import { useTranslation } from "react-i18next";
import { usePrivateFile } from "../../lib/private-file.ts";
import { operatorTokenStore } from "./operator-session.ts";

/**
 * A proof image, fetched with the operator's header (uploads are private). Click enlarges it.
 */
export function ProofImage({ id, size = 48 }: { id: string | null | undefined; size?: number }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const state = usePrivateFile(id ? `/uploads/${encodeURIComponent(id)}` : undefined, {
    "x-operator-token": operatorTokenStore.get(),
  });

  if (!id) {
    return <Typography.Text type="secondary">{t("admin.proof.none")}</Typography.Text>;
  }
  if (state.failed) {
    return (
      <Tooltip title={t("admin.proof.failed")}>
        <Flex
          align="center"
          justify="center"
          style={{
            width: size,
            height: size,
            borderRadius: token.borderRadiusSM,
            background: token.colorFillTertiary,
            color: token.colorTextTertiary,
          }}
        >
          <FileImageOutlined />
        </Flex>
      </Tooltip>
    );
  }
  if (!state.url) {
    return <Skeleton.Node active style={{ width: size, height: size }} />;
  }
  return (
    <Image
      src={state.url}
      width={size}
      height={size}
      alt={t("fields.proof")}
      style={{ objectFit: "cover", borderRadius: token.borderRadiusSM }}
      preview={{ mask: t("admin.proof.enlarge") }}
    />
  );
}
