import {
  FundOutlined,
  HomeOutlined,
  LineChartOutlined,
  SwapOutlined,
  UserOutlined,
  WalletOutlined,
} from "@ant-design/icons";
import { theme } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { useAppNavigate } from "../lib/navigation.tsx";
import { type NavKey, navKeyOf } from "./nav-items.ts";
import "./shell.css";

const TABS: { key: NavKey; label: string; icon: ReactNode; testId: string }[] = [
  { key: "/", label: "nav.home", icon: <HomeOutlined />, testId: "tab-home" },
  { key: "/market", label: "nav.market", icon: <LineChartOutlined />, testId: "tab-market" },
  { key: "/currency", label: "nav.trade", icon: <SwapOutlined />, testId: "tab-trade" },
  { key: "/profit_index", label: "nav.earn", icon: <FundOutlined />, testId: "tab-earn" },
  { key: "/table1", label: "nav.assets", icon: <WalletOutlined />, testId: "tab-assets" },
  { key: "/setting", label: "nav.me", icon: <UserOutlined />, testId: "tab-me" },
];

/**
 * Phones (below 768 px, by CSS so the first paint is right): the six main sections in a bar at the
 * bottom, as trading apps have it, clear of the home indicator (safe-area inset).
 */
export function TabBar() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const section = navKeyOf(useLocation().pathname);
  // The bar has one Trade entry for spot and options (the trade screens switch between them).
  const current = section === "/options" ? "/currency" : section;
  const go = useAppNavigate();
  return (
    <nav
      className="ns-tab-bar"
      aria-label={t("nav.tabBar")}
      style={{ background: token.colorBgContainer, borderTop: `1px solid ${token.colorBorderSecondary}` }}
      data-testid="tab-bar"
    >
      {TABS.map((tab) => {
        const active = tab.key === current;
        return (
          <Link
            key={tab.key}
            to={tab.key}
            onClick={(e) => {
              // The app's navigation rules (same place ignored, /market reloads); a new tab works as usual.
              if (!(e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0)) {
                e.preventDefault();
                go(tab.key);
              }
            }}
            className="ns-tab"
            aria-current={active ? "page" : undefined}
            style={{ color: active ? token.colorPrimary : token.colorTextSecondary }}
            data-testid={tab.testId}
          >
            <span className="ns-tab-icon" aria-hidden>
              {tab.icon}
            </span>
            <span className="ns-tab-label">{t(tab.label)}</span>
          </Link>
        );
      })}
    </nav>
  );
}
