import type { AppRouter } from "@northstar/api/trpc";
import { CONTENT_LIMITS } from "@northstar/shared/contracts/content";
import { LANGUAGE_INFO, LANGUAGES, type Language } from "@northstar/shared/languages";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { Button, Col, Drawer, Flex, Form, Input, InputNumber, Row, Segmented, Select, Switch } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useLanguage } from "../../lib/session.ts";
import { toApiError, useTRPC } from "../../lib/trpc.ts";
import { BodyPreview } from "./body-preview.tsx";

type Outputs = inferRouterOutputs<AppRouter>["contentAdmin"];
export type AdminArticle = Outputs["articles"][number];
export type AdminBanner = Outputs["banners"][number];
export type ArticleKind = AdminArticle["kind"];

type Texts = Partial<Record<Language, { title: string; summary: string; body: string }>>;
interface Values {
  texts: Texts;
  categoryId?: number | null;
  sort: number;
  published: boolean;
  image?: string;
  startsAt?: string;
  endsAt?: string;
}

/** What the drawer edits: an article of a kind, or a banner; `item` is absent for a new one. */
export type EditTarget =
  | { type: "article"; kind: Exclude<ArticleKind, "page">; item?: AdminArticle }
  | { type: "banner"; item?: AdminBanner };

const toTexts = (
  texts: Record<string, { title: string; summary?: string; body: string }> | undefined,
): Texts =>
  Object.fromEntries(
    LANGUAGES.map((l) => [
      l,
      { title: texts?.[l]?.title ?? "", summary: texts?.[l]?.summary ?? "", body: texts?.[l]?.body ?? "" },
    ]),
  );

