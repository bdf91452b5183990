import { LANGUAGE_INFO } from "@northstar/shared/languages";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Flex, theme } from "antd";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { usePolicy } from "../../lib/policy.ts";
import { languageStore, tokenStore, useLanguage } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { Page } from "../common/page.tsx";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import { Paragraph } from "../common/typography.tsx";
import { ChatComposer } from "./chat-composer.tsx";
import { ChatLine } from "./chat-line.tsx";
import { useSupportHistory } from "./use-support-history.ts";

/** Uploads an image privately (/uploads/proof, the upload rules) and answers its id. */
async function uploadImage(file: File): Promise<string> {
  const body = new FormData();
  body.append("file", file);
  const response = await fetch("/uploads/proof", {
    method: "POST",
    headers: { authorization: `Bearer ${tokenStore.get()}`, lang: languageStore.get() },
    body,
  });
  const envelope = (await response.json()) as { code: number; message: string; data: { id?: string } | null };
  if (envelope.code !== 0 || !envelope.data?.id) {
    throw new Error(envelope.message);
  }
  return envelope.data.id;
}

/** /service: the user's live conversation with customer service, kept on the server. */
export function ServicePage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { token } = theme.useToken();
  const lang = useLanguage();
  const policy = usePolicy();
  const history = useSupportHistory();
  const [uploading, setUploading] = useState(false);
  const send = useMutation(
    trpc.support.send.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries(trpc.support.history.pathFilter()),
    }),
  );
  const end = useRef<HTMLDivElement>(null);
  const lines = history.data?.lines ?? [];
  const format = useMemo(
    () => new Intl.DateTimeFormat(LANGUAGE_INFO[lang].bcp47, { dateStyle: "short", timeStyle: "short" }),
    [lang],
  );
  const headers = { authorization: `Bearer ${tokenStore.get()}` };

  // The newest line in view whenever one arrives.
  const count = lines.length;
  useEffect(() => {
    if (count > 0) {
      end.current?.scrollIntoView?.({ block: "end" });
    }
  }, [count]);

  return (
    <Page title={t("messages.service.title")} width={760}>
      <Paragraph type="secondary">{t("messages.service.intro")}</Paragraph>
      <Flex
        vertical
        gap={12}
        data-testid="service-log"
        style={{
          minHeight: 280,
          maxHeight: "60vh",
          overflowY: "auto",
          padding: token.paddingSM,
          border: `1px solid ${token.colorBorderSecondary}`,
          borderRadius: token.borderRadiusLG,
          marginBottom: token.marginSM,
        }}
      >
        {history.isPending ? (
          <LoadingState rows={4} />
        ) : history.isError ? (
          <ErrorState onRetry={() => void history.refetch()} />
        ) : lines.length === 0 ? (
          <EmptyState>{t("messages.service.empty")}</EmptyState>
        ) : (
          lines.map((line) => (
            <ChatLine
              key={line.id}
              line={line}
              mine={line.author === "user"}
              imageHeaders={headers}
              authorLabel={
                line.author === "user" ? t("messages.service.you") : t("messages.service.operator")
              }
              time={format.format(new Date(line.created_at))}
            />
          ))
        )}
        <div ref={end} />
      </Flex>
      <ChatComposer
        testId="service"
        busy={send.isPending || uploading}
        placeholder={t("messages.service.placeholder")}
        sendLabel={t("messages.service.send")}
        maxImageBytes={policy["uploads.maxBytes"]}
        onWarn={(text) => feedback.warning(text)}
        onSend={(body) => send.mutateAsync({ body })}
        onImage={async (file) => {
          setUploading(true);
          try {
            await send.mutateAsync({ upload_id: await uploadImage(file) });
          } catch (error) {
            feedback.warning(
              error instanceof Error && error.message ? error.message : t("errors.REQUEST_ERROR"),
            );
          } finally {
            setUploading(false);
          }
        }}
      />
    </Page>
  );
}
