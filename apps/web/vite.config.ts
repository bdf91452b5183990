import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { precompress } from "./scripts/precompress.ts";

// In development the API runs on its own port; the dev server forwards API paths to it.
const api = process.env.VITE_API_PROXY ?? "http://127.0.0.1:3000";

export default defineConfig({
  plugins: [react(), precompress()],
  server: {
    port: 5173,
    proxy: { "/web": api, "/trpc": api, "/uploads": api, "/ws": { target: api, ws: true } },
  },
  build: {
    outDir: "dist",
    // scripts/bundle-budget.mjs walks it to measure what each page's first load fetches.
    manifest: true,
  },
});