// The browser's own date-time field, in the operator's local time: no date-picker library on the page.
const pad = (n: number) => String(n).padStart(2, "0");
function toLocalInput(unix: number | null | undefined): string {
  if (!unix) {
    return "";
  }
  const d = new Date(unix * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
function fromLocalInput(value: string | undefined): number | null {
  const ms = value ? new Date(value).getTime() : Number.NaN;
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
}

/**
 * The article editor: each language's title, summary and HTML body beside a live preview of what the
 * server will store; English is required, other languages fall back to it. Banners add an image and a
 * showing window; help articles a category.
 */
export function ContentEditorDrawer({ target, onClose }: { target: EditTarget | null; onClose: () => void }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const lang = useLanguage();
  const [form] = Form.useForm<Values>();
  const [editing, setEditing] = useState<Language>("en");
  const isHelp = target?.type === "article" && target.kind === "help";
  const categories = useQuery(trpc.contentAdmin.helpCategories.queryOptions(undefined, { enabled: isHelp }));
  const saveArticle = useMutation(trpc.contentAdmin.saveArticle.mutationOptions());
  const saveBanner = useMutation(trpc.contentAdmin.saveBanner.mutationOptions());
  const body = Form.useWatch(["texts", editing, "body"], form) ?? "";

  const initial = (): Values => {
    if (target?.type === "banner") {
      const b = target.item;
      return {
        texts: toTexts(b?.texts),
        sort: b?.sort ?? 0,
        published: b?.published ?? false,
        image: b?.image ?? "",
        startsAt: toLocalInput(b?.startsAt),
        endsAt: toLocalInput(b?.endsAt),
      };
    }
    const a = target?.item;
    return {
      texts: toTexts(a?.texts),
      categoryId: a?.categoryId ?? undefined,
      sort: a?.sort ?? 0,
      published: a?.published ?? false,
    };
  };

  // The refusal (already shown as a message) also marks the field it names.
  const markRefusedField = (error: unknown) => {
    const refusal = toApiError(error);
    const path = refusal.field?.split(".") ?? [];
    const name = path[0] === "texts" ? path : path[0] === "title" ? ["texts", "en", "title"] : path;
    if (name.length > 0 && name[0] !== "id") {
      if (name[0] === "texts" && name[1]) {
        setEditing(name[1] as Language);
      }
      form.setFields([{ name: name as never, errors: [refusal.message] }]);
    }
  };

  const submit = async (v: Values) => {
    if (!target) {
      return;
    }
    const texts = Object.fromEntries(
      Object.entries(v.texts).filter(
        ([l, x]) => l === "en" || (x?.title ?? "") !== "" || (x?.body ?? "") !== "",
      ),
    );
    if (target.type === "banner") {
      await saveBanner.mutateAsync({
        id: target.item?.id,
        texts,
        image: v.image ?? "",
        sort: v.sort,
        published: v.published,
        startsAt: fromLocalInput(v.startsAt),
        endsAt: fromLocalInput(v.endsAt),
      });
    } else {
      await saveArticle.mutateAsync({
        id: target.item?.id,
        kind: target.kind,
        categoryId: target.kind === "help" ? (v.categoryId ?? null) : null,
        texts,
        sort: v.sort,
        published: v.published,
      });
    }
    await queryClient.invalidateQueries({ queryKey: trpc.contentAdmin.pathKey() });
    feedback.success(t("admin.content.saved"));
    onClose();
  };

  return (
    <Drawer
      open={target !== null}
      onClose={onClose}
      size={Math.min(1200, window.innerWidth)}
      destroyOnHidden
      title={target?.item ? t("admin.content.edit") : t("admin.content.new")}
      extra={
        <Button
          type="primary"
          onClick={() => form.submit()}
          loading={saveArticle.isPending || saveBanner.isPending}
          data-testid="admin-content-save"
        >
          {t("common.save")}
        </Button>
      }
    >
      {target && (
        <Form<Values>
          form={form}
          layout="vertical"
          initialValues={initial()}
          onFinish={(v) => void submit(v).catch(markRefusedField)}
          data-testid="admin-content-form"
        >
          <Row gutter={16}>
            {isHelp && (
              <Col xs={24} md={10}>
                <Form.Item name="categoryId" label={t("admin.content.category")} required>
                  <Select
                    loading={categories.isPending}
                    notFoundContent={t("admin.content.noCategories")}
                    options={(categories.data ?? []).map((c) => ({
                      value: c.id,
                      label: c.names[lang] || c.names.en,
                    }))}
                    data-testid="admin-content-category"
                  />
                </Form.Item>
              </Col>
            )}
            {target.type === "banner" && (
              <>
                <Col xs={24} md={10}>
                  <Form.Item
                    name="image"
                    label={t("admin.content.image")}
                    extra={t("admin.content.imageHint")}
                    required
                  >
                    <Input placeholder="/banners/spring.png" data-testid="admin-content-image" />
                  </Form.Item>
                </Col>
                <Col xs={12} md={5}>
                  <Form.Item name="startsAt" label={t("admin.content.startsAt")}>
                    <Input type="datetime-local" data-testid="admin-content-starts" />
                  </Form.Item>
                </Col>
                <Col xs={12} md={5}>
                  <Form.Item name="endsAt" label={t("admin.content.endsAt")}>
                    <Input type="datetime-local" data-testid="admin-content-ends" />
                  </Form.Item>
                </Col>
              </>
            )}
            <Col xs={12} md={4}>
              <Form.Item name="sort" label={t("admin.content.sort")}>
                <InputNumber min={-10_000} max={10_000} precision={0} style={{ width: "100%" }} />
              </Form.Item>
            </Col>
            <Col xs={12} md={4}>
              <Form.Item name="published" label={t("admin.content.published")} valuePropName="checked">
                <Switch data-testid="admin-content-published" />
              </Form.Item>
            </Col>
          </Row>
          <Flex vertical gap={8} style={{ marginBottom: 16 }}>
            <Segmented<Language>
              value={editing}
              onChange={setEditing}
              options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_INFO[l].nativeName }))}
              style={{ alignSelf: "flex-start", maxWidth: "100%", overflowX: "auto" }}
              data-testid="admin-content-language"
            />
            <span style={{ opacity: 0.65 }}>{t("admin.content.englishRequired")}</span>
          </Flex>
          {LANGUAGES.map((l) => (
            // Every language stays mounted so its values are submitted; only the chosen one shows.
            <Row key={l} gutter={24} style={l === editing ? undefined : { display: "none" }}>
              <Col xs={24} lg={12}>
                <Form.Item
                  name={["texts", l, "title"]}
                  label={t("admin.content.title")}
                  required={l === "en"}
                >
                  <Input
                    maxLength={CONTENT_LIMITS.title}
                    showCount
                    data-testid={`admin-content-title-${l}`}
                  />
                </Form.Item>
                <Form.Item name={["texts", l, "summary"]} label={t("admin.content.summary")}>
                  <Input.TextArea maxLength={CONTENT_LIMITS.summary} autoSize={{ minRows: 2, maxRows: 4 }} />
                </Form.Item>
                <Form.Item name={["texts", l, "body"]} label={t("admin.content.body")}>
                  <Input.TextArea
                    autoSize={{ minRows: 12, maxRows: 28 }}
                    style={{ fontFamily: "monospace" }}
                    data-testid={`admin-content-body-${l}`}
                  />
                </Form.Item>
              </Col>
              <Col xs={24} lg={12}>
                <div style={{ marginBottom: 8, fontWeight: 600 }}>{t("admin.content.preview")}</div>
                {l === editing && <BodyPreview html={body} />}
              </Col>
            </Row>
          ))}
        </Form>
      )}
    </Drawer>
  );
}
