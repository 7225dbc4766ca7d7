import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  // The server build's entry is our Express sub-app, so server.ts and the routes share one
  // instance of every module (the CSP nonce context in particular).
  environments: { ssr: { build: { rolldownOptions: { input: "./app/request-handler.server.ts" } } } },
  optimizeDeps: {
    include: ["react", "react-dom", "react-dom/client", "react-router", "react-router/dom", "i18next", "react-i18next", "@conform-to/react", "@conform-to/zod/v4", "zod"],
  },
  plugins: [tailwindcss(), reactRouter()],
});
