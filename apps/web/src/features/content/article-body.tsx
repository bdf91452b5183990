import { Typography } from "antd";
import "./content.css";

/** Operator-written HTML as the server stored it. */
export function ArticleBody({ html, testId }: { html: string; testId?: string }) {
  return (
    <Typography>
      <div
        className="ns-article"
        data-testid={testId}
        // The server sanitises operator HTML with sanitize-html when it is saved (no scripts, styles or
        // event handlers; links and images only over http(s)), so it is safe to render.
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on save by the server, see above
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </Typography>
  );
}
