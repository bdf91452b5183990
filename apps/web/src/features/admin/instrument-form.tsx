import { isErrorCode } from "@northstar/shared/errors";
import { type InstrumentInput, instrumentInputSchema } from "@northstar/shared/markets";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { FormInstance } from "antd";
import { Alert, App, Button, Drawer, Flex, Form } from "antd";
import type { TFunction } from "i18next";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { toApiError, useTRPC } from "../../lib/trpc.ts";
import { refusalText } from "./admin-query-client.ts";
import type { InstrumentRow } from "./admin-types.ts";
import { InstrumentFields } from "./instrument-form-fields.tsx";

/** What a new instrument starts as: the common choices filled in, the market-specific ones empty. */
const NEW_INSTRUMENT: InstrumentInput = {
  symbol: "",
  name: "",
  category: "crypto",
  base: "",
  quote: "USDT",
  tickSize: "",
  lotSize: "",
  minQty: "",
  contractSize: "1",
  maxLeverage: 20,
  displayDecimals: 2,
  kinds: ["spot", "contract"],
  tradingHours: { timeZone: "UTC", sessions: [] },
  referencePrice: "",
  volatility: "",
  feedSource: null,
  sourceSymbol: null,
  sort: 1000,
  enabled: true,
};

/** The form's values: the shared input with its strings trimmed and its codes upper-case. */
function normalise(values: InstrumentInput): InstrumentInput {
  const trim = (v: unknown) => (typeof v === "string" ? v.trim() : "");
  return {
    ...values,
    symbol: trim(values.symbol).toUpperCase(),
    name: trim(values.name),
    base: trim(values.base).toUpperCase(),
    quote: trim(values.quote).toUpperCase(),
    tickSize: trim(values.tickSize),
    lotSize: trim(values.lotSize),
    minQty: trim(values.minQty),
    contractSize: trim(values.contractSize),
    referencePrice: trim(values.referencePrice),
    volatility: trim(values.volatility),
    feedSource: values.feedSource ?? null,
    sourceSymbol: trim(values.sourceSymbol) || null,
    kinds: values.kinds ?? [],
    tradingHours: {
      timeZone: values.tradingHours?.timeZone ?? "",
      sessions: (values.tradingHours?.sessions ?? []).map((s) => ({
        days: [...(s.days ?? [])].sort((a, b) => a - b),
        open: trim(s.open),
        close: trim(s.close),
      })),
    },
    sort: values.sort ?? 0,
    enabled: values.enabled ?? true,
  };
}

/** A form field's name path, e.g. ["tradingHours", "sessions", 0, "open"]. */
type FieldName = Parameters<FormInstance<InstrumentInput>["setFields"]>[0][number]["name"];

/** A refusal's field ("tradingHours.sessions.0.open") as a form name path. */
const namePath = (field: string) =>
  field.split(".").map((part) => (/^\d+$/.test(part) ? Number(part) : part)) as FieldName;

/** The form label of the last named part of a path. */
const fieldLabel = (t: TFunction, path: readonly PropertyKey[]) => {
  const last = [...path].reverse().find((p) => typeof p === "string");
  return typeof last === "string" ? t(`fields.${last}`) : "";
};

