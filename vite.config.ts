import { writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { buildConfig } from "./config.ts";

// What every page runs (React, React DOM, React Router): one file instead of four, because each
// file is compressed on its own and the pieces share much of their vocabulary (measured by
// bench/weight.ts). Nothing in it is optional on any page. (The pages translate without i18next:
// docs/decisions/0016-pages-translate-without-i18next-in-the-browser.md.)
const framework = /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/;
// The app's own modules that every page runs (the entry, the root layout and what it imports, the
// language menu and logo of both layouts, Vite's preload helper), and the signed-in shell with what
// it imports (avatar, bell), each in one file instead of nine and three small ones: each file is
// compressed on its own, and small ones compress worst (−1.6 to −1.9 KB on every page, measured by
// bench/weight.ts). The shell also takes the small modules most signed-in pages use (url, format,
// the clinic zone line, the status badge, paging): −0.7 KB on the three list pages, +0.3 to +0.7 on
// the signed-in pages that use fewer of them (ADR 0003). Grouping more (the search form, the submit
// button, the doctor summary) costs the pages without them more than it saves.
const appEntry =
  /[\\/]app[\\/](entry\.client|root)\.tsx$|preload-helper|[\\/]app[\\/]components[\\/](logo|language-menu)\.tsx$/;
// The small modules every form and action button uses (fields, the submit button, the refusal note,
// the early-input hook), one file instead of four: on the pages with a form on their first screen a
// file costs half a KB of headers on the wire besides its content (docs/performance.md, First visit).
const formParts = /[\\/]app[\\/]components[\\/](forms|submit-button|form-alert)\.tsx$|[\\/]app[\\/]early-input\.ts$/;
const shell =
  /[\\/]app[\\/]routes[\\/]app-layout\.tsx$|[\\/]app[\\/](url|format)\.ts$|[\\/]app[\\/]routes[\\/]doctor[\\/]verification\.ts$|[\\/]app[\\/]components[\\/](clinic-time-zone|status-badge|pagination)\.tsx$/;

// Vite wraps every dynamic import in a preload helper that first fetches the imported chunk's
// dependencies. With modulePreload off (below: a chunk loaded after hydration fetches its own
// imports, most of them already there) it only calls the import and, on a failure, fires a
// 'vite:preloadError' event nothing listens to: its 1.3 KB in the entry, on every page, are replaced by
// the call alone (-0.6 KB gzip, ADR 0003). A chunk whose import would still need a dependency
// preloaded (a stylesheet) fails the build instead of losing it.
const preloadHelperId = "\0vite/preload-helper.js";
function plainDynamicImports(): Plugin {
  return {
    name: "plain-dynamic-imports",
    enforce: "pre",
    applyToEnvironment: (environment) => environment.name === "client",
    resolveId: (source) => (source === preloadHelperId ? preloadHelperId : null),
    load: (id) => (id === preloadHelperId ? "export const __vitePreload = (load) => load();" : null),
    generateBundle: {
      order: "post",
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type === "chunk" && chunk.code.includes("__vite__mapDeps")) {
            this.error(
              `${chunk.fileName}: a dynamic import needs its dependencies preloaded, which plainDynamicImports() does not do`,
            );
          }
        }
      },
    },
  };
}

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
          // No preload lists in the route chunks (the hashed names of every dependency of each lazy
          // chunk): what loads after hydration fetches its own imports (see plainDynamicImports).
          modulePreload: false,
          rolldownOptions: {
            output: {
              codeSplitting: {
                groups: [
                  { name: "framework", test: framework, priority: 4 },
                  { name: "app", test: appEntry, priority: 0 },
                  { name: "shell", test: shell, priority: 0 },
                  { name: "form-parts", test: formParts, priority: 0 },
                ],
              },
            },
          },
        },
      };
    },
  };
}

/**
 * Each file of the browser build gets its brotli (.br, quality 11) and gzip (.gz, level 9) copies
 * beside it, and server.ts sends the copy the browser accepts (express-static-gzip). The files are
 * named by their hash and never change: compressed once, as hard as the formats allow, rather than
 * at each request at the quick level a live answer can afford (React and React Router alone: 108 KB
 * at brotli's level 4, 93 KB at 11). A copy that would not be smaller is not written. ADR 0030.
 */
function precompressedAssets(): Plugin {
  return {
    name: "precompressed-assets",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    writeBundle(options, bundle) {
      for (const file of Object.values(bundle)) {
        const content = Buffer.from(file.type === "chunk" ? file.code : file.source);
        const target = path.join(options.dir!, file.fileName);
        const brotli = brotliCompressSync(content, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        });
        if (brotli.length < content.length) writeFileSync(`${target}.br`, brotli);
        const gzip = gzipSync(content, { level: 9 });
        if (gzip.length < content.length) writeFileSync(`${target}.gz`, gzip);
      }
    },
  };
}

export default defineConfig({
  // The server build's entry is our Express sub-app, so server.ts and the routes share one
  // instance of every module (the CSP nonce context in particular).
  environments: { ssr: { build: { rolldownOptions: { input: "./app/request-handler.server.ts" } } } },
  optimizeDeps: {
    include: [
      "react",
      "react-dom",
      "react-dom/client",
      "react-router",
      "react-router/dom",
      "@conform-to/react",
      "@conform-to/zod/v4",
      "zod",
    ],
  },
  plugins: [plainDynamicImports(), tailwindcss(), reactRouter(), clientChunks(), precompressedAssets()],
});
