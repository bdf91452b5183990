import { AppError } from "@northstar/domain/errors";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { takeAddressBudget } from "../http/address-limit.ts";
import type { AppDeps } from "../http/deps.ts";
import { getLogo, getTextsList } from "./content.ts";
import { registerLegacyCall } from "./define.ts";
import { buyProfit, getProfitInfo, getProfitList, getProfitTotal, sellProfit } from "./earn.ts";
import { getAsset2, getCurrencyAll, tempLogin } from "./funding.ts";
import { getCode, hasTpassword, info, updatePasswordCall, userLogin, userRegister } from "./identity.ts";
import { lendBack, lendImg, lendList, lendMy, lendMylist } from "./loans.ts";
import { getMyPromotion } from "./referral.ts";

/** Calls that throttle per client address: guessing passwords, spamming codes, mass sign-ups. */
export const RATE_LIMITED_CALLS = new Set([
  "userLogin",
  "getCode",
  "userRegister",
  "updatePassword",
  "tempLogin",
]);

/** The legacy `web/*` calls, the 22 names of SPEC section 7, in one table (the bad-input property test walks it). */
export const LEGACY_CALLS = [
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
  getProfitTotal,
  getProfitList,
  getProfitInfo,
  buyProfit,
  sellProfit,
  lendMy,
  lendList,
  lendMylist,
  lendBack,
  lendImg,
  getMyPromotion,
] as const;

export function registerLegacyApi(app: FastifyInstance, deps: AppDeps): void {
  for (const call of LEGACY_CALLS) {
    registerLegacyCall(
      app,
      deps,
      call as Parameters<typeof registerLegacyCall>[2],
      RATE_LIMITED_CALLS.has(call.name) ? { preHandler: perAddressLimit(deps, call.name) } : {},
    );
  }
}

/**
 * One budget per client address and call, whatever the HTTP method (GET and POST of a call share it),
 * in any 60 seconds (http/address-limit.ts). Runs after body parsing, so the refusal answers in a form
 * body's `lang`, and before the call does any work.
 */
function perAddressLimit(deps: AppDeps, name: string) {
  return async (request: FastifyRequest) => {
    try {
      await takeAddressBudget(deps, `web/${name}`, request.ip);
    } catch (error) {
      if (error instanceof AppError && error.code === "RATE_LIMITED") {
        throw Object.assign(new Error("RATE_LIMITED"), { statusCode: 429, code: "RATE_LIMITED" });
      }
      throw error;
    }
  };
}