/** Adds or edits one instrument; the symbol of an existing one is fixed (it is the key). */
export function InstrumentEditor({
  open,
  row,
  onClose,
  afterClose,
}: {
  open: boolean;
  row: InstrumentRow | null;
  onClose: () => void;
  afterClose: () => void;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<InstrumentInput>();
  const [error, setError] = useState<string>();
  const [checking, setChecking] = useState(false);
  const save = useMutation(trpc.admin.saveInstrument.mutationOptions({ meta: { inline: true } }));
  const editing = row !== null;
  const width = useDrawerWidth();

  const initial = useMemo<InstrumentInput>(() => {
    if (!row) {
      return NEW_INSTRUMENT;
    }
    const { id: _id, ...values } = row;
    return values;
  }, [row]);

  const close = () => {
    if (save.isPending || checking) {
      return;
    }
    if (!form.isFieldsTouched()) {
      onClose();
      return;
    }
    modal.confirm({
      title: t("admin.instruments.discardTitle"),
      content: t("admin.instruments.discardBody"),
      okText: t("admin.instruments.discard"),
      okButtonProps: { danger: true },
      cancelText: t("admin.instruments.keepEditing"),
      onOk: onClose,
    });
  };

  const submit = async () => {
    let values: InstrumentInput;
    try {
      values = await form.validateFields();
    } catch (e) {
      const first = (e as { errorFields?: { name: FieldName }[] }).errorFields?.[0];
      if (first) {
        form.scrollToField(first.name, { block: "center", behavior: "smooth" });
      }
      return;
    }
    setError(undefined);
    const input = normalise({ ...initial, ...values });
    // The whole input through the server's schema, so nothing reaches it that it would refuse.
    const parsed = instrumentInputSchema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = (issue?.path ?? []).filter((p) => typeof p === "string" || typeof p === "number");
      const label = fieldLabel(t, path);
      const code = issue?.message;
      const text = isErrorCode(code)
        ? t(`errors.${code}`, { field: label })
        : t("errors.FIELD_INVALID", { field: label });
      setError(text);
      if (path.length > 0) {
        form.setFields([{ name: path as FieldName, errors: [text] }]);
        form.scrollToField(path as FieldName, { block: "center" });
      }
      return;
    }
    // Saving is "add or edit by symbol": adding a symbol that exists would overwrite it.
    if (!editing) {
      setChecking(true);
      try {
        // Fresh from the server: another operator may have added it a moment ago.
        const found = await queryClient.fetchQuery({
          ...trpc.admin.instruments.queryOptions({ search: input.symbol, page: 1, page_size: 200 }),
          staleTime: 0,
        });
        if (found.items.some((i) => i.symbol === input.symbol)) {
          const text = t("admin.instruments.symbolTaken", { symbol: input.symbol });
          form.setFields([{ name: "symbol", errors: [text] }]);
          form.scrollToField("symbol", { block: "center" });
          setError(text);
          return;
        }
      } catch (e) {
        setError(refusalText(e));
        return;
      } finally {
        setChecking(false);
      }
    }
    try {
      const saved = await save.mutateAsync(input);
      feedback.success(
        t(editing ? "admin.instruments.saved" : "admin.instruments.created", { symbol: saved.symbol }),
      );
      onClose();
    } catch (e) {
      const refusal = toApiError(e);
      const text = refusalText(e);
      setError(text);
      if (refusal.field) {
        form.setFields([{ name: namePath(refusal.field), errors: [text] }]);
        form.scrollToField(namePath(refusal.field), { block: "center" });
      }
    } finally {
      void queryClient.invalidateQueries();
    }
  };

  const busy = save.isPending || checking;

  return (
    <Drawer
      open={open}
      size={width}
      title={
        editing ? t("admin.instruments.editTitle", { symbol: row.symbol }) : t("admin.instruments.addTitle")
      }
      onClose={close}
      afterOpenChange={(visible) => {
        if (!visible) {
          setError(undefined);
          afterClose();
        }
      }}
      mask={{ closable: !busy }}
      destroyOnHidden
      footer={
        <Flex vertical gap={12}>
          {error && <Alert type="error" showIcon title={error} data-testid="admin-action-error" />}
          <Flex justify="flex-end" gap={8}>
            <Button onClick={close} disabled={busy}>
              {t("common.cancel")}
            </Button>
            <Button
              type="primary"
              onClick={() => void submit()}
              loading={busy}
              data-testid="admin-instrument-save"
            >
              {t("common.save")}
            </Button>
          </Flex>
        </Flex>
      }
      data-testid="admin-instrument-editor"
    >
      <Form<InstrumentInput>
        key={row?.symbol ?? "new"}
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={initial}
        onValuesChange={() => setError(undefined)}
        disabled={busy}
      >
        <InstrumentFields form={form} editing={editing} />
      </Form>
    </Drawer>
  );
}

/** The drawer's width: 760 px, or the whole screen when that is narrower. */
function useDrawerWidth(): number {
  const [width, setWidth] = useState(() => Math.min(760, window.innerWidth));
  useEffect(() => {
    const onResize = () => setWidth(Math.min(760, window.innerWidth));
    window.addEventListener("resize", onResize);
    return () => window.removeEventListener("resize", onResize);
  }, []);
  return width;
}
