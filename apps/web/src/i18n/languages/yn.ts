import antd from "antd/es/locale/vi_VN";
import "dayjs/locale/vi";
import { byNamespace, type LanguagePack } from "./pack.ts";

export default {
  catalog: byNamespace(
    import.meta.glob("../../../../../packages/shared/src/i18n/yn/*.json", { eager: true, import: "default" }),
  ),
  antd,
  dayjs: "vi",
} satisfies LanguagePack;
