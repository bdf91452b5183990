import antd from "antd/es/locale/en_US";
import { byNamespace, type LanguagePack } from "./pack.ts";

export default {
  catalog: byNamespace(
    // Texts of pages few visits open load with those pages (PAGE_NAMESPACES in ../index.ts).
    import.meta.glob(
      [
        "../../../../../packages/shared/src/i18n/en/*.json",
        "!../../../../../packages/shared/src/i18n/en/{admin,earn,kyc,launchpad,options,loans,c2c,contracts,proofs,wallet,referral,rewards,messages}.json",
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
