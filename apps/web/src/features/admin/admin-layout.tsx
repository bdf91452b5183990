import {
  AccountBookOutlined,
  AlertOutlined,
  AuditOutlined,
  BankOutlined,
  ControlOutlined,
  CustomerServiceOutlined,
  DownloadOutlined,
  FileTextOutlined,
  FundOutlined,
  GiftOutlined,
  IdcardOutlined,
  LockOutlined,
  LogoutOutlined,
  RiseOutlined,
  RocketOutlined,
  SafetyCertificateOutlined,
  ShareAltOutlined,
  SolutionOutlined,
  TeamOutlined,
  UploadOutlined,
  UserOutlined,
  WalletOutlined,
} from "@ant-design/icons";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Badge, Button, Flex, Layout, Menu, Space, Spin, Tag, Typography, theme } from "antd";
import { createContext, type ReactNode, useContext, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Outlet, useLocation, useNavigate } from "react-router";
import { feedback } from "../../lib/feedback.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { LanguageSwitcher, ThemeToggle } from "../common/preference-controls.tsx";
import { type AdminPageKey, menuLabelKey, pagesFor } from "./admin-nav.ts";
import { QueryError } from "./admin-page.tsx";
import type { Operator } from "./admin-types.ts";
import { operatorTokenStore } from "./operator-session.ts";
import "./admin.css";

const OperatorContext = createContext<Operator | null>(null);

/** The signed-in operator; only inside the admin layout. */
export function useOperator(): Operator {
  const operator = useContext(OperatorContext);
  if (!operator) {
    throw new Error("useOperator outside the admin layout");
  }
  return operator;
}

const ICONS: Record<AdminPageKey, ReactNode> = {
  deposits: <DownloadOutlined />,
  withdrawals: <UploadOutlined />,
  "deposit-addresses": <WalletOutlined />,
  chain: <AlertOutlined />,
  instruments: <FundOutlined />,
  users: <TeamOutlined />,
  ledger: <AccountBookOutlined />,
  policy: <ControlOutlined />,
  audit: <AuditOutlined />,
  kyc: <IdcardOutlined />,
  earn: <RiseOutlined />,
  launchpad: <RocketOutlined />,
  options: <FundOutlined />,
  loans: <WalletOutlined />,
  c2c: <BankOutlined />,
  security: <LockOutlined />,
  contracts: <FundOutlined />,
  proofs: <SafetyCertificateOutlined />,
  referral: <ShareAltOutlined />,
  rewards: <GiftOutlined />,
  support: <CustomerServiceOutlined />,
  operators: <SolutionOutlined />,
  content: <FileTextOutlined />,
};

