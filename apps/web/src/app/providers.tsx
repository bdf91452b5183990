import type { Language } from "@northstar/shared/languages";
import { QueryClientProvider } from "@tanstack/react-query";
import { ConfigProvider, theme } from "antd";
import dayjs from "dayjs";
import { lazy, type ReactNode, Suspense, useEffect, useState, useSyncExternalStore } from "react";
import { useNavigate } from "react-router";
import { languagePack } from "../i18n/index.ts";
import { exitDemo, regenerateDemo } from "../lib/demo.ts";
import { bindFeedback, feedbackHostWanted } from "../lib/feedback.ts";
import { useReducedMotion } from "../lib/reduced-motion.ts";
import { useLanguage, useThemeMode } from "../lib/session.ts";
import { createQueryClient, createTrpcClient, TRPCProvider } from "../lib/trpc.ts";

const FeedbackHost = lazy(() => import("./feedback-host.tsx").then((m) => ({ default: m.FeedbackHost })));

/** Gives non-React code (API clients) the router, and mounts the toast and dialog host once asked for. */
function FeedbackBinder() {
  const navigate = useNavigate();
  const wanted = useSyncExternalStore(feedbackHostWanted.subscribe, feedbackHostWanted.get);
  useEffect(() => {
    bindFeedback({
      navigate: (to) => void navigate(to),
      demo: { regenerate: regenerateDemo, exit: exitDemo },
    });
  }, [navigate]);
  return wanted ? (
    <Suspense fallback={null}>
      <FeedbackHost />
    </Suspense>
  ) : null;
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(createTrpcClient);
  const lang: Language = useLanguage();
  const mode = useThemeMode();
  const reducedMotion = useReducedMotion();

  useEffect(() => {
    dayjs.locale(languagePack(lang)?.dayjs ?? "en");
  }, [lang]);
  useEffect(() => {
    document.documentElement.dataset.theme = mode;
    document.documentElement.style.colorScheme = mode;
  }, [mode]);

  return (
    <ConfigProvider
      locale={languagePack(lang)?.antd}
      // antd puts a space between two CJK characters on a button ("确 定"); nobody writes them so.
      button={{ autoInsertSpace: false }}
      theme={{
        algorithm: mode === "dark" ? theme.darkAlgorithm : theme.defaultAlgorithm,
        // Without motion, drawers and dialogs open and close at once instead of sliding or zooming.
        token: { colorPrimary: "#1f6feb", borderRadius: 8, motion: !reducedMotion },
      }}
    >
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          <FeedbackBinder />
          {children}
        </TRPCProvider>
      </QueryClientProvider>
    </ConfigProvider>
  );
}
