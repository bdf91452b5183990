import { isErrorCode } from "@northstar/shared/errors";
import {
  DISPLAY_DECIMALS,
  INSTRUMENT_CATEGORIES,
  type InstrumentInput,
  instrumentInputSchema,
  TRADING_KINDS,
} from "@northstar/shared/markets";
import { money } from "@northstar/shared/money";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { FormInstance, FormRule } from "antd";
import {
  Alert,
  App,
  Button,
  Checkbox,
  Col,
  Divider,
  Drawer,
  Flex,
  Form,
  InputNumber,
  Row,
  Select,
  Switch,
} from "antd";
import type { TFunction } from "i18next";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { toApiError, useTRPC } from "../../lib/trpc.ts";
import { refusalText } from "./admin-query-client.ts";
import type { InstrumentRow } from "./admin-types.ts";
import { SchemaField, TextField } from "./instrument-fields.tsx";
import { SessionsEditor } from "./trading-hours.tsx";

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

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <Divider titlePlacement="start" style={{ marginTop: 4 }}>
        {title}
      </Divider>
      {children}
    </>
  );
}

const shape = instrumentInputSchema.shape;

/** Half a row on phones, a third from tablets up. */
const THIRD = { xs: 12, sm: 8 };
const HALF = { xs: 12 };
const WHOLE_NUMBER = { precision: 0, style: { width: "100%" } };

function InstrumentFields({ form, editing }: { form: FormInstance<InstrumentInput>; editing: boolean }) {
  const { t } = useTranslation();
  const minQtyAtLeastLot: FormRule = ({ getFieldValue }) => ({
    validator: async (_, value: string | undefined) => {
      const lot = String(getFieldValue("lotSize") ?? "").trim();
      const min = String(value ?? "").trim();
      if (!shape.minQty.safeParse(min).success || !shape.lotSize.safeParse(lot).success) {
        return;
      }
      if (money(min).lt(lot)) {
        throw new Error(t("admin.instruments.minBelowLot"));
      }
    },
  });

  return (
    <>
      <Section title={t("admin.instruments.section.listing")}>
        <Row gutter={12}>
          <TextField
            name="symbol"
            span={{ xs: 24, sm: 10 }}
            extra={editing ? t("admin.instruments.hint.symbolLocked") : t("admin.instruments.hint.symbol")}
            uppercase
            maxLength={32}
            // Locked when editing; otherwise left to the form, which disables every field while saving.
            disabled={editing || undefined}
            placeholder="BTCUSDT"
            style={{ fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace" }}
          />
          <TextField name="name" span={{ xs: 24, sm: 14 }} maxLength={80} placeholder="Bitcoin" />
          <SchemaField name="category" span={{ xs: 24, sm: 10 }}>
            <Select
              options={INSTRUMENT_CATEGORIES.map((c) => ({
                value: c,
                label: t(`admin.instruments.category.${c}`),
              }))}
              data-testid="admin-instrument-category-input"
            />
          </SchemaField>
          <TextField name="base" span={{ xs: 12, sm: 7 }} uppercase maxLength={16} placeholder="BTC" />
          <TextField name="quote" span={{ xs: 12, sm: 7 }} uppercase maxLength={16} placeholder="USDT" />
        </Row>
      </Section>

      <Section title={t("admin.instruments.section.rules")}>
        <Row gutter={12}>
          <TextField name="tickSize" span={THIRD} hint decimal placeholder="0.01" />
          <TextField name="lotSize" span={THIRD} hint decimal placeholder="0.001" />
          <TextField
            name="minQty"
            span={THIRD}
            hint
            decimal
            placeholder="0.001"
            dependencies={["lotSize"]}
            rules={[minQtyAtLeastLot]}
          />
          <TextField name="contractSize" span={THIRD} hint decimal placeholder="1" />
          <SchemaField name="maxLeverage" span={THIRD}>
            <InputNumber min={1} max={200} {...WHOLE_NUMBER} data-testid="admin-instrument-maxLeverage" />
          </SchemaField>
          <SchemaField name="displayDecimals" span={THIRD}>
            <Select
              options={DISPLAY_DECIMALS.map((d) => ({ value: d, label: String(d) }))}
              data-testid="admin-instrument-displayDecimals"
            />
          </SchemaField>
          <SchemaField name="kinds" span={{ xs: 24 }}>
            <Checkbox.Group
              options={TRADING_KINDS.map((k) => ({ value: k, label: t(`admin.instruments.kind.${k}`) }))}
              data-testid="admin-instrument-kinds"
            />
          </SchemaField>
        </Row>
      </Section>

      <Section title={t("admin.instruments.section.simulation")}>
        <Row gutter={12}>
          <TextField name="referencePrice" span={HALF} hint decimal placeholder="91250" />
          <TextField name="volatility" span={HALF} hint decimal placeholder="0.6" />
        </Row>
      </Section>

      <Section title={t("fields.tradingHours")}>
        <SessionsEditor form={form} />
      </Section>

      <Section title={t("admin.instruments.section.listingOrder")}>
        <Row gutter={12}>
          <SchemaField name="sort" span={HALF} hint>
            <InputNumber min={0} max={1_000_000} {...WHOLE_NUMBER} data-testid="admin-instrument-sort" />
          </SchemaField>
          {/* Not a SchemaField: a switch always holds a boolean, so the schema has nothing to refuse. */}
          <Col {...HALF}>
            <Form.Item
              name="enabled"
              label={t("fields.enabled")}
              valuePropName="checked"
              extra={t("admin.instruments.hint.enabled")}
            >
              <Switch data-testid="admin-instrument-enabled" />
            </Form.Item>
          </Col>
        </Row>
      </Section>
    </>
  );
}
