import antd from "antd/es/locale/es_ES";
import "dayjs/locale/es";
import { byNamespace, type LanguagePack } from "./pack.ts";

export default {
  catalog: byNamespace(
    import.meta.glob("../../../../../packages/shared/src/i18n/xby/*.json", {
      eager: true,
      import: "default",
    }),
  ),
  antd,
  dayjs: "es",
} satisfies LanguagePack;
