import type { AppRouter } from "@northstar/api/trpc";
import { CONTENT_LIMITS } from "@northstar/shared/contracts/content";
import { LANGUAGE_INFO, LANGUAGES } from "@northstar/shared/languages";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { Button, Form, Input, InputNumber, Modal, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useLanguage } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { ContentList } from "./content-list.tsx";

type Category = inferRouterOutputs<AppRouter>["contentAdmin"]["helpCategories"][number];
interface Values {
  names: Record<string, string>;
  sort: number;
}

/** Help categories: a name per language (English required) and the order the help centre lists them in. */
export function HelpCategoriesAdmin() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const lang = useLanguage();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.contentAdmin.helpCategories.queryOptions());
  const save = useMutation(trpc.contentAdmin.saveHelpCategory.mutationOptions());
  const [editing, setEditing] = useState<Category | "new" | null>(null);
  const [form] = Form.useForm<Values>();

  const open = (c: Category | "new") => {
    form.setFieldsValue(c === "new" ? { names: {}, sort: 0 } : { names: { ...c.names }, sort: c.sort });
    setEditing(c);
  };
  const submit = async (v: Values) => {
    await save.mutateAsync({ id: editing === "new" ? undefined : editing?.id, names: v.names, sort: v.sort });
    await queryClient.invalidateQueries({ queryKey: trpc.contentAdmin.pathKey() });
    feedback.success(t("admin.content.saved"));
    setEditing(null);
  };

  const columns: TableColumnsType<Category> = [
    { title: t("admin.content.name"), render: (_, c) => c.names[lang] || c.names.en },
    { title: t("admin.content.sort"), dataIndex: "sort", width: 120, align: "right" },
    { title: t("admin.content.articles"), dataIndex: "articles", width: 120, align: "right" },
    {
      title: "",
      width: 100,
      render: (_, c) => (
        <Button size="small" onClick={() => open(c)}>
          {t("admin.content.edit")}
        </Button>
      ),
    },
  ];
  return (
    <>
      <ContentList
        list={list}
        columns={columns}
        onNew={() => open("new")}
        newTestId="admin-category-new"
        tableTestId="admin-categories"
      />
      <Modal
        open={editing !== null}
        title={editing === "new" ? t("admin.content.new") : t("admin.content.edit")}
        onCancel={() => setEditing(null)}
        onOk={() => form.submit()}
        confirmLoading={save.isPending}
        okButtonProps={{ "data-testid": "admin-category-save" } as Record<string, string>}
        forceRender
      >
        <Form<Values> form={form} layout="vertical" onFinish={(v) => void submit(v).catch(() => undefined)}>
          {LANGUAGES.map((l) => (
            <Form.Item key={l} name={["names", l]} label={LANGUAGE_INFO[l].nativeName} required={l === "en"}>
              <Input maxLength={CONTENT_LIMITS.categoryName} data-testid={`admin-category-name-${l}`} />
            </Form.Item>
          ))}
          <Form.Item name="sort" label={t("admin.content.sort")}>
            <InputNumber min={-10_000} max={10_000} precision={0} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
