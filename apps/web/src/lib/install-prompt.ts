/**
 * The browser's offer to install the site as an app (`beforeinstallprompt`, Chromium) fires once,
 * early, whatever page is open: it is kept here so /downLoad can show its install button later.
 */
export interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
}

let deferred: InstallPromptEvent | null = null;
const listeners = new Set<() => void>();

export function captureInstallPrompt(): void {
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();
    deferred = event as InstallPromptEvent;
    for (const listener of listeners) {
      listener();
    }
  });
  window.addEventListener("appinstalled", () => {
    deferred = null;
    for (const listener of listeners) {
      listener();
    }
  });
}

export const installPrompt = {
  get: () => deferred,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Shows the browser's install dialog; the offer is used up either way. */
  async show(): Promise<boolean> {
    const event = deferred;
    if (!event) {
      return false;
    }
    deferred = null;
    await event.prompt();
    const choice = await event.userChoice;
    for (const listener of listeners) {
      listener();
    }
    return choice.outcome === "accepted";
  },
};
