import { SwapOutlined } from "@ant-design/icons";
import { Button, Flex, Select, type SelectProps, Typography, theme } from "antd";
import { useTranslation } from "react-i18next";
import type { CurrencyInfo } from "./assets-data.ts";
import { CurrencyMark } from "./currency-mark.tsx";
import { currencyOptions } from "./transfer-rules.ts";

/** A currency picker: the list shows code and name, the closed box the mark and code (fits a phone). */
export function CurrencySelect({
  currencies,
  testId,
  ...props
}: SelectProps<string> & { currencies: CurrencyInfo[]; testId: string }) {
  return (
    <Select<string>
      {...props}
      options={currencyOptions(currencies)}
      showSearch={{ optionFilterProp: "search" }}
      labelRender={({ value }) => (
        <Flex align="center" gap={6} style={{ height: "100%" }}>
          <CurrencyMark code={String(value)} size={20} />
          <span>{String(value)}</span>
        </Flex>
      )}
      data-testid={testId}
    />
  );
}

/** The "All" link and the currency code at the end of an amount field. */
export function AmountSuffix({ code, onAll, testId }: { code: string; onAll: () => void; testId: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Flex align="center" gap={10}>
      <Typography.Text type="secondary">{code}</Typography.Text>
      <span style={{ width: 1, height: 14, background: token.colorSplit }} />
      <Typography.Link onClick={onAll} data-testid={testId}>
        {t("assets.all")}
      </Typography.Link>
    </Flex>
  );
}

/** A swap button between two selects, aligned with the controls rather than their labels. */
export function SwapButton({
  onClick,
  label,
  testId,
}: {
  onClick: () => void;
  label: string;
  testId: string;
}) {
  const { token } = theme.useToken();
  return (
    <Button
      shape="circle"
      icon={<SwapOutlined />}
      onClick={onClick}
      aria-label={label}
      title={label}
      data-testid={testId}
      style={{ flex: "none", marginTop: Math.round(token.fontSize * token.lineHeight) + token.paddingXS }}
    />
  );
}
