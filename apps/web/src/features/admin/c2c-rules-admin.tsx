import { LANGUAGES } from "@northstar/shared/languages";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Button, Form, Input } from "antd";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { QueryError } from "./admin-page.tsx";

/**
 * The C2C rules page per language (HTML, sanitised by the server). A language left empty shows the
 * English text; with none written, users see the built-in rules made from the policy values.
 */
export function C2cRulesAdmin() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const rules = useQuery(trpc.c2cAdmin.rules.queryOptions());
  const save = useMutation(trpc.c2cAdmin.saveRules.mutationOptions());
  const [form] = Form.useForm<Record<string, string>>();
  useEffect(() => {
    if (rules.data) {
      form.setFieldsValue(Object.fromEntries(Object.entries(rules.data).map(([lang, v]) => [lang, v.body])));
    }
  }, [rules.data, form]);
  if (rules.isError) {
    return <QueryError error={rules.error} onRetry={() => void rules.refetch()} />;
  }
  return (
    <Form
      form={form}
      layout="vertical"
      disabled={rules.isPending}
      onFinish={(v) =>
        void save
          .mutateAsync({
            texts: Object.fromEntries(
              Object.entries(v)
                .filter(([, body]) => typeof body === "string")
                .map(([lang, body]) => [lang, { body }]),
            ),
          })
          .then(() => feedback.success(t("c2c.admin.saved")))
          .catch(() => undefined)
      }
    >
      {LANGUAGES.map((lang) => (
        <Form.Item key={lang} name={lang} label={lang}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 10 }} maxLength={20_000} />
        </Form.Item>
      ))}
      <Button type="primary" htmlType="submit" loading={save.isPending}>
        {t("common.save")}
      </Button>
    </Form>
  );
}
