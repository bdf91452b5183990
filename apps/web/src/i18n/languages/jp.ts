import antd from "antd/es/locale/ja_JP";
import "dayjs/locale/ja";
import { byNamespace, type LanguagePack } from "./pack.ts";

export default {
  catalog: byNamespace(
    import.meta.glob("../../../../../packages/shared/src/i18n/jp/*.json", { eager: true, import: "default" }),
  ),
  antd,
  dayjs: "ja",
} satisfies LanguagePack;
