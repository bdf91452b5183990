import { useMutation } from "@tanstack/react-query";
import { Empty, Spin, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import "../content/content.css";

const DELAY_MS = 300;

/**
 * The body as the server will store it: the server's own sanitiser answers, a moment after the
 * operator stops typing, so the preview never shows markup the stored text would not keep.
 */
export function BodyPreview({ html }: { html: string }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const preview = useMutation(trpc.contentAdmin.preview.mutationOptions({ meta: { inline: true } }));
  const [shown, setShown] = useState("");
  const { mutateAsync } = preview;
  useEffect(() => {
    if (html.trim() === "") {
      setShown("");
      return;
    }
    let live = true;
    const timer = window.setTimeout(() => {
      void mutateAsync({ html })
        .then((r) => live && setShown(r.html))
        .catch(() => undefined);
    }, DELAY_MS);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [html, mutateAsync]);
  return (
    <Spin spinning={preview.isPending} delay={200}>
      {shown === "" ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("admin.content.previewEmpty")} />
      ) : (
        <Typography>
          <div
            className="ns-article"
            data-testid="admin-content-preview"
            // The server's sanitiser produced this HTML (contentAdmin.preview), the same one saving uses.
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server, see above
            dangerouslySetInnerHTML={{ __html: shown }}
          />
        </Typography>
      )}
    </Spin>
  );
}
