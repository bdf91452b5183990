import { CameraOutlined, UserOutlined } from "@ant-design/icons";
import type { TSessionInfo } from "@northstar/shared/contracts/identity";
import { useMutation } from "@tanstack/react-query";
import type { FormRule, UploadProps } from "antd";
import { Avatar, Button, Descriptions, Flex, Form, Input, Space, Tag, Typography, theme, Upload } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { ApiError, applyClientRules } from "../../lib/client-rules.ts";
import { feedback } from "../../lib/feedback.ts";
import { usePolicy } from "../../lib/policy.ts";
import { useAvatarSrc } from "../../lib/private-file.ts";
import { useSession } from "../../lib/queries.ts";
import { languageStore, tokenStore } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { useFormatDate } from "../content/format-date.ts";
import { useCountryName } from "../identity/country-list.ts";
import { markRefusedField, useInvalidateSession } from "./account-helpers.ts";

/** /info and /username: avatar, nickname, and the account's read-only facts. */
export function ProfilePage() {
  const { t } = useTranslation();
  const session = useSession();
  return (
    <Page title={t("nav.profile")} width={680}>
      {session.isPending ? (
        <LoadingState rows={8} />
      ) : session.isError ? (
        <ErrorState onRetry={() => void session.refetch()} />
      ) : (
        <Flex vertical gap={24}>
          <ProfileHeader session={session.data} />
          <AccountFacts session={session.data} />
        </Flex>
      )}
    </Page>
  );
}

const AVATAR_TYPES = new Set(["image/jpeg", "image/png"]);
const AVATAR_EXTENSIONS = /\.(jpe?g|png)$/i;

