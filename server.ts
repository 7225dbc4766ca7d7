// The production (and development) server, and the composition root (docs/architecture.md): security
// headers, static files, health checks, the embedded upstream API at /api (unless API_URL points
// elsewhere) and the React Router app, to which it hands the way to the API (in-process when the API
// runs here, HTTP otherwise) and the metrics hook, through React Router's load context.
import { readdirSync } from "node:fs";
import path from "node:path";
import cluster from "node:cluster";
import { createServer } from "node:http";
import compression from "compression";
import express from "express";
import expressStaticGzip from "express-static-gzip";
import helmet from "helmet";
import {
  exitOnStartupError,
  keepDevelopmentSessionSecret,
  loadConfig,
  startupConfig,
  startupMessage,
} from "./config.ts";
import type { Database } from "./api/db/index.ts";
import { openApi, shutDownGracefully } from "./api/serve.ts";
import { observe } from "./api/observe.ts";
import { clientMistake } from "./api/http.ts";
import { inProcessTransport } from "./api/in-process.ts";
import { closePageScope, openPageScope } from "./api/auth/page-scope.ts";
import { observeUpstream } from "./api/metrics.ts";
import { httpTransport, type ApiTransport, type WebServices } from "./contract/api-transport.ts";
import { forwardToOwner, superviseWebWorkers } from "./server-cluster.ts";
import { contentSecurityPolicy, headersOnce } from "./app/csp.server.ts";

// Configuration first (one line naming the variable on a bad value), DATA_DIR created if missing.
const config = await exitOnStartupError(() => {
  startupConfig();
  keepDevelopmentSessionSecret();
  return loadConfig();
});
const production = config.production;
// `npm run dev` passes --dev: routes through Vite with hot reload. Otherwise (npm start, the
// container) the production build in build/ is served, whatever NODE_ENV says.
const viteDev = process.argv.includes("--dev");

// Several web workers (WEB_CONCURRENCY): this first process only supervises them, and owns the
// embedded database when there is one (server-cluster.ts); the workers run the rest of this file.
if (cluster.isPrimary && config.webConcurrency > 1 && !viteDev) {
  await exitOnStartupError(() => superviseWebWorkers(config));
}

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", config.TRUST_PROXY);
const logger = observe(app, { service: "web", logLevel: config.LOG_LEVEL, metricsToken: config.METRICS_TOKEN });

const httpsOnly = production && config.cookieSecure;
// The build's scripts and stylesheets (hashed names, never changed): answered before the documents'
// headers. A page's first visit fetches a score of them, and the policy and framing headers (about
// 600 bytes each time: Content-Security-Policy, X-Frame-Options, Cross-Origin-Opener-Policy...) only
// mean something on a document; on a phone's data plan they cost more than some of the files
// (docs/performance.md, First visit). What protects a script or a stylesheet stays: its type is not
// guessed (nosniff) and no other site may load it (Cross-Origin-Resource-Policy). No ETag or
// Last-Modified either: a file cached for a year under its hash is never asked again.
// Each file is sent as the brotli or gzip copy the build made of it (vite.config.ts,
// precompressedAssets) when the browser accepts one; a file without copies (React Router's manifest,
// written after them) is compressed as it is sent.
if (!viteDev) {
  app.use(
    "/assets",
    compression(),
    expressStaticGzip("build/client/assets", {
      enableBrotli: true,
      orderPreference: ["br", "gzip"],
      index: false,
      serveStatic: {
        immutable: true,
        maxAge: "1y",
        etag: false,
        lastModified: false,
        setHeaders: (res) => {
          res.setHeader("X-Content-Type-Options", "nosniff");
          res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
        },
      },
    }),
  );
}
app.use(contentSecurityPolicy({ upgradeInsecureRequests: httpsOnly }));
// helmet's headers are the same for every request: taken from it once (app/csp.server.ts).
app.use(
  headersOnce(
    helmet({
      // Set above, with the request's nonce, from a header built once (app/csp.server.ts).
      contentSecurityPolicy: false,
      // Chromium sends `Origin: null` on form posts under no-referrer, which React Router refuses.
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
      strictTransportSecurity: httpsOnly ? { maxAge: 31536000, includeSubDomains: true } : false,
      crossOriginEmbedderPolicy: false,
    }),
  ),
);
app.use(compression());

