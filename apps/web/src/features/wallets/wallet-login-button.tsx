import { WalletOutlined } from "@ant-design/icons";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Flex } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { feedback } from "../../lib/feedback.ts";
import { tokenStore } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { safeRedirect } from "../identity/auth-rules.ts";
import { useSubmitLock } from "../identity/use-submit-lock.ts";
import { NoWalletError, signWithWallet, WalletRejectedError } from "./ethereum-provider.ts";

/**
 * "Sign in with wallet" on the login page (EIP-4361): the browser's wallet (EIP-1193) signs the
 * message the server wrote; the server answers with a session, creating the account on a first
 * sign-in. Without a wallet in the browser the button says so instead.
 */
export function WalletLoginButton() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const nonce = useMutation(trpc.walletLogin.nonce.mutationOptions());
  const login = useMutation(trpc.walletLogin.signIn.mutationOptions());
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, guard] = useSubmitLock();

  const signIn = () =>
    guard(async () => {
      setNotice(null);
      try {
        const signed = await signWithWallet((input) => nonce.mutateAsync(input));
        const { token, created } = await login.mutateAsync(signed);
        tokenStore.set(token);
        void queryClient.invalidateQueries();
        if (created) {
          feedback.success(t("wallet.login.created"));
        }
        void navigate(safeRedirect(params.get("redirect")), { replace: true });
      } catch (error) {
        if (error instanceof NoWalletError) {
          setNotice(t("wallet.login.noWallet"));
        } else if (error instanceof WalletRejectedError) {
          setNotice(t("wallet.login.cancelled"));
        } else if (!(error as { data?: unknown }).data) {
          // A server refusal was already shown by the client rules; anything else came from the wallet.
          setNotice(t("wallet.login.failed"));
        }
      }
    });

  return (
    <Flex vertical gap={8} style={{ marginTop: 12 }}>
      <Button
        block
        size="large"
        icon={<WalletOutlined />}
        loading={busy}
        onClick={signIn}
        data-testid="wallet-login"
      >
        {t("wallet.login.button")}
      </Button>
      {notice && <Alert type="info" showIcon title={notice} data-testid="wallet-login-notice" />}
    </Flex>
  );
}
