import { router } from "./init.ts";
import { adminRouter } from "./routers/admin/router.ts";
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
import { policyRouter } from "./routers/policy/router.ts";

export const appRouter = router({
  identity: identityRouter,
  policy: policyRouter,
  asset: assetRouter,
  deposit: depositRouter,
  withdrawal: withdrawalRouter,
  withdrawalAddress: withdrawalAddressRouter,
  bankCard: bankCardRouter,
  transfer: transferRouter,
  conversion: conversionRouter,
  googleAuth: googleAuthRouter,
  admin: adminRouter,
});

/** Imported as a type only by the web app. */
export type AppRouter = typeof appRouter;
