import type { AppRouter } from "@northstar/api/trpc";
import { isErrorCode } from "@northstar/shared/errors";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import type { FormRule } from "antd";
import type { TFunction } from "i18next";
import { useCallback, useEffect, useState } from "react";
import type { z } from "zod";
import { useTRPC } from "../../lib/trpc.ts";

type Outputs = inferRouterOutputs<AppRouter>;
export type AssetsData = Outputs["asset"]["get"];
export type AssetRow = AssetsData["rows"][number];
export type AssetsOverview = Outputs["asset"]["overview"];
export type AssetHolding = AssetsOverview["holdings"][number];
export type CurrencyInfo = Outputs["asset"]["currencies"][number];
export type MoneyRecord = Outputs["asset"]["records"][number];
export type ConversionQuote = Outputs["conversion"]["quote"];
export type ConversionFirmQuote = Outputs["conversion"]["createQuote"];

/** The user's balances per account and currency, with USDT totals. */
export function useAssets() {
  const trpc = useTRPC();
  return useQuery(trpc.asset.get.queryOptions());
}

/** Everything the user owns, per currency and bucket (the proof of liabilities' buckets), valued in USDT. */
export function useAssetsOverview() {
  const trpc = useTRPC();
  return useQuery(trpc.asset.overview.queryOptions());
}

/** The currencies the platform holds: code, name, stored and display decimals. They rarely change. */
export function useCurrencies() {
  const trpc = useTRPC();
  return useQuery(trpc.asset.currencies.queryOptions(undefined, { staleTime: 10 * 60_000 }));
}

/** Balances and records changed: refetch every asset.* query. */
export function useInvalidateAssets(): () => Promise<void> {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries(trpc.asset.pathFilter()), [queryClient, trpc]);
}

/** The value once it has stopped changing for `ms` (typing into an amount that fetches a quote). */
export function useDebouncedValue<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** Translated text for the first issue of a shared zod schema (zod issue messages are error codes). */
function issueText(code: string | undefined, t: TFunction, field: string): string {
  // Every text that has a {{field}} names this one.
  const name = t(`fields.${field}`);
  return isErrorCode(code)
    ? t(`errors.${code}`, { field: name })
    : t("errors.FIELD_INVALID", { field: name });
}

/**
 * A form rule that runs a whole shared request schema and reports the issues it puts on `field`:
 * for refinements that compare fields (the transfer's "two different accounts"), which a
 * single-field zodRule cannot see.
 */
export function objectSchemaRule(
  schema: z.ZodType,
  t: TFunction,
  field: string,
  values: (value: unknown) => Record<string, unknown>,
): FormRule {
  return {
    validator: async (_, value) => {
      const result = schema.safeParse(values(value));
      const issue = result.success ? undefined : result.error.issues.find((i) => i.path[0] === field);
      if (issue) {
        throw new Error(issueText(issue.message, t, field));
      }
    },
  };
}
