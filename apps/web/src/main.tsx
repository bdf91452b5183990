import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { Providers } from "./app/providers.tsx";
import { AppRoutes } from "./app/router.tsx";
import { i18nReady } from "./i18n/index.ts";
import { captureInstallPrompt } from "./lib/install-prompt.ts";
import "./styles.css";

captureInstallPrompt();
const root = document.getElementById("root");
// The first screen renders in the stored language, whose texts load with the app.
void i18nReady.finally(() => {
  if (!root) {
    return;
  }
  createRoot(root).render(
    <StrictMode>
      <BrowserRouter>
        <Providers>
          <AppRoutes />
        </Providers>
      </BrowserRouter>
    </StrictMode>,
  );
});
