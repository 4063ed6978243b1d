import { defineConfig } from "vitest/config";

export default defineConfig({
  // Tauri serves the built files from its own origin: keep asset paths relative.
  base: "./",
  clearScreen: false,
  server: { port: 5173, strictPort: true },
  build: { target: "es2022", outDir: "dist", emptyOutDir: true },
  // The stylesheet is read whole by its own test.
  test: { environment: "happy-dom", css: { include: [/style\.css/] } },
});
