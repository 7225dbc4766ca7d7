// Runs the upstream API alone (`npm run api`), for a web app pointed at it with API_URL.
//   DATABASE_URL  postgres://… (else embedded PGlite in DATA_DIR/db, DATA_DIR default ./data)
//   API_PORT      default 4000;  API_HOST default 127.0.0.1 (set 0.0.0.0 to expose it)
//   SMTP_URL, MAIL_FROM          mail over SMTP (else the development outbox in DATA_DIR/outbox)
//   DEMO          1 seeds the demo accounts (default 1, or 0 when NODE_ENV=production)
import fs from "node:fs";
import type { Server } from "node:http";
import express from "express";
import { LOG_LEVELS, type LogLevel } from "./logging.ts";
import { observe } from "./observe.ts";
import { openApi, shutDownGracefully } from "./serve.ts";

function config(env: NodeJS.ProcessEnv) {
  const problems: string[] = [];
  const port = Number(env.API_PORT || 4000);
  if (!Number.isInteger(port) || port < 1 || port > 65535) problems.push(`API_PORT: not a port number (${env.API_PORT})`);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) problems.push("DATABASE_URL: must be a postgres:// URL");
  const smtpUrl = env.SMTP_URL || undefined;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) problems.push("SMTP_URL: must be an smtp:// or smtps:// URL");
  if (env.DEMO && env.DEMO !== "0" && env.DEMO !== "1") problems.push("DEMO: must be 0 or 1");
  const logLevel = (env.LOG_LEVEL || "info") as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL: must be one of ${LOG_LEVELS.join(", ")}`);
  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken && metricsToken.length < 16) problems.push("METRICS_TOKEN: must be at least 16 characters");
  if (problems.length) throw new Error(`Invalid configuration:\n  ${problems.join("\n  ")}`);
  const dataDir = env.DATA_DIR || "./data";
  return {
    port,
    host: env.API_HOST || "127.0.0.1",
    databaseUrl,
    dataDir,
    smtpUrl,
    mailFrom: env.MAIL_FROM || undefined,
    demo: env.DEMO ? env.DEMO === "1" : env.NODE_ENV !== "production",
    logLevel,
    metricsToken,
  };
}

let settings: ReturnType<typeof config>;
try {
  settings = config(process.env);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

if (!settings.databaseUrl) fs.mkdirSync(settings.dataDir, { recursive: true });
const { database, api } = await openApi(settings);
// The API answers every unknown path with 404, so the health check sits in front of it.
const app = express();
app.disable("x-powered-by");
observe(app, { service: "api", logLevel: settings.logLevel, metricsToken: settings.metricsToken });
app.get("/healthz", (_req, res) => {
  res.json({ status: "ok" });
});
app.use(api);

const server: Server = app.listen(settings.port, settings.host, () => {
  console.log(`API listening on http://${settings.host}:${settings.port} (${database.kind}${settings.demo ? ", demo data" : ""})`);
});
shutDownGracefully(server, () => database.close());
