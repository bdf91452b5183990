import { ALWAYS_ALLOWED, isPublicPath, ROUTES } from "@northstar/shared/routes";
import { lazy, Suspense, useEffect, useState } from "react";
import { Navigate, Route, Routes, useLocation } from "react-router";
import { ComingSoonPage } from "../features/common/coming-soon-page.tsx";
import { NotFoundPage } from "../features/common/not-found-page.tsx";
import { LoadingState } from "../features/common/page-states.tsx";
import { loadNamespace } from "../i18n/index.ts";
import { ReloadContext } from "../lib/navigation.tsx";
import { useIsLoggedIn } from "../lib/session.ts";
import { AppLayout } from "./layout.tsx";
import { PAGES } from "./pages.tsx";

// The back office is its own app under /admin, loaded only by operators.
const AdminApp = lazy(() =>
  Promise.all([
    import("../features/admin/admin-app.tsx"),
    // The back office reviews and runs every module's business: their texts come with it.
    ...(
      [
        "admin",
        "earn",
        "kyc",
        "launchpad",
        "options",
        "loans",
        "c2c",
        "contracts",
        "proofs",
        "referral",
        "rewards",
        "messages",
      ] as const
    ).map(loadNamespace),
  ]).then(([m]) => ({
    default: m.AdminApp,
  })),
);

/** Any route that is not public redirects to /login without a token (SPEC section 2). */
function Guard({ path, children }: { path: string; children: React.ReactNode }) {
  const loggedIn = useIsLoggedIn();
  const location = useLocation();
  if (!loggedIn && !isPublicPath(path) && !ALWAYS_ALLOWED.has(path)) {
    const back = encodeURIComponent(location.pathname + location.search);
    return <Navigate to={`/login?redirect=${back}`} replace />;
  }
  return children;
}

/** The view scrolls to the top on every navigation. */
function ScrollToTop() {
  const { pathname, search } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every location change by design
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname, search]);
  return null;
}

export function AppRoutes() {
  const [reloadKey, setReloadKey] = useState(0);
  const location = useLocation();
  if (location.pathname === "/admin" || location.pathname.startsWith("/admin/")) {
    return (
      <Suspense fallback={<LoadingState />}>
        <AdminApp />
      </Suspense>
    );
  }
  return (
    <ReloadContext.Provider value={() => setReloadKey((k) => k + 1)}>
      <ScrollToTop />
      <AppLayout>
        <Suspense fallback={<LoadingState />}>
          <Routes location={location} key={`${location.pathname}:${reloadKey}`}>
            {ROUTES.filter((r) => r.path !== "/asset" && r.path !== "/404").map((route) => {
              const Component = PAGES[route.path];
              return (
                <Route
                  key={route.path}
                  path={route.path}
                  element={
                    <Guard path={route.path}>
                      {Component ? <Component /> : <ComingSoonPage titleKey={route.title} />}
                    </Guard>
                  }
                />
              );
            })}
            <Route
              path="/asset"
              element={
                <Guard path="/asset">
                  <Navigate to="/table1" replace />
                </Guard>
              }
            />
            <Route path="/404" element={<NotFoundPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Routes>
        </Suspense>
      </AppLayout>
    </ReloadContext.Provider>
  );
}
