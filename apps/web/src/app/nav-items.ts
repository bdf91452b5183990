/**
 * The main sections: the header menu on wide screens; below 768 px the tab bar (tab-bar.tsx) shows
 * six of them, "me" included (options share the Trade tab). `match` lists the routes that light each one up.
 */
export const NAV = [
  { key: "/", label: "nav.home", match: ["/", "/index"] },
  { key: "/market", label: "nav.market", match: ["/market"] },
  {
    key: "/currency",
    label: "nav.trade",
    match: ["/currency", "/currencyTrade", "/exchange", "/currencyRecord", "/preciousMetal"],
  },
  { key: "/options", label: "nav.options", match: ["/options", "/optionsRecord"] },
  { key: "/profit_index", label: "nav.earn", match: ["/profit_index", "/vip_index", "/etflow_buy"] },
  { key: "/table1", label: "nav.assets", match: ["/table1", "/table2", "/record", "/transfer", "/address"] },
  { key: "/setting", label: "nav.me", match: ["/setting", "/security", "/info", "/username"] },
] as const;

export type NavKey = (typeof NAV)[number]["key"];

/** The section a path belongs to, if any. */
export function navKeyOf(pathname: string): NavKey | undefined {
  return NAV.find((n) => (n.match as readonly string[]).includes(pathname))?.key;
}
