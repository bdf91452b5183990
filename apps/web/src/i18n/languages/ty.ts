import antd from "antd/es/locale/th_TH";
import "dayjs/locale/th";
import { byNamespace, type LanguagePack } from "./pack.ts";

export default {
  catalog: byNamespace(
    import.meta.glob("../../../../../packages/shared/src/i18n/ty/*.json", { eager: true, import: "default" }),
  ),
  antd,
  dayjs: "th",
} satisfies LanguagePack;