/** Side menu, header with the operator, language, theme and sign-out; the page in the middle. */
export function AdminLayout() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const trpc = useTRPC();
  const me = useQuery(trpc.admin.me.queryOptions(undefined, { staleTime: 60_000 }));
  const [collapsed, setCollapsed] = useState(false);
  const location = useLocation();
  const navigate = useNavigate();
  // Each page keeps its filters (?status=, ?q=) when the operator comes back to it from the menu.
  const lastSearch = useRef<Record<string, string>>({});
  const current = location.pathname.split("/")[2] ?? "";
  lastSearch.current[current] = location.search;

  if (me.isPending) {
    return (
      <Flex align="center" justify="center" style={{ minHeight: "100vh" }}>
        <Spin size="large" />
      </Flex>
    );
  }
  if (me.isError) {
    return (
      <Flex align="center" justify="center" style={{ minHeight: "100vh" }}>
        <QueryError error={me.error} onRetry={() => void me.refetch()} />
      </Flex>
    );
  }

  const operator = me.data;
  const pages = pagesFor(operator);

  return (
    <OperatorContext.Provider value={operator}>
      <Layout style={{ minHeight: "100vh" }} className="admin-shell">
        <Layout.Sider
          breakpoint="lg"
          collapsible
          collapsed={collapsed}
          onCollapse={setCollapsed}
          collapsedWidth={64}
          width={220}
          theme="light"
          style={{
            position: "sticky",
            top: 0,
            height: "100vh",
            overflow: "auto",
            background: token.colorBgContainer,
            borderInlineEnd: `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          <Flex
            align="center"
            gap={8}
            style={{
              height: 64,
              paddingInline: collapsed ? 18 : 20,
              overflow: "hidden",
              whiteSpace: "nowrap",
            }}
          >
            <img src="/logo.svg" alt="" width={28} height={28} />
            {!collapsed && (
              <Typography.Text strong style={{ fontSize: 16 }}>
                {t("admin.title")}
              </Typography.Text>
            )}
          </Flex>
          <Menu
            mode="inline"
            selectedKeys={[current]}
            style={{ borderInlineEnd: "none", background: "transparent" }}
            items={pages.map((p) => ({
              key: p.key,
              icon: ICONS[p.key],
              label: <MenuLabel page={p.key} />,
              "data-testid": `admin-nav-${p.key}`,
            }))}
            onClick={({ key }) => void navigate(`/admin/${key}${lastSearch.current[key] ?? ""}`)}
          />
        </Layout.Sider>
        <Layout>
          <Layout.Header
            style={{
              position: "sticky",
              top: 0,
              zIndex: 10,
              display: "flex",
              alignItems: "center",
              justifyContent: "flex-end",
              gap: 12,
              paddingInline: 24,
              background: token.colorBgContainer,
              borderBottom: `1px solid ${token.colorBorderSecondary}`,
            }}
          >
            <span className="admin-operator">
              <Space size="small" data-testid="admin-operator">
                <UserOutlined />
                <Typography.Text strong>{operator.username}</Typography.Text>
                <Tag color="blue" style={{ marginInlineEnd: 0 }}>
                  {t(`admin.role.${operator.role}`)}
                </Tag>
              </Space>
            </span>
            <HeaderTools />
            <LogoutButton />
          </Layout.Header>
          <Layout.Content className="admin-content">
            <Outlet />
          </Layout.Content>
        </Layout>
      </Layout>
    </OperatorContext.Provider>
  );
}

/** A queue's menu entry carries the number of pending items (the newest 200, as the queue lists). */
function MenuLabel({ page }: { page: AdminPageKey }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const deposits = useQuery(
    trpc.admin.deposits.queryOptions(
      { status: "pending" },
      { enabled: page === "deposits", refetchInterval: 30_000 },
    ),
  );
  const withdrawals = useQuery(
    trpc.admin.withdrawals.queryOptions(
      { status: "pending" },
      { enabled: page === "withdrawals", refetchInterval: 30_000 },
    ),
  );
  const count =
    page === "deposits"
      ? deposits.data?.length
      : page === "withdrawals"
        ? withdrawals.data?.length
        : undefined;
  return (
    <Flex align="center" justify="space-between" gap={8}>
      <span>{t(menuLabelKey(page))}</span>
      {count ? <Badge count={count} overflowCount={199} size="small" /> : null}
    </Flex>
  );
}

/** Language and theme, the same stores as the user app. */
export function HeaderTools() {
  return (
    <Space size="small">
      <LanguageSwitcher />
      <ThemeToggle />
    </Space>
  );
}

/**
 * Signs out: ends the session on the server, forgets the operator token in this tab and clears the
 * back office's cache.
 */
function LogoutButton() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const signOut = useMutation(trpc.admin.account.signOut.mutationOptions({ meta: { inline: true } }));
  return (
    <Button
      icon={<LogoutOutlined />}
      data-testid="admin-logout"
      loading={signOut.isPending}
      onClick={async () => {
        // The session ends on the server first (an already ended one is fine), then the token goes.
        await signOut.mutateAsync().catch(() => undefined);
        operatorTokenStore.clear("signout");
        // After the guard has left the layout, so no query refetches on the way out.
        setTimeout(() => queryClient.clear(), 0);
        feedback.success(t("admin.session.loggedOut"));
      }}
    >
      {t("common.logout")}
    </Button>
  );
}
