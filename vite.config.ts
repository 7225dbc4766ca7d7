import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { buildConfig } from "./config.ts";

// What every page runs (React, React DOM, React Router): one file instead of four, because each
// file is compressed on its own and the pieces share much of their vocabulary (measured by
// bench/weight.ts). Nothing in it is optional on any page. (The pages translate without i18next:
// docs/decisions/0016-pages-translate-without-i18next-in-the-browser.md.)
const framework = /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/;
// Forms: only the pages with a form load these, never the entry. Conform's form state and the
// validation (zod with conform's zod adapter) are separate files so that a page can load the
// validation lazily, after hydration, while the form state stays in its first load (see the ADR).
const formState = /[\\/]node_modules[\\/]@conform-to[\\/](react|dom)[\\/]/;
// conform's prop helpers (getInputProps...) import nothing of the form state: a file of their own, so
// that a form whose state loads after hydration (app/components/lazy-form.tsx) leaves "conform" out.
const formProps = /[\\/]node_modules[\\/]@conform-to[\\/]react[\\/]dist[\\/](helpers|_virtual[\\/]_rollupPluginBabelHelpers)\.mjs$/;
const validation = /[\\/]node_modules[\\/](zod|@conform-to[\\/]zod)[\\/]/;
// The app's own modules that every page runs (the entry, the root layout and what it imports, the
// language menu and logo of both layouts, Vite's preload helper), and the signed-in shell with what
// it imports (avatar, bell), each in one file instead of nine and three small ones: each file is
// compressed on its own, and small ones compress worst (−1.6 to −1.9 KB on every page, measured by
// bench/weight.ts). Grouping more (the list pages' shared components) was measured too: +0.5 to
// +1.1 KB on the pages that do not use them, so rolldown's own chunking keeps the rest.
const appEntry = /[\\/]app[\\/](entry\.client|root)\.tsx$|preload-helper|[\\/]app[\\/]components[\\/](logo|language-menu)\.tsx$/;
const shell = /[\\/]app[\\/]routes[\\/]app-layout\.tsx$|[\\/]app[\\/](url|format)\.ts$|[\\/]app[\\/]components[\\/](clinic-time-zone|status-badge|pagination)\.tsx$/;

/**
 * Chunking of the browser build only. Set through a plugin so React Router keeps its own output
 * options for the client (route chunk file names) and the server build is not touched.
 * See docs/decisions/0003-first-load-javascript-budget.md.
 */
function clientChunks(): Plugin {
  return {
    name: "client-chunks",
    configEnvironment(name) {
      if (name !== "client") return;
      return {
        build: {
          // CLIENT_SOURCEMAP=1 npm run build: source maps to see what each chunk holds (ADR 0003).
          sourcemap: buildConfig().clientSourcemap,
          modulePreload: false,
          rolldownOptions: {
            output: {
              codeSplitting: {
                // A group takes its modules' dependencies too, so the priorities make conform's
                // form state (a dependency of its zod adapter) land in "conform", not "validation".
                groups: [
                  { name: "framework", test: framework, priority: 4 },
                  { name: "form-props", test: formProps, priority: 3 },
                  { name: "conform", test: formState, priority: 2 },
                  { name: "validation", test: validation, priority: 1 },
                  { name: "app", test: appEntry, priority: 0 },
                  { name: "shell", test: shell, priority: 0 },
                ],
              },
            },
          },
        },
      };
    },
  };
}

export default defineConfig({
  // The server build's entry is our Express sub-app, so server.ts and the routes share one
  // instance of every module (the CSP nonce context in particular).
  environments: { ssr: { build: { rolldownOptions: { input: "./app/request-handler.server.ts" } } } },
  optimizeDeps: {
    include: ["react", "react-dom", "react-dom/client", "react-router", "react-router/dom", "@conform-to/react", "@conform-to/zod/v4", "zod"],
  },
  plugins: [tailwindcss(), reactRouter(), clientChunks()],
});
