import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../http/deps.ts";
import { getLogo, getTextsList } from "./content.ts";
import { registerLegacyCall } from "./define.ts";
import { getAsset2, getCurrencyAll, tempLogin } from "./funding.ts";
import { getCode, hasTpassword, info, updatePasswordCall, userLogin, userRegister } from "./identity.ts";

/** Calls that throttle per client address: guessing passwords, spamming codes, mass sign-ups. */
export const RATE_LIMITED_CALLS = new Set([
  "userLogin",
  "getCode",
  "userRegister",
  "updatePassword",
  "tempLogin",
]);

/** The legacy `web/*` calls built so far; the remaining names of SPEC section 7 come with their modules. */
export function registerLegacyApi(app: FastifyInstance, deps: AppDeps): void {
  for (const call of [
    userLogin,
    getCode,
    userRegister,
    info,
    updatePasswordCall,
    hasTpassword,
    getLogo,
    getTextsList,
    getAsset2,
    getCurrencyAll,
    tempLogin,
  ]) {
    const rateLimit = RATE_LIMITED_CALLS.has(call.name)
      ? { max: deps.config.authRatePerMinute, timeWindow: "1 minute" }
      : false;
    registerLegacyCall(app, deps, call as Parameters<typeof registerLegacyCall>[2], {
      config: { rateLimit },
    });
  }
}
