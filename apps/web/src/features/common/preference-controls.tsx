import { GlobalOutlined, MoonOutlined, SunOutlined } from "@ant-design/icons";
import { LANGUAGE_INFO, LANGUAGES, type Language } from "@northstar/shared/languages";
import { Button, Tooltip } from "antd";
import { useTranslation } from "react-i18next";
import { setLanguage } from "../../i18n/index.ts";
import { themeStore, useLanguage, useThemeMode } from "../../lib/session.ts";
import { HeaderMenu } from "./header-menu.tsx";

/** The language menu of the headers (user app and back office); the choice is kept on this device. */
export function LanguageSwitcher() {
  const { t } = useTranslation();
  const lang = useLanguage();
  return (
    <HeaderMenu
      label={t("common.language")}
      selectedKey={lang}
      items={LANGUAGES.map((l) => ({ key: l, label: LANGUAGE_INFO[l].nativeName, testId: `lang-${l}` }))}
      onSelect={(key) => void setLanguage(key as Language)}
      renderButton={({ toggle, open: _open, ...aria }) => (
        <Button
          type="text"
          icon={<GlobalOutlined />}
          aria-label={t("common.language")}
          onClick={toggle}
          {...aria}
          data-testid="language-switcher"
        >
          <span className="header-language-label">{LANGUAGE_INFO[lang].nativeName}</span>
        </Button>
      )}
    />
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
