import antd from "antd/es/locale/zh_CN";
import "dayjs/locale/zh-cn";
import { byNamespace, type LanguagePack } from "./pack.ts";

export default {
  catalog: byNamespace(
    // Texts of pages few visits open load with those pages (PAGE_NAMESPACES in ../index.ts).
    import.meta.glob(
      [
        "../../../../../packages/shared/src/i18n/zh/*.json",
        "!../../../../../packages/shared/src/i18n/zh/{admin,earn,kyc,launchpad,options,loans,c2c,contracts,proofs,wallet,referral,rewards,messages}.json",
      ],
      {
        eager: true,
        import: "default",
      },
    ),
  ),
  antd,
  dayjs: "zh-cn",
} satisfies LanguagePack;
