import antd from "antd/es/locale/zh_TW";
import "dayjs/locale/zh-tw";
import { byNamespace, type LanguagePack } from "./pack.ts";

export default {
  catalog: byNamespace(
    // Texts of pages few visits open load with those pages (PAGE_NAMESPACES in ../index.ts).
    import.meta.glob(
      [
        "../../../../../packages/shared/src/i18n/ft/*.json",
        "!../../../../../packages/shared/src/i18n/ft/{admin,earn,kyc,launchpad,options,loans,c2c,contracts,proofs,wallet,referral,rewards,messages}.json",
      ],
      {
        eager: true,
        import: "default",
      },
    ),
  ),
  antd,
  dayjs: "zh-tw",
} satisfies LanguagePack;
