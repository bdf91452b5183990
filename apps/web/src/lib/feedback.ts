import type { MessageInstance } from "antd/es/message/interface";
import type { ModalStaticFunctions } from "antd/es/modal/confirm";
import i18n from "../i18n/index.ts";
import { clearSession } from "./session.ts";

/** Toasts last 3 seconds (SPEC section 9). */
export const TOAST_SECONDS = 3;

let message: MessageInstance | undefined;
let modal: Omit<ModalStaticFunctions, "warn"> | undefined;
let navigate: ((to: string) => void) | undefined;
let demo: DemoActions | undefined;
let confirmOpen = false;

/** What the demo-expired dialog offers; passed in, as the demo module itself calls the API. */
export interface DemoActions {
  regenerate: () => Promise<void>;
  exit: () => void;
}

/** Bound once by the app root to antd's context-aware message and modal (so they follow the theme). */
export function bindFeedback(deps: {
  message: MessageInstance;
  modal: Omit<ModalStaticFunctions, "warn">;
  navigate: (to: string) => void;
  demo: DemoActions;
}) {
  message = deps.message;
  modal = deps.modal;
  navigate = deps.navigate;
  demo = deps.demo;
}

export const feedback = {
  success(text: string) {
    void message?.success(text, TOAST_SECONDS);
  },
  info(text: string) {
    void message?.info(text, TOAST_SECONDS);
  },
  warning(text: string) {
    void message?.warning(text, TOAST_SECONDS);
  },
  /** "The virtual account has expired, regenerate": a new demo account, or back to login. */
  demoExpired(text: string) {
    if (confirmOpen || !modal || !demo) {
      return;
    }
    const actions = demo;
    confirmOpen = true;
    modal.confirm({
      title: i18n.t("common.demo.expiredTitle"),
      content: text,
      okText: i18n.t("common.demo.regenerate"),
      cancelText: i18n.t("common.demo.exit"),
      async onOk() {
        confirmOpen = false;
        await actions.regenerate().catch(() => undefined);
        window.location.reload();
      },
      onCancel() {
        confirmOpen = false;
        actions.exit();
      },
    });
  },
  /** Code 2000: log in again (drops the stale token and goes to /login) or go back. */
  confirmLogin(text: string) {
    if (confirmOpen || !modal) {
      return;
    }
    confirmOpen = true;
    modal.confirm({
      title: i18n.t("common.sessionTitle"),
      content: text,
      okText: i18n.t("common.loginAgain"),
      cancelText: i18n.t("common.goBack"),
      onOk() {
        // Re-login logs out and reloads (SPEC section 8), so no stale state survives.
        confirmOpen = false;
        clearSession();
        window.location.assign("/login");
      },
      onCancel() {
        confirmOpen = false;
        window.history.length > 1 ? window.history.back() : navigate?.("/");
      },
    });
  },
};
