import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Flex, type TableColumnsType, Tabs, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLanguage } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { AdminPage } from "./admin-page.tsx";
import {
  type AdminArticle,
  type AdminBanner,
  ContentEditorDrawer,
  type EditTarget,
} from "./content-editor-drawer.tsx";
import { ContentList } from "./content-list.tsx";
import { DateTime } from "./date-time.tsx";
import { HelpCategoriesAdmin } from "./help-categories-admin.tsx";

type ArticleKind = "news" | "announcement" | "help";
type TabKey = ArticleKind | "categories" | "banners";

const titleOf = (texts: Record<string, { title: string }>, lang: string) =>
  texts[lang]?.title || texts.en?.title || "";

/** The content back office: news, announcements, help articles and categories, and home-page banners. */
export function ContentAdminPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<TabKey>("news");
  const [target, setTarget] = useState<EditTarget | null>(null);
  return (
    <AdminPage title={t("admin.menu.content")}>
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as TabKey)}
        items={(["news", "announcement", "help", "categories", "banners"] as const).map((k) => ({
          key: k,
          label: <span data-testid={`admin-content-tab-${k}`}>{t(`admin.content.tabs.${k}`)}</span>,
        }))}
      />
      {tab === "categories" ? (
        <HelpCategoriesAdmin />
      ) : tab === "banners" ? (
        <BannersList onEdit={setTarget} />
      ) : (
        <ArticlesList key={tab} kind={tab} onEdit={setTarget} />
      )}
      <ContentEditorDrawer target={target} onClose={() => setTarget(null)} />
    </AdminPage>
  );
}

function StatusTag({ published }: { published: boolean }) {
  const { t } = useTranslation();
  return published ? (
    <Tag color="green">{t("admin.content.published")}</Tag>
  ) : (
    <Tag>{t("admin.content.draft")}</Tag>
  );
}

function ArticlesList({ kind, onEdit }: { kind: ArticleKind; onEdit: (t: EditTarget) => void }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const lang = useLanguage();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.contentAdmin.articles.queryOptions({ kind }));
  const categories = useQuery(
    trpc.contentAdmin.helpCategories.queryOptions(undefined, { enabled: kind === "help" }),
  );
  const publish = useMutation(
    trpc.contentAdmin.setArticlePublished.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.contentAdmin.pathKey() }),
    }),
  );
  const categoryName = (id: number | null) => {
    const c = categories.data?.find((x) => x.id === id);
    return c ? c.names[lang] || c.names.en : "—";
  };
  const columns: TableColumnsType<AdminArticle> = [
    { title: t("admin.content.title"), render: (_, a) => titleOf(a.texts, lang) },
    ...(kind === "help"
      ? [
          {
            title: t("admin.content.category"),
            width: 180,
            render: (_: unknown, a: AdminArticle) => categoryName(a.categoryId),
          },
        ]
      : []),
    { title: t("admin.content.status"), width: 110, render: (_, a) => <StatusTag published={a.published} /> },
    { title: t("admin.content.updated"), width: 200, render: (_, a) => <DateTime value={a.updatedAt} /> },
    {
      title: "",
      width: 200,
      render: (_, a) => (
        <Flex gap={8}>
          <Button size="small" onClick={() => onEdit({ type: "article", kind, item: a })}>
            {t("admin.content.edit")}
          </Button>
          <Button
            size="small"
            loading={publish.isPending && publish.variables?.id === a.id}
            onClick={() => publish.mutate({ id: a.id, published: !a.published })}
            data-testid="admin-content-toggle"
          >
            {a.published ? t("admin.content.unpublish") : t("admin.content.publish")}
          </Button>
        </Flex>
      ),
    },
  ];
  return (
    <ContentList
      list={list}
      columns={columns}
      onNew={() => onEdit({ type: "article", kind })}
      newTestId="admin-content-new"
      tableTestId="admin-articles"
      pagination={{ pageSize: 20, hideOnSinglePage: true }}
    />
  );
}

function BannersList({ onEdit }: { onEdit: (t: EditTarget) => void }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const lang = useLanguage();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.contentAdmin.banners.queryOptions());
  const publish = useMutation(
    trpc.contentAdmin.setBannerPublished.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.contentAdmin.pathKey() }),
    }),
  );
  const columns: TableColumnsType<AdminBanner> = [
    {
      title: t("admin.content.image"),
      width: 120,
      render: (_, b) => (
        <img src={b.image} alt="" style={{ width: 96, height: 32, objectFit: "cover", borderRadius: 4 }} />
      ),
    },
    { title: t("admin.content.title"), render: (_, b) => titleOf(b.texts, lang) },
    { title: t("admin.content.status"), width: 110, render: (_, b) => <StatusTag published={b.published} /> },
    {
      title: t("admin.content.window"),
      width: 260,
      render: (_, b) => (
        <span>
          {b.startsAt ? <DateTime value={b.startsAt} /> : "—"} –{" "}
          {b.endsAt ? <DateTime value={b.endsAt} /> : "—"}
        </span>
      ),
    },
    {
      title: "",
      width: 200,
      render: (_, b) => (
        <Flex gap={8}>
          <Button size="small" onClick={() => onEdit({ type: "banner", item: b })}>
            {t("admin.content.edit")}
          </Button>
          <Button size="small" onClick={() => publish.mutate({ id: b.id, published: !b.published })}>
            {b.published ? t("admin.content.unpublish") : t("admin.content.publish")}
          </Button>
        </Flex>
      ),
    },
  ];
  return (
    <ContentList
      list={list}
      columns={columns}
      onNew={() => onEdit({ type: "banner" })}
      newTestId="admin-banner-new"
      tableTestId="admin-banners"
    />
  );
}
