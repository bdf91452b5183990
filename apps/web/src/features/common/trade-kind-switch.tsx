import { useTranslation } from "react-i18next";
import { AppLink } from "../../lib/navigation.tsx";
import "./trade-kind-switch.css";

const KINDS = [
  { key: "spot", to: "/currency", label: "nav.spot" },
  { key: "options", to: "/options", label: "nav.options" },
  { key: "contracts", to: "/preciousMetal", label: "nav.contracts" },
] as const;

/**
 * Spot or options: the ways to trade, one tap apart at the top of each trade screen (on phones the
 * tab bar has one Trade entry, so this is how options are reached there).
 */
export function TradeKindSwitch({ current }: { current: (typeof KINDS)[number]["key"] }) {
  const { t } = useTranslation();
  return (
    <nav className="ns-trade-kinds" aria-label={t("nav.trade")} data-testid="trade-kinds">
      {KINDS.map((k) => (
        <AppLink key={k.key} to={k.to} aria-current={k.key === current ? "page" : undefined}>
          {t(k.label)}
        </AppLink>
      ))}
    </nav>
  );
}
