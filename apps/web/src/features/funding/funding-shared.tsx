import { LeftOutlined, RightOutlined } from "@ant-design/icons";
import type { AppRouter } from "@northstar/api/trpc";
import { isErrorCode } from "@northstar/shared/errors";
import { LANGUAGE_INFO } from "@northstar/shared/languages";
import { money } from "@northstar/shared/money";
import { useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import type { FormRule } from "antd";
import { Button, Flex, Result, Tag, Typography, theme } from "antd";
import type { TFunction } from "i18next";
import { type ReactNode, useMemo } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { exitDemo } from "../../lib/demo.ts";
import { useSession } from "../../lib/queries.ts";
import { useLanguage } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import "./funding.css";

type Outputs = inferRouterOutputs<AppRouter>;
export type DepositOption = Outputs["deposit"]["options"]["addresses"][number];
export type DepositRecord = Outputs["deposit"]["getMany"][number];
export type WithdrawalRecord = Outputs["withdrawal"]["getMany"][number];
export type WithdrawalTerms = Outputs["withdrawal"]["terms"];
export type WithdrawalAddress = Outputs["withdrawalAddress"]["getMany"][number];
export type BankCard = Outputs["bankCard"]["getMany"][number];

/** The chains a withdrawal address may be on; the server checks the address format of each. */
export const CHAINS = ["ERC20", "TRC20", "BEP20", "BTC", "SOL", "XRP", "LTC", "DOGE"] as const;

/** Records are listed 20 to a page. */
export const PAGE_SIZE = 20;

/**
 * Money screens are for real accounts only (the server refuses demo users with
 * REAL_ACCOUNT_REQUIRED): a demo user is told so before any form, with the way out of the demo.
 */
export function RealAccountOnly({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const session = useSession();
  if (session.isPending) {
    return <LoadingState />;
  }
  if (session.isError) {
    return <ErrorState onRetry={() => void session.refetch()} />;
  }
  if (session.data.account_kind === "demo") {
    return (
      <Result
        status="info"
        title={t("errors.REAL_ACCOUNT_REQUIRED")}
        subTitle={t("funding.common.demoHint")}
        data-testid="real-account-required"
        extra={
          <Button type="primary" onClick={exitDemo}>
            {t("common.demo.exit")}
          </Button>
        }
      />
    );
  }
  return children;
}

/** Tag colours from antd's status presets, so they follow the light and dark themes. */
const STATUS_COLOR: Record<string, string> = {
  pending: "processing",
  success: "success",
  failed: "error",
  cancelled: "default",
};

export function StatusTag({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <Tag
      color={STATUS_COLOR[status] ?? "default"}
      variant="filled"
      style={{ marginInlineEnd: 0 }}
      data-testid="record-status"
      data-status={status}
    >
      {t(`funding.status.${status}`, { defaultValue: status })}
    </Tag>
  );
}

/** A decimal string as it is stored, without trailing zeros ("100.500000" → "100.5"). */
export function plainAmount(value: string | null | undefined): string {
  if (!value) {
    return "0";
  }
  try {
    return money(value).toFixed();
  } catch {
    return value;
  }
}

/** Thousands separated for reading ("200000" → "200,000"); the decimals are kept as they are. */
export function groupDigits(value: string): string {
  const [int = "", frac] = plainAmount(value).split(".");
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return frac ? `${grouped}.${frac}` : grouped;
}

/** An amount: tabular digits, never wrapped, with its currency in the secondary colour. */
export function Amount({
  value,
  currency,
  strong,
  testId,
}: {
  value: string;
  currency?: string;
  strong?: boolean;
  testId?: string;
}) {
  const { token } = theme.useToken();
  return (
    <span className="ns-num" data-testid={testId}>
      <Typography.Text strong={strong}>{groupDigits(value)}</Typography.Text>
      {currency && (
        <span style={{ color: token.colorTextSecondary, marginInlineStart: 4, fontSize: "0.9em" }}>
          {currency}
        </span>
      )}
    </span>
  );
}

/** "0x1234ab…9f3c": enough of a hash or address to recognise it. */
export function shorten(value: string, head = 8, tail = 6): string {
  return value.length <= head + tail + 1 ? value : `${value.slice(0, head)}…${value.slice(-tail)}`;
}

/** A card or account number with all but its last four characters hidden. */
export function maskCard(value: string): string {
  const clean = value.replace(/[\s-]/g, "");
  return clean.length <= 4 ? clean : `•••• ${clean.slice(-4)}`;
}

/** Date and time in the interface language (Thai shows the Buddhist year). */
export function useFormatDateTime(): (value: string | Date) => string {
  const lang = useLanguage();
  return useMemo(() => {
    const format = new Intl.DateTimeFormat(LANGUAGE_INFO[lang].bcp47, {
      dateStyle: "medium",
      timeStyle: "short",
    });
    return (value: string | Date) => format.format(typeof value === "string" ? new Date(value) : value);
  }, [lang]);
}

/** A label and a value on one line; the value (usually an amount) is right-aligned. */
export function KeyValue({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="ns-kv">
      <Typography.Text type="secondary" className="ns-kv-label">
        {label}
      </Typography.Text>
      <div className="ns-kv-value">{children}</div>
    </div>
  );
}

/**
 * Previous / next for lists the server pages without a total: a full page means there may be more.
 */
export function Pager({
  page,
  count,
  onPage,
  disabled,
}: {
  page: number;
  count: number;
  onPage: (page: number) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  if (page === 1 && count < PAGE_SIZE) {
    return null;
  }
  return (
    <Flex justify="center" align="center" gap={12} style={{ marginTop: 16 }}>
      <Button
        icon={<LeftOutlined />}
        disabled={disabled || page <= 1}
        onClick={() => onPage(page - 1)}
        aria-label={t("funding.common.previous")}
        data-testid="records-prev"
      />
      <Typography.Text className="ns-num">{t("funding.common.page", { page })}</Typography.Text>
      <Button
        icon={<RightOutlined />}
        disabled={disabled || count < PAGE_SIZE}
        onClick={() => onPage(page + 1)}
        aria-label={t("funding.common.next")}
        data-testid="records-next"
      />
    </Flex>
  );
}

/** The page number of a records list, kept in the URL so Back returns to it. */
export function pageFromSearch(search: URLSearchParams): number {
  return Math.max(1, Number.parseInt(search.get("page") ?? "1", 10) || 1);
}

/**
 * An antd rule from a shared zod schema (the server's own rule), with the refusal translated and
 * naming the field: `FIELD_REQUIRED` and `FIELD_INVALID` read "{{field}} cannot be empty".
 */
export function fieldRule(schema: z.ZodType, t: TFunction, label: string): FormRule {
  return {
    validator: async (_, value) => {
      const result = schema.safeParse(value ?? "");
      if (result.success) {
        return;
      }
      const code = result.error.issues[0]?.message;
      throw new Error(
        isErrorCode(code)
          ? t(`errors.${code}`, { field: label })
          : t("errors.FIELD_INVALID", { field: label }),
      );
    },
  };
}

/** A required text field: "{{field}} cannot be empty", as the server says it. */
export function requiredRule(t: TFunction, label: string): FormRule {
  return { required: true, whitespace: true, message: t("errors.FIELD_REQUIRED", { field: label }) };
}

/**
 * The decimals each currency is held to (`currencies.decimals`): the server refuses a deposit or
 * withdrawal amount finer than that (AMOUNT_INVALID) and rounds the withdrawal fee up to it.
 * Undefined while the list is loading or for an unknown currency.
 */
export function useCurrencyDecimals(): (currency: string) => number | undefined {
  const trpc = useTRPC();
  const currencies = useQuery(trpc.asset.currencies.queryOptions(undefined, { staleTime: 10 * 60_000 }));
  const data = currencies.data;
  return useMemo(() => {
    const byCode = new Map((data ?? []).map((c) => [c.code, c.decimals]));
    return (currency: string) => byCode.get(currency);
  }, [data]);
}

/** An amount with more decimals than its currency allows: refused as the server refuses it. */
export function decimalsRule(t: TFunction, currency: string, decimals: number | undefined): FormRule {
  return {
    validator: async (_, value: string | undefined) => {
      if (decimals === undefined || !value || !/^\d+(\.\d+)?$/.test(value.trim())) {
        return;
      }
      if (money(value.trim()).decimalPlaces() > decimals) {
        throw new Error(t("funding.common.tooManyDecimals", { currency, decimals }));
      }
    },
  };
}
