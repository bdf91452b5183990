import { Flex, theme } from "antd";
import { Text } from "../common/typography.tsx";

/** A currency's mark: its code's first letters in a tinted circle (no remote icons to load or trust). */
export function CurrencyMark({ code, size = 32 }: { code: string; size?: number }) {
  const { token } = theme.useToken();
  return (
    <Flex
      align="center"
      justify="center"
      aria-hidden
      style={{
        width: size,
        height: size,
        flex: "none",
        borderRadius: "50%",
        background: token.colorPrimaryBg,
        color: token.colorPrimary,
        fontSize: Math.round(size * (size < 24 ? 0.5 : code.length > 3 ? 0.28 : 0.34)),
        fontWeight: token.fontWeightStrong,
        letterSpacing: -0.3,
      }}
    >
      {size < 24 ? code.slice(0, 1) : code.slice(0, 4)}
    </Flex>
  );
}

/** Code in bold with the currency's name under it. */
export function CurrencyLabel({ code, name, size }: { code: string; name: string; size?: number }) {
  const { token } = theme.useToken();
  return (
    <Flex align="center" gap={10} style={{ minWidth: 0 }}>
      <CurrencyMark code={code} size={size} />
      <Flex vertical style={{ minWidth: 0 }}>
        <Text strong style={{ lineHeight: 1.3 }}>
          {code}
        </Text>
        <Text type="secondary" ellipsis style={{ fontSize: token.fontSizeSM, lineHeight: 1.3 }}>
          {name}
        </Text>
      </Flex>
    </Flex>
  );
}
