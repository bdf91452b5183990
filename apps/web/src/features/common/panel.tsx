import type { CSSProperties, ReactNode } from "react";
import "./panel.css";

/**
 * A titled, bordered box, as antd's Card draws it, for pages on the first load: antd's Card brings
 * its tab bar along (about 12 KB compressed) even where no tabs are shown.
 */
export function Panel({
  title,
  extra,
  children,
  style,
  bodyStyle,
  testId,
  size,
  className,
}: {
  /** A card's title row; none draws a plain bordered box. */
  title?: ReactNode;
  extra?: ReactNode;
  children: ReactNode;
  style?: CSSProperties;
  bodyStyle?: CSSProperties;
  testId?: string;
  /** "small": the compact padding of antd's small Card, which the trade screen uses. */
  size?: "small";
  className?: string;
}) {
  const classes = ["ns-panel", size === "small" ? "ns-panel-small" : undefined, className]
    .filter(Boolean)
    .join(" ");
  return (
    <section className={classes} style={style} data-testid={testId}>
      {title !== undefined || extra ? (
        <header className="ns-panel-head">
          <div className="ns-panel-title">{title}</div>
          {extra ? <div className="ns-panel-extra">{extra}</div> : null}
        </header>
      ) : null}
      <div className="ns-panel-body" style={bodyStyle}>
        {children}
      </div>
    </section>
  );
}