// The way to the API (contract/api-transport.ts), chosen once: the API of this process called
// in-process, or an API elsewhere over HTTP (API_URL, or the process owning the embedded database).
let database: Database | undefined;
let callApi: ApiTransport;
let pageScopes: WebServices["pageScopes"];
let inProcessCallsSettled = async (_withinMs: number) => {};
if (config.API_OWNER_URL) {
  // A web worker of a process that owns the embedded database (server-cluster.ts): the public /api
  // and the pages' calls both go to the owner's API on loopback.
  app.use("/api", forwardToOwner(config.API_OWNER_URL));
  callApi = httpTransport(config.API_OWNER_URL);
} else if (config.API_URL) {
  callApi = httpTransport(config.API_URL);
} else {
  const embedded = await exitOnStartupError(() => openApi(config));
  database = embedded.database;
  // Public at /api (the API's clients), and called in-process by the pages, whose calls share one
  // token check per page (api/auth/page-scope.ts).
  app.use("/api", embedded.api);
  const inProcess = inProcessTransport(embedded.api, logger);
  callApi = inProcess.call;
  inProcessCallsSettled = inProcess.settled;
  pageScopes = { open: openPageScope, close: closePageScope };
}
const services: WebServices = { callApi, pageScopes, observeApiCall: observeUpstream };

app.get("/healthz", (_req, res) => {
  res.json({ status: "ok" });
});
app.get("/readyz", async (_req, res) => {
  try {
    if (database) await database.ping();
    const upstream = await callApi(
      { method: "GET", url: "/speciality", headers: { accept: "application/json" } },
      3000,
    );
    if (upstream.status !== 200) throw new Error(`upstream answered ${upstream.status}`);
    res.json({ status: "ready" });
  } catch (error) {
    res.status(503).json({ status: "unavailable", reason: (error as Error).message });
  }
});

const server = createServer(app);

if (!viteDev) {
  // The few files outside assets/ (public/: the favicon) are looked up in a list made at start:
  // express.static asked the file system about every page's path first (a stat per page).
  const publicFiles = new Set(
    readdirSync("build/client", { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) =>
        path.posix.join("/", path.relative("build/client", entry.parentPath).split(path.sep).join("/"), entry.name),
      )
      .filter((file) => !file.startsWith("/assets/")),
  );
  const servePublicFile = express.static("build/client", { maxAge: "1h", index: false });
  app.use((req, res, next) => (publicFiles.has(req.path) ? servePublicFile(req, res, next) : next()));
  const { createWebApp } = await import(path.resolve("build/server/index.js"));
  app.use(createWebApp(services));
} else {
  const vite = await import("vite");
  // Hot reload's websocket on the app's own port: the CSP's connect-src 'self' allows it (Vite's
  // default, a second port, is refused), and two checkouts running `npm run dev` do not clash.
  const devServer = await vite.createServer({ server: { middlewareMode: true, hmr: { server } } });
  app.use(devServer.middlewares);
  // Vite loads the module again when a source changes: the web app is made again from the new one.
  let made: { from: unknown; webApp: express.RequestHandler } | undefined;
  app.use(async (req, res, next) => {
    try {
      const { createWebApp } = await devServer.ssrLoadModule("./app/request-handler.server.ts");
      if (!made || made.from !== createWebApp)
        made = { from: createWebApp, webApp: createWebApp(services) as express.RequestHandler };
      made.webApp(req, res, next);
    } catch (error) {
      if (error instanceof Error) devServer.ssrFixStacktrace(error);
      next(error);
    }
  });
}

// The last stop of an error nothing else answered (a static file path that does not decode, a
// request the client broke off): a client's mistake is its status, with no stack trace in the log
// (the request's own line says the status); anything else is our fault.
app.use((error: unknown, _req: express.Request, res: express.Response, next: express.NextFunction) => {
  if (res.headersSent) return next(error);
  const mistake = clientMistake(error);
  if (mistake) {
    res.status(mistake.status).type("text/plain").send(mistake.message);
    return;
  }
  console.error(error);
  res.status(500).type("text/plain").send("Something went wrong");
});

// A port in use (or not allowed) is one line, like every start-up error.
server.once("error", (error) => {
  console.error(startupMessage(error) ?? error);
  process.exit(1);
});
server.listen(config.PORT, config.HOST, () => {
  const worker = cluster.isPrimary ? "" : `, web worker ${process.pid}`;
  console.log(
    `Listening on http://localhost:${config.PORT} (${production ? "production" : "development"}${viteDev ? ", Vite" : ""}${worker})`,
  );
  if (config.demo && !config.API_URL && cluster.isPrimary) {
    console.log(
      "Demo accounts (password Demo1234!): patient@example.com, doctor@example.com, pending.doctor@example.com, admin@example.com, reception@example.com",
    );
  }
});
// A request has 30 s to arrive whole (forms are at most 64 kB): a slow sender cannot hold memory.
server.requestTimeout = 30_000;
shutDownGracefully(server, async () => {
  // Within half of the shutdown's 10 s (api/serve.ts), so the database still closes cleanly.
  await inProcessCallsSettled(5_000);
  await database?.close();
});
