import { DeleteOutlined, PlusOutlined, RightOutlined } from "@ant-design/icons";
import type { TLinkedWallet } from "@northstar/shared/contracts/wallet-login";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Divider, Flex, Popconfirm, Tag, Typography, theme } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { AppLink } from "../../lib/navigation.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { Page } from "../common/page.tsx";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import { useSubmitLock } from "../identity/use-submit-lock.ts";
import { NoWalletError, signWithWallet, WalletRejectedError } from "./ethereum-provider.ts";
import { MnemonicCheck } from "./mnemonic-check.tsx";
import "../funding/funding.css";

/**
 * /wallet: the Ethereum wallets that sign the user in. Linking proves ownership by signing a
 * message the server wrote for this user; removing asks first. Below, the recovery-phrase check.
 */
export function WalletsPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const wallets = useQuery(trpc.walletLogin.list.queryOptions());
  const nonce = useMutation(trpc.walletLogin.linkNonce.mutationOptions());
  const link = useMutation(trpc.walletLogin.link.mutationOptions());
  const [notice, setNotice] = useState<string | null>(null);
  const [linking, guard] = useSubmitLock();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.walletLogin.list.queryKey() });

  const add = () =>
    guard(async () => {
      setNotice(null);
      try {
        const signed = await signWithWallet((input) => nonce.mutateAsync(input));
        await link.mutateAsync(signed);
        feedback.success(t("wallet.page.linked"));
      } catch (error) {
        if (error instanceof NoWalletError) {
          setNotice(t("wallet.login.noWallet"));
        } else if (error instanceof WalletRejectedError) {
          setNotice(t("wallet.login.cancelled"));
        } else if (!(error as { data?: unknown }).data) {
          setNotice(t("wallet.login.failed"));
        }
      } finally {
        refresh();
      }
    });

  return (
    <Page
      title={t("wallet.page.title")}
      width={720}
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          loading={linking}
          onClick={add}
          data-testid="wallet-link"
        >
          {t("wallet.page.link")}
        </Button>
      }
    >
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">{t("wallet.page.intro")}</Typography.Text>
        {notice && <Alert type="info" showIcon title={notice} data-testid="wallet-link-notice" />}
        {wallets.isPending ? (
          <LoadingState rows={3} />
        ) : wallets.isError ? (
          <ErrorState onRetry={() => void wallets.refetch()} />
        ) : wallets.data.length === 0 ? (
          <div data-testid="wallet-empty">
            <EmptyState>{t("wallet.page.empty")}</EmptyState>
          </div>
        ) : (
          <div data-testid="wallet-list">
            {wallets.data.map((w) => (
              <WalletRow key={w.id} wallet={w} onSettled={refresh} />
            ))}
          </div>
        )}
        <AppLink to="/address">
          <Flex justify="space-between" align="center" data-testid="wallet-addresses-link">
            <span>{t("wallet.page.addresses")}</span>
            <RightOutlined />
          </Flex>
        </AppLink>
        <Divider style={{ margin: "4px 0" }} />
        <MnemonicCheck />
      </Flex>
    </Page>
  );
}

function WalletRow({ wallet, onSettled }: { wallet: TLinkedWallet; onSettled: () => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const trpc = useTRPC();
  const remove = useMutation(trpc.walletLogin.unlink.mutationOptions());
  const doRemove = () =>
    remove
      .mutateAsync({ id: wallet.id })
      .then(() => feedback.success(t("wallet.page.removed")))
      .catch(() => undefined)
      .finally(onSettled);
  return (
    <Flex vertical gap={4} className="ns-record" style={{ paddingBlock: 12 }} data-testid="wallet-row">
      <Flex justify="space-between" align="center" gap={12}>
        <Typography.Text
          className="ns-break"
          copyable={{ text: wallet.address, tooltips: [t("common.copy"), t("common.copied")] }}
          style={{ fontFamily: token.fontFamilyCode }}
          data-testid="wallet-address"
        >
          {wallet.address}
        </Typography.Text>
        <Popconfirm
          title={t("wallet.page.removeTitle")}
          okText={t("wallet.page.remove")}
          cancelText={t("common.cancel")}
          okButtonProps={{ danger: true, "data-testid": "wallet-remove-confirm" }}
          onConfirm={doRemove}
        >
          <Button
            size="small"
            type="text"
            danger
            icon={<DeleteOutlined />}
            loading={remove.isPending}
            aria-label={t("wallet.page.remove")}
            data-testid="wallet-remove"
          />
        </Popconfirm>
      </Flex>
      <Flex gap={8} wrap>
        <Tag style={{ marginInlineEnd: 0 }}>{t("wallet.page.chain", { chainId: wallet.chainId })}</Tag>
        <Typography.Text type="secondary">
          {t("wallet.page.linkedAt", { date: dayjs(wallet.createdAt).format("YYYY-MM-DD HH:mm") })}
        </Typography.Text>
      </Flex>
    </Flex>
  );
}
