import { ArrowLeftOutlined } from "@ant-design/icons";
import { Button, Card, Flex, Typography } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

/** A page frame: a title with a back button, then the content in a card of readable width. */
export function Page({
  title,
  children,
  extra,
  width = 560,
  back = true,
}: {
  title: ReactNode;
  children: ReactNode;
  extra?: ReactNode;
  width?: number;
  back?: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div style={{ maxWidth: width, margin: "24px auto", padding: "0 16px" }}>
      <Flex align="center" gap={8} style={{ marginBottom: 16 }}>
        {back && (
          <Button
            type="text"
            aria-label={t("common.back")}
            icon={<ArrowLeftOutlined />}
            onClick={() => (window.history.length > 1 ? navigate(-1) : navigate("/"))}
          />
        )}
        <Typography.Title level={3} style={{ margin: 0, flex: 1 }}>
          {title}
        </Typography.Title>
        {extra}
      </Flex>
      <Card>{children}</Card>
    </div>
  );
}
