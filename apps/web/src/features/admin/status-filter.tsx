import { Segmented } from "antd";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";

/**
 * A queue's status filter, kept in the URL (`?status=`) so a filtered queue can be linked to.
 * The first status is the default.
 */
export function useStatusFilter<S extends string>(
  statuses: readonly S[],
): [S | "all", (s: S | "all") => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get("status");
  const status: S | "all" = raw === "all" ? "all" : (statuses.find((s) => s === raw) ?? (statuses[0] as S));
  const set = (next: S | "all") => {
    const copy = new URLSearchParams(params);
    if (next === statuses[0]) {
      copy.delete("status");
    } else {
      copy.set("status", next);
    }
    setParams(copy, { replace: true });
  };
  return [status, set];
}

export function StatusFilter<S extends string>({
  statuses,
  value,
  onChange,
}: {
  statuses: readonly S[];
  value: S | "all";
  onChange: (s: S | "all") => void;
}) {
  const { t } = useTranslation();
  return (
    <Segmented<S | "all">
      value={value}
      onChange={onChange}
      options={[...statuses, "all" as const].map((s) => ({
        value: s,
        label: <span data-testid={`admin-status-${s}`}>{t(`admin.status.${s}`)}</span>,
      }))}
    />
  );
}
