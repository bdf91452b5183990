import antd from "antd/es/locale/zh_CN";
import "dayjs/locale/zh-cn";
import { byNamespace, type LanguagePack } from "./pack.ts";

export default {
  catalog: byNamespace(
    import.meta.glob("../../../../../packages/shared/src/i18n/zh/*.json", { eager: true, import: "default" }),
  ),
  antd,
  dayjs: "zh-cn",
} satisfies LanguagePack;
