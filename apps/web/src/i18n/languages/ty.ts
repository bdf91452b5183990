import antd from "antd/es/locale/th_TH";
import "dayjs/locale/th";
import { byNamespace, type LanguagePack } from "./pack.ts";

export default {
  catalog: byNamespace(
    // The back office's texts load with the back office (PAGE_NAMESPACES in ../index.ts).
    import.meta.glob(
      [
        "../../../../../packages/shared/src/i18n/ty/*.json",
        "!../../../../../packages/shared/src/i18n/ty/admin.json",
      ],
      {
        eager: true,
        import: "default",
      },
    ),
  ),
  antd,
  dayjs: "th",
} satisfies LanguagePack;
