/**
 * Build and test configuration: `vite build` writes static files to dist/
 * (relative asset paths, so the app works from any URL prefix); vitest runs
 * the unit tests in a happy-dom document.
 */
import { defineConfig } from "vitest/config";

export default defineConfig({
  base: "./",
  build: { outDir: "dist", emptyOutDir: true, sourcemap: true },
  test: { environment: "happy-dom", include: ["test/**/*.test.ts"] },
});
