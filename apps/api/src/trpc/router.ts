import { router } from "./init.ts";
import { adminRouter } from "./routers/admin/router.ts";
import { apiKeysAdminRouter, apiKeysRouter } from "./routers/apikeys/router.ts";
import { c2cAdminRouter } from "./routers/c2c/admin-router.ts";
import { c2cRouter } from "./routers/c2c/router.ts";
import { contentAdminRouter, contentRouter } from "./routers/content/router.ts";
import { contractsAdminRouter, contractsRouter } from "./routers/contracts/router.ts";
import { adminEarnRouter, earnRouter } from "./routers/earn/router.ts";
import {
  assetRouter,
  bankCardRouter,
  conversionRouter,
  depositRouter,
  googleAuthRouter,
  transferRouter,
  withdrawalAddressRouter,
  withdrawalRouter,
} from "./routers/funding/router.ts";
import { identityRouter } from "./routers/identity/router.ts";
import { walletLoginRouter } from "./routers/identity/wallet-router.ts";
import { kycRouter } from "./routers/kyc/router.ts";
import { adminLaunchpadRouter, launchpadRouter } from "./routers/launchpad/router.ts";
import { adminLoansRouter, loansRouter } from "./routers/loans/router.ts";
import { marketRouter } from "./routers/markets/router.ts";
import { messagesRouter } from "./routers/messages/router.ts";
import { optionsAdminRouter, optionsRouter } from "./routers/options/router.ts";
import { policyRouter } from "./routers/policy/router.ts";
import { adminProofsRouter, proofsRouter } from "./routers/proofs/router.ts";
import { referralAdminRouter, referralRouter } from "./routers/referral/router.ts";
import { rewardsAdminRouter, rewardsRouter } from "./routers/rewards/router.ts";
import { spotRouter } from "./routers/spot/router.ts";
import { supportRouter } from "./routers/support/router.ts";

export const appRouter = router({
  identity: identityRouter,
  walletLogin: walletLoginRouter,
  policy: policyRouter,
  asset: assetRouter,
  deposit: depositRouter,
  withdrawal: withdrawalRouter,
  withdrawalAddress: withdrawalAddressRouter,
  bankCard: bankCardRouter,
  transfer: transferRouter,
  conversion: conversionRouter,
  googleAuth: googleAuthRouter,
  market: marketRouter,
  spot: spotRouter,
  apiKeys: apiKeysRouter,
  apiKeysAdmin: apiKeysAdminRouter,
  admin: adminRouter,
  kyc: kycRouter,
  earn: earnRouter,
  adminEarn: adminEarnRouter,
  launchpad: launchpadRouter,
  adminLaunchpad: adminLaunchpadRouter,
  options: optionsRouter,
  optionsAdmin: optionsAdminRouter,
  proofs: proofsRouter,
  adminProofs: adminProofsRouter,
  loans: loansRouter,
  adminLoans: adminLoansRouter,
  c2c: c2cRouter,
  c2cAdmin: c2cAdminRouter,
  contracts: contractsRouter,
  contractsAdmin: contractsAdminRouter,
  referral: referralRouter,
  referralAdmin: referralAdminRouter,
  rewards: rewardsRouter,
  rewardsAdmin: rewardsAdminRouter,
  messages: messagesRouter,
  support: supportRouter,
  content: contentRouter,
  contentAdmin: contentAdminRouter,
});

/** Imported as a type only by the web app. */
export type AppRouter = typeof appRouter;
