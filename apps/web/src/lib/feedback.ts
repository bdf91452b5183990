import type { MessageInstance } from "antd/es/message/interface";
import type { ModalFuncProps } from "antd/es/modal/interface";
import i18n from "../i18n/index.ts";
import { clearSession } from "./session.ts";

/** Toasts last 3 seconds (SPEC section 9). */
export const TOAST_SECONDS = 3;

/** antd's themed message and modal, as the feedback host (app/feedback-host.tsx) provides them. */
export interface FeedbackHost {
  message: MessageInstance;
  confirm: (props: ModalFuncProps) => void;
}

let host: FeedbackHost | undefined;
/** What was asked before the host had loaded; shown as soon as it has. */
let queued: ((host: FeedbackHost) => void)[] = [];
let navigate: ((to: string) => void) | undefined;
let demo: DemoActions | undefined;
let confirmOpen = false;

/**
 * The host (antd's message and modal) loads on the first toast or dialog, not with every page:
 * it is about 17 KB compressed that most first visits never use.
 */
const hostListeners = new Set<() => void>();
let hostWanted = false;
export const feedbackHostWanted = {
  get: () => hostWanted,
  subscribe(listener: () => void) {
    hostListeners.add(listener);
    return () => hostListeners.delete(listener);
  },
};

function withHost(show: (host: FeedbackHost) => void) {
  if (host) {
    show(host);
    return;
  }
  queued.push(show);
  if (!hostWanted) {
    hostWanted = true;
    for (const listener of hostListeners) {
      listener();
    }
  }
}

/** Called by the host once mounted inside the theme; shows what was waiting. */
export function bindFeedbackHost(next: FeedbackHost | undefined) {
  host = next;
  if (host) {
    const waiting = queued;
    queued = [];
    for (const show of waiting) {
      show(host);
    }
  }
}

/** What the demo-expired dialog offers; passed in, as the demo module itself calls the API. */
export interface DemoActions {
  regenerate: () => Promise<void>;
  exit: () => void;
}

/** Bound once by the app root: the router, and the demo actions. */
export function bindFeedback(deps: { navigate: (to: string) => void; demo: DemoActions }) {
  navigate = deps.navigate;
  demo = deps.demo;
}

export const feedback = {
  success(text: string) {
    withHost((h) => void h.message.success(text, TOAST_SECONDS));
  },
  info(text: string) {
    withHost((h) => void h.message.info(text, TOAST_SECONDS));
  },
  warning(text: string) {
    withHost((h) => void h.message.warning(text, TOAST_SECONDS));
  },
  /** A question with two answers (antd's confirm dialog, themed). */
  confirm(props: ModalFuncProps) {
    withHost((h) => h.confirm(props));
  },
  /** "The virtual account has expired, regenerate": a new demo account, or back to login. */
  demoExpired(text: string) {
    if (confirmOpen || !demo) {
      return;
    }
    const actions = demo;
    confirmOpen = true;
    feedback.confirm({
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
    if (confirmOpen) {
      return;
    }
    confirmOpen = true;
    feedback.confirm({
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