function ProfileHeader({ session }: { session: TSessionInfo }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const policy = usePolicy();
  const invalidateSession = useInvalidateSession();
  const [uploading, setUploading] = useState(false);
  const avatar = useAvatarSrc(session);
  const maxBytes = policy["uploads.maxBytes"];
  const maxMb = Math.floor(maxBytes / 1024 / 1024);

  // Checked here so the user is told at once; the server checks the content again.
  const beforeUpload: UploadProps["beforeUpload"] = (file) => {
    if (!AVATAR_TYPES.has(file.type) && !AVATAR_EXTENSIONS.test(file.name)) {
      feedback.warning(t("account.profile.avatarType"));
      return Upload.LIST_IGNORE;
    }
    if (file.size > maxBytes) {
      feedback.warning(t("errors.UPLOAD_TOO_LARGE", { mb: maxMb }));
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const customRequest: UploadProps["customRequest"] = ({ file, onSuccess, onError }) => {
    const body = new FormData();
    body.append("file", file as Blob);
    setUploading(true);
    fetch("/uploads/avatar", {
      method: "POST",
      headers: { authorization: `Bearer ${tokenStore.get()}`, lang: languageStore.get() },
      body,
    })
      .then(
        (response) =>
          response.json() as Promise<{
            code: number;
            message: string;
            data: { error?: string; field?: string };
          }>,
      )
      .then(
        async (envelope) => {
          if (envelope.code !== 0) {
            // The same client rules as every other call: 2000 asks to log in, others warn.
            const error = new ApiError(
              envelope.message,
              envelope.code,
              envelope.data?.error,
              envelope.data?.field,
            );
            applyClientRules(error);
            onError?.(error);
            return;
          }
          await invalidateSession();
          feedback.success(t("account.profile.avatarDone"));
          onSuccess?.(envelope);
        },
        (error: unknown) => {
          console.error("avatar upload failed", error);
          feedback.warning(t("errors.NETWORK_ERROR"));
          onError?.(error instanceof Error ? error : new Error(String(error)));
        },
      )
      .finally(() => setUploading(false));
  };

  return (
    <Flex gap={20} align="center" wrap>
      <Flex vertical align="center" gap={8}>
        <Avatar
          size={88}
          src={avatar}
          icon={<UserOutlined />}
          style={{ background: session.avatar ? undefined : token.colorPrimaryBg, color: token.colorPrimary }}
          data-testid="profile-avatar"
        />
        <Upload
          accept=".jpg,.jpeg,.png,image/jpeg,image/png"
          showUploadList={false}
          beforeUpload={beforeUpload}
          customRequest={customRequest}
          disabled={uploading}
        >
          <Button
            size="small"
            icon={<CameraOutlined />}
            loading={uploading}
            data-testid="profile-avatar-upload"
          >
            {t("account.profile.changeAvatar")}
          </Button>
        </Upload>
      </Flex>
      <Flex vertical gap={8} style={{ flex: 1, minWidth: 240 }}>
        <NicknameForm nickname={session.nickname} />
        <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
          {t("account.profile.avatarHint", { mb: maxMb, count: policy["uploads.maxPerDay"] })}
        </Typography.Text>
      </Flex>
    </Flex>
  );
}

function NicknameForm({ nickname }: { nickname: string }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const trpc = useTRPC();
  const policy = usePolicy();
  const [form] = Form.useForm<{ nickname: string }>();
  const invalidateSession = useInvalidateSession();
  const update = useMutation(trpc.identity.updateNickname.mutationOptions());
  const value = Form.useWatch("nickname", form) ?? nickname;
  const max = policy["identity.nickname.maxLength"];

  // The same rule as the server: 1 to max characters, no control characters or angle brackets.
  const rule: FormRule = {
    validator: async (_, v: string | undefined) => {
      const clean = (v ?? "").trim();
      if (clean.length < 1 || [...clean].length > max || /[\p{Cc}<>]/u.test(clean)) {
        throw new Error(t("errors.NICKNAME_INVALID", { max }));
      }
    },
  };

  const submit = (values: { nickname: string }) => {
    update.mutate(
      { nickname: values.nickname.trim() },
      {
        onSuccess: () => {
          feedback.success(t("common.saved"));
          void invalidateSession();
        },
        onError: (error) => markRefusedField(form, error),
      },
    );
  };

  return (
    <Form form={form} layout="vertical" requiredMark={false} initialValues={{ nickname }} onFinish={submit}>
      <Form.Item label={t("fields.nickname")} style={{ marginBottom: 0 }} required>
        <Space.Compact style={{ width: "100%" }}>
          <Form.Item name="nickname" noStyle rules={[rule]}>
            <Input
              maxLength={max}
              showCount
              autoComplete="nickname"
              autoFocus={pathname === "/username"}
              data-testid="profile-nickname"
            />
          </Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            loading={update.isPending}
            disabled={value.trim() === nickname}
            data-testid="profile-nickname-save"
          >
            {t("common.save")}
          </Button>
        </Space.Compact>
      </Form.Item>
    </Form>
  );
}

function AccountFacts({ session }: { session: TSessionInfo }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const formatDate = useFormatDate("long");
  const countryName = useCountryName();
  const copyable = { tooltips: [t("common.copy"), t("common.copied")] };
  return (
    <Descriptions
      column={1}
      bordered
      size="small"
      styles={{ label: { width: "38%", minWidth: 110 } }}
      items={[
        {
          key: "uid",
          label: t("account.profile.uid"),
          children: (
            <Typography.Text copyable={copyable} data-testid="profile-uid">
              {session.uid}
            </Typography.Text>
          ),
        },
        {
          key: "account",
          label: t("fields.account"),
          children: (
            <Space size={8} wrap>
              <Typography.Text data-testid="profile-account">{session.display_account}</Typography.Text>
              <Tag
                color={session.account_kind === "demo" ? "warning" : "processing"}
                style={{ marginInlineEnd: 0 }}
              >
                {t(`account.profile.kind_${session.account_kind}`)}
              </Tag>
            </Space>
          ),
        },
        {
          key: "nationality",
          label: t("fields.nationality"),
          children: (
            <Flex vertical>
              <Typography.Text data-testid="profile-nationality">
                {session.nationality ? countryName(session.nationality) : "—"}
              </Typography.Text>
              <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
                {t("errors.NATIONALITY_LOCKED")}
              </Typography.Text>
            </Flex>
          ),
        },
        // A demo account cannot invite (registration refuses its code): it is told why instead.
        ...(session.invitation_code === ""
          ? [
              {
                key: "invite",
                label: t("fields.inviteCode"),
                children: (
                  <Typography.Text type="secondary" data-testid="profile-invite-unavailable">
                    {t("referral.demoCannotInvite")}
                  </Typography.Text>
                ),
              },
            ]
          : [
              {
                key: "invite",
                label: t("fields.inviteCode"),
                children: (
                  <Typography.Text copyable={copyable} data-testid="profile-invite-code">
                    {session.invitation_code}
                  </Typography.Text>
                ),
              },
              {
                key: "link",
                label: t("account.profile.inviteLink"),
                children: (
                  <Typography.Text
                    copyable={{ ...copyable, text: session.invite_link }}
                    style={{ wordBreak: "break-all" }}
                    data-testid="profile-invite-link"
                  >
                    {session.invite_link}
                  </Typography.Text>
                ),
              },
            ]),
        {
          key: "registered",
          label: t("account.profile.registeredAt"),
          children: (
            <Typography.Text data-testid="profile-registered">
              {formatDate(session.created_at)}
            </Typography.Text>
          ),
        },
      ]}
    />
  );
}
