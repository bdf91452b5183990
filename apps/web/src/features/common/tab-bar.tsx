import type { ReactNode } from "react";
import "./tab-bar.css";

/**
 * A row of tabs drawn with plain buttons, for pages of the first load: antd's Tabs brings its
 * overflow menu and dropdown along (about 15 KB compressed). The panel below is the caller's.
 */
export function TabBar<K extends string>({
  tabs,
  active,
  onChange,
  size,
  testId,
}: {
  tabs: { key: K; label: ReactNode; testId?: string }[];
  active: K;
  onChange: (key: K) => void;
  /** "small": the trade screen's compact row. */
  size?: "small";
  testId?: string;
}) {
  return (
    <div
      role="tablist"
      className={size === "small" ? "ns-tabrow ns-tabrow-small" : "ns-tabrow"}
      data-testid={testId}
    >
      {tabs.map((tab) => (
        <button
          key={tab.key}
          type="button"
          role="tab"
          aria-selected={tab.key === active}
          className="ns-tabrow-tab"
          onClick={() => onChange(tab.key)}
          data-testid={tab.testId}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
