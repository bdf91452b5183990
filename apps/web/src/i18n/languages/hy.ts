import antd from "antd/es/locale/ko_KR";
import "dayjs/locale/ko";
import { byNamespace, type LanguagePack } from "./pack.ts";

export default {
  catalog: byNamespace(
    import.meta.glob("../../../../../packages/shared/src/i18n/hy/*.json", { eager: true, import: "default" }),
  ),
  antd,
  dayjs: "ko",
} satisfies LanguagePack;
