import antd from "antd/es/locale/en_US";
import { byNamespace, type LanguagePack } from "./pack.ts";

export default {
  catalog: byNamespace(
    import.meta.glob("../../../../../packages/shared/src/i18n/en/*.json", { eager: true, import: "default" }),
  ),
  antd,
  dayjs: "en",
} satisfies LanguagePack;
