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
}: {
  title: ReactNode;
  extra?: ReactNode;
  children: ReactNode;
  style?: CSSProperties;
  bodyStyle?: CSSProperties;
  testId?: string;
}) {
  return (
    <section className="ns-panel" style={style} data-testid={testId}>
      <header className="ns-panel-head">
        <div className="ns-panel-title">{title}</div>
        {extra ? <div className="ns-panel-extra">{extra}</div> : null}
      </header>
      <div className="ns-panel-body" style={bodyStyle}>
        {children}
      </div>
    </section>
  );
}
