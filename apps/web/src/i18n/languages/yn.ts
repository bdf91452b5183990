import antd from "antd/es/locale/vi_VN";
import "dayjs/locale/vi";
import { byNamespace, byPageNamespace, type LanguagePack } from "./pack.ts";

export default {
  catalog: byNamespace(
    // Every namespace but those of pages few visits open (`pages` below).
    import.meta.glob(
      [
        "../../../../../packages/shared/src/i18n/yn/*.json",
        "!../../../../../packages/shared/src/i18n/yn/{admin,earn,kyc,launchpad,options,loans,c2c,contracts,proofs,wallet,referral,rewards,messages,errors,fields,help}.json",
      ],
      {
        eager: true,
        import: "default",
      },
    ),
  ),
  // Texts of pages few visits open, fetched with those pages (`loadNamespace` in ../index.ts).
  pages: byPageNamespace(
    import.meta.glob<Record<string, unknown>>(
      "../../../../../packages/shared/src/i18n/yn/{admin,earn,kyc,launchpad,options,loans,c2c,contracts,proofs,wallet,referral,rewards,messages,errors,fields,help}.json",
      {
        import: "default",
      },
    ),
  ),
  antd,
  dayjs: "vi",
} satisfies LanguagePack;
