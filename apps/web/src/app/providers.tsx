import type { Language } from "@northstar/shared/languages";
import { QueryClientProvider } from "@tanstack/react-query";
import { App as AntApp, ConfigProvider, theme } from "antd";
import dayjs from "dayjs";
import { type ReactNode, useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { languagePack } from "../i18n/index.ts";
import { exitDemo, regenerateDemo } from "../lib/demo.ts";
import { bindFeedback } from "../lib/feedback.ts";
import { useLanguage, useThemeMode } from "../lib/session.ts";
import { createQueryClient, createTrpcClient, TRPCProvider } from "../lib/trpc.ts";

/** Gives non-React code (API clients) antd's themed message and modal, and the router. */
function FeedbackBinder() {
  const { message, modal } = AntApp.useApp();
  const navigate = useNavigate();
  useEffect(() => {
    bindFeedback({
      message,
      modal,
      navigate: (to) => void navigate(to),
      demo: { regenerate: regenerateDemo, exit: exitDemo },
    });
  }, [message, modal, navigate]);
  return null;
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(createTrpcClient);
  const lang: Language = useLanguage();
  const mode = useThemeMode();

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
        token: { colorPrimary: "#1f6feb", borderRadius: 8 },
      }}
    >
      <AntApp message={{ maxCount: 3 }}>
        <QueryClientProvider client={queryClient}>
          <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
            <FeedbackBinder />
            {children}
          </TRPCProvider>
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
