/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

export default defineConfig({
  plugins: [react()],
  // Tauri serves the built files from its own protocol: relative paths, no dev server.
  base: "./",
  clearScreen: false,
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "safari16",
    sourcemap: false,
  },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}"],
    restoreMocks: true,
    setupFiles: ["src/testing/setup.ts"],
    // Every core: the default keeps one free, which on a two-core machine halves the run.
    maxWorkers: "100%",
    // A time limit only to end a test that hangs: beside the Rust tests on a busy machine, a
    // test that types a whole form takes several seconds (5 s, the default, is too few).
    testTimeout: 60_000,
  },
});
