import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// In development the API runs on its own port; the dev server forwards API paths to it.
const api = process.env.VITE_API_PROXY ?? "http://127.0.0.1:3000";

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: { "/web": api, "/trpc": api, "/uploads": api, "/ws": { target: api, ws: true } },
  },
  build: {
    outDir: "dist",
    // antd and React together exceed the default warning size; they are split into their own chunks.
    chunkSizeWarningLimit: 1600,
    rollupOptions: {
      output: {
        manualChunks(id: string) {
          if (
            id.includes("node_modules/antd") ||
            id.includes("node_modules/@ant-design") ||
            id.includes("node_modules/rc-")
          ) {
            return "antd";
          }
          if (id.includes("node_modules/react") || id.includes("node_modules/scheduler")) {
            return "react";
          }
          return undefined;
        },
      },
    },
  },
});
