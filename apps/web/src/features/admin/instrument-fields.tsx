import { instrumentInputSchema } from "@northstar/shared/markets";
import type { ColProps, FormItemProps, FormRule, InputProps } from "antd";
import { Col, Form, Input } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { zodRule } from "../../lib/form-rules.ts";

/* The cells of the instrument form: one labelled field in the grid, checked by the shared schema. */

const shape = instrumentInputSchema.shape;

/** The fields with a cell of their own (the trading hours have their own editor; "enabled" is a plain switch). */
type SchemaFieldName = Exclude<keyof typeof shape, "tradingHours" | "enabled">;

/** The fields typed as text. */
type TextFieldName = Exclude<
  SchemaFieldName,
  "category" | "maxLeverage" | "displayDecimals" | "kinds" | "sort"
>;

type SchemaFieldProps = Pick<FormItemProps, "extra" | "dependencies" | "normalize"> & {
  name: SchemaFieldName;
  span: ColProps;
  /** Refuses an empty or blank value, and stops at the first failing rule. */
  required?: boolean;
  /** Shows admin.instruments.hint.<name> under the field. */
  hint?: boolean;
  /** Checks beyond the schema, run after it. */
  rules?: FormRule[];
  /** May be left empty (the live price source): empty passes, and is saved as none. */
  optional?: boolean;
  children: ReactNode;
};

/** A grid cell with the field labelled fields.<name>, refused as the server would refuse it. */
export function SchemaField({
  name,
  span,
  required = false,
  hint = false,
  extra,
  rules = [],
  optional = false,
  children,
  ...item
}: SchemaFieldProps) {
  const { t } = useTranslation();
  const requiredRule: FormRule = {
    required: true,
    whitespace: true,
    message: t("errors.FIELD_REQUIRED", { field: t(`fields.${name}`) }),
  };
  return (
    <Col {...span}>
      <Form.Item
        name={name}
        label={t(`fields.${name}`)}
        extra={hint ? t(`admin.instruments.hint.${name}`) : extra}
        validateFirst={required}
        rules={[
          ...(required ? [requiredRule] : []),
          zodRule(shape[name], t, name, {}, { optional }),
          ...rules,
        ]}
        {...item}
      >
        {children}
      </Form.Item>
    </Col>
  );
}

const upper = (v?: string) => v?.toUpperCase();

/** A required text field, its input named admin-instrument-<name> for the tests. */
export function TextField({
  name,
  span,
  hint,
  extra,
  rules,
  dependencies,
  uppercase = false,
  decimal = false,
  ...input
}: Omit<SchemaFieldProps, "name" | "required" | "normalize" | "children"> &
  Pick<InputProps, "maxLength" | "placeholder" | "disabled" | "style"> & {
    name: TextFieldName;
    /** Codes (symbol, base, quote) are upper-case as they are typed. */
    uppercase?: boolean;
    /** A decimal string: phones offer the number pad. */
    decimal?: boolean;
  }) {
  return (
    <SchemaField
      name={name}
      span={span}
      required
      hint={hint}
      extra={extra}
      rules={rules}
      dependencies={dependencies}
      normalize={uppercase ? upper : undefined}
    >
      <Input
        {...input}
        inputMode={decimal ? "decimal" : undefined}
        data-testid={`admin-instrument-${name}`}
      />
    </SchemaField>
  );
}
