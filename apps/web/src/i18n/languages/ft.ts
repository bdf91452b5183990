import antd from "antd/es/locale/zh_TW";
import "dayjs/locale/zh-tw";
import { byNamespace, type LanguagePack } from "./pack.ts";

export default {
  catalog: byNamespace(
    import.meta.glob("../../../../../packages/shared/src/i18n/ft/*.json", { eager: true, import: "default" }),
  ),
  antd,
  dayjs: "zh-tw",
} satisfies LanguagePack;
