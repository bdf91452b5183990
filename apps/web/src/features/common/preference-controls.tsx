import { GlobalOutlined, MoonOutlined, SunOutlined } from "@ant-design/icons";
import { LANGUAGE_INFO, LANGUAGES, type Language } from "@northstar/shared/languages";
import { Button, Dropdown, Tooltip } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { setLanguage } from "../../i18n/index.ts";
import { themeStore, useLanguage, useThemeMode } from "../../lib/session.ts";

/** The language menu of the headers (user app and back office); the choice is kept on this device. */
export function LanguageSwitcher() {
  const { t } = useTranslation();
  const lang = useLanguage();
  // Kept here so the button can say whether its menu is open (aria-expanded).
  const [open, setOpen] = useState(false);
  return (
    <Dropdown
      trigger={["click"]}
      open={open}
      onOpenChange={setOpen}
      menu={{
        selectable: true,
        selectedKeys: [lang],
        items: LANGUAGES.map((l) => ({
          key: l,
          label: LANGUAGE_INFO[l].nativeName,
          "data-testid": `lang-${l}`,
        })),
        onClick: ({ key }) => setLanguage(key as Language),
      }}
    >
      <Button
        type="text"
        icon={<GlobalOutlined />}
        aria-label={t("common.language")}
        aria-haspopup="menu"
        aria-expanded={open}
        data-testid="language-switcher"
      >
        <span className="header-language-label">{LANGUAGE_INFO[lang].nativeName}</span>
      </Button>
    </Dropdown>
  );
}

/** Light or dark, kept on this device. */
export function ThemeToggle() {
  const { t } = useTranslation();
  const mode = useThemeMode();
  return (
    <Tooltip title={t("common.theme")}>
      <Button
        type="text"
        aria-label={t("common.theme")}
        data-testid="theme-toggle"
        icon={mode === "dark" ? <SunOutlined /> : <MoonOutlined />}
        onClick={() => themeStore.set(mode === "dark" ? "light" : "dark")}
      />
    </Tooltip>
  );
}
