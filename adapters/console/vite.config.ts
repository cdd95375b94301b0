/**
 * Builds the web console (adapters/console/app) into dist/console, served at `/console` by
 * console_route.ts. `npm install` runs it (package.json `postinstall`), `npm run build` too, and
 * `serve` once at first start when the assets are missing (console_assets.ts).
 */
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL("./app", import.meta.url)),
  base: "/console/",
  plugins: [react()],
  logLevel: "warn",
  build: {
    outDir: fileURLToPath(new URL("../../dist/console", import.meta.url)),
    emptyOutDir: true,
    // The first page's budget is measured by bench/console_bundle.ts, not by Vite's warning.
    chunkSizeWarningLimit: 1024,
  },
});
