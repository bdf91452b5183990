import {
  DISPLAY_DECIMALS,
  FEED_SOURCES,
  INSTRUMENT_CATEGORIES,
  type InstrumentInput,
  instrumentInputSchema,
  TRADING_KINDS,
} from "@northstar/shared/markets";
import { money } from "@northstar/shared/money";
import type { FormInstance, FormRule } from "antd";
import { Checkbox, Col, Divider, Form, Input, InputNumber, Row, Select, Switch } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { SchemaField, TextField } from "./instrument-fields.tsx";
import { SessionsEditor } from "./trading-hours.tsx";

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

export function InstrumentFields({
  form,
  editing,
}: {
  form: FormInstance<InstrumentInput>;
  editing: boolean;
}) {
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

      <Section title={t("admin.instruments.section.priceSource")}>
        <Row gutter={12}>
          <SchemaField name="feedSource" span={HALF} hint optional normalize={(v) => v ?? null}>
            <Select
              allowClear
              placeholder={t("admin.instruments.noSource")}
              options={FEED_SOURCES.map((s) => ({ value: s, label: t(`admin.instruments.source.${s}`) }))}
              data-testid="admin-instrument-feedSource"
            />
          </SchemaField>
          <SchemaField
            name="sourceSymbol"
            span={HALF}
            hint
            optional
            normalize={(v?: string | null) => (v?.trim() ? v.trim() : null)}
          >
            <Input maxLength={32} placeholder="EURUSD=X" data-testid="admin-instrument-sourceSymbol" />
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
