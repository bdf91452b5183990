import type { InstrumentCategory } from "@northstar/shared/markets";
import { Tag } from "antd";
import { useTranslation } from "react-i18next";

export const CATEGORY_COLOR: Record<InstrumentCategory, string> = {
  crypto: "gold",
  forex: "blue",
  stocks: "geekblue",
  indices: "purple",
  etfs: "cyan",
  metals: "orange",
  energy: "volcano",
};

export function CategoryTag({ category }: { category: InstrumentCategory }) {
  const { t } = useTranslation();
  return (
    <Tag color={CATEGORY_COLOR[category]} style={{ marginInlineEnd: 0 }}>
      {t(`admin.instruments.category.${category}`, { defaultValue: category })}
    </Tag>
  );
}
