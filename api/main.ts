// Runs the upstream API alone (`npm run api`), for a web app pointed at it with API_URL.
// Configuration (API_PORT, API_HOST, DATABASE_URL, DATA_DIR, SMTP_URL, DEMO...) comes from
// config.ts; the README's configuration table lists every variable.
import type { Server } from "node:http";
import express from "express";
import { exitOnStartupError, startupConfig, startupMessage } from "../config.ts";
import { observe } from "./observe.ts";
import { openApi, shutDownGracefully } from "./serve.ts";

const settings = await exitOnStartupError(startupConfig);
const { database, api } = await exitOnStartupError(() => openApi(settings));
// The API answers every unknown path with 404, so the health check sits in front of it.
const app = express();
app.disable("x-powered-by");
observe(app, { service: "api", logLevel: settings.LOG_LEVEL, metricsToken: settings.METRICS_TOKEN });
app.get("/healthz", (_req, res) => {
  res.json({ status: "ok" });
});
app.use(api);

const server: Server = app.listen(settings.API_PORT, settings.API_HOST, (error) => {
  if (error) {
    console.error(startupMessage(error) ?? error);
    process.exit(1);
  }
  console.log(
    `API listening on http://${settings.API_HOST}:${settings.API_PORT} (${database.kind}${settings.demo ? ", demo data" : ""})`,
  );
});
shutDownGracefully(server, () => database.close());
