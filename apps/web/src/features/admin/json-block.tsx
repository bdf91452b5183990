import { theme } from "antd";

/** Pretty JSON in a scrollable block, coloured by the theme. */
export function JsonBlock({ value, maxHeight = 160 }: { value: unknown; maxHeight?: number }) {
  const { token } = theme.useToken();
  return (
    <pre
      style={{
        margin: 0,
        maxHeight,
        maxWidth: 480,
        overflow: "auto",
        padding: "4px 8px",
        fontSize: token.fontSizeSM,
        background: token.colorFillQuaternary,
        borderRadius: token.borderRadiusSM,
        whiteSpace: "pre-wrap",
        wordBreak: "break-all",
      }}
    >
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}
