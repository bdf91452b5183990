import antd from "antd/es/locale/en_US";
import { byNamespace, byPageNamespace, type LanguagePack } from "./pack.ts";

export default {
  catalog: byNamespace(
    // Every namespace but those of pages few visits open (`pages` below).
    import.meta.glob(
      [
        "../../../../../packages/shared/src/i18n/en/*.json",
        "!../../../../../packages/shared/src/i18n/en/{admin,earn,kyc,launchpad,options,loans,c2c,contracts,proofs,wallet,referral,rewards,messages,errors,fields,help}.json",
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
      "../../../../../packages/shared/src/i18n/en/{admin,earn,kyc,launchpad,options,loans,c2c,contracts,proofs,wallet,referral,rewards,messages,errors,fields,help}.json",
      {
        import: "default",
      },
    ),
  ),
  antd,
  dayjs: "en",
} satisfies LanguagePack;
