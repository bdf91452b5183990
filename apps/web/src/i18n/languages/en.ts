import antd from "antd/es/locale/en_US";
import { byNamespace, type LanguagePack } from "./pack.ts";

export default {
  catalog: byNamespace(
    // The back office's texts load with the back office (PAGE_NAMESPACES in ../index.ts).
    import.meta.glob(
      [
        "../../../../../packages/shared/src/i18n/en/*.json",
        "!../../../../../packages/shared/src/i18n/en/admin.json",
      ],
      {
        eager: true,
        import: "default",
      },
    ),
  ),
  antd,
  dayjs: "en",
} satisfies LanguagePack;
