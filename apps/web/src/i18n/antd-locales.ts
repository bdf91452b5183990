import type { Language } from "@northstar/shared/languages";
import enUS from "antd/locale/en_US";
import esES from "antd/locale/es_ES";
import jaJP from "antd/locale/ja_JP";
import koKR from "antd/locale/ko_KR";
import thTH from "antd/locale/th_TH";
import viVN from "antd/locale/vi_VN";
import zhCN from "antd/locale/zh_CN";
import zhTW from "antd/locale/zh_TW";
import "dayjs/locale/es";
import "dayjs/locale/ja";
import "dayjs/locale/ko";
import "dayjs/locale/th";
import "dayjs/locale/vi";
import "dayjs/locale/zh-cn";
import "dayjs/locale/zh-tw";

/** Ant Design's own texts (date pickers, pagination, empty states) follow the interface language. */
export const ANTD_LOCALES = {
  en: enUS,
  xby: esES,
  jp: jaJP,
  hy: koKR,
  ty: thTH,
  yn: viVN,
  zh: zhCN,
  ft: zhTW,
} satisfies Record<Language, unknown>;

export const DAYJS_LOCALES: Record<Language, string> = {
  en: "en",
  xby: "es",
  jp: "ja",
  hy: "ko",
  ty: "th",
  yn: "vi",
  zh: "zh-cn",
  ft: "zh-tw",
};
