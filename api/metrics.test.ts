import { Writable } from "node:stream";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "./app.ts";
import { observe } from "./observe.ts";
import { observeUpstream, watchDatabasePool } from "./metrics.ts";
import { watchMailOutbox } from "./mail/outbox-metrics.ts";
import { mailOutbox } from "./db/schema.ts";
import { startApi, type TestApi } from "./test/harness.ts";
import { serve } from "./test/serve.ts";
import { apiError } from "../contract/errors.ts";

const TOKEN = "metrics-token-for-the-test-0123456789";
const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });

function serveApi(metricsToken: string | undefined, api: TestApi) {
  const app = express();
  observe(app, { service: "api", logLevel: "info", metricsToken, destination: quiet });
  app.use(createApi(api.deps));
  return serve(app);
}

let api: TestApi;
let guarded: Awaited<ReturnType<typeof serveApi>>;
let open: Awaited<ReturnType<typeof serveApi>>;
beforeAll(async () => {
  api = await startApi();
  guarded = await serveApi(TOKEN, api);
  open = await serveApi(undefined, api);
});
afterAll(async () => {
  await guarded.close();
  await open.close();
  await api.close();
});

const scrape = (url: string, authorization?: string) =>
  fetch(`${url}/metrics`, { headers: authorization ? { authorization } : {} });

describe("GET /metrics", () => {
  it("does not exist for anyone without the token, nor at all when no token is configured", async () => {
    expect((await scrape(guarded.url)).status).toBe(404);
    expect((await scrape(guarded.url, "Bearer wrong-token-of-some-length")).status).toBe(404);
    expect((await scrape(guarded.url, `Bearer ${TOKEN}x`)).status).toBe(404);
    expect((await scrape(guarded.url, TOKEN)).status).toBe(404);
    expect((await scrape(open.url)).status).toBe(404);
    expect((await scrape(open.url, `Bearer ${TOKEN}`)).status).toBe(404);
    // The 404 is the app's own, the same as for any unknown path: nothing tells /metrics exists.
    const unknown = await fetch(`${guarded.url}/metricz`);
    expect(apiError.parse(await (await scrape(guarded.url)).json())).toEqual(apiError.parse(await unknown.json()));
  });

  it("gives the scraper with the token request latency by route, with ids hidden and unknown paths pooled", async () => {
    await fetch(`${guarded.url}/speciality`);
    await fetch(`${guarded.url}/location/city/7`);
    await fetch(`${guarded.url}/wp-admin/install.php`);
    const res = await scrape(guarded.url, `Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(
      /http_request_duration_seconds_count\{[^}]*method="GET",route="\/speciality",status="200"[^}]*\} [1-9]/,
    );
    expect(text).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/location\/city\/:param"/);
    expect(text).toMatch(/http_request_duration_seconds_count\{[^}]*route="unmatched",status="404"/);
    expect(text).not.toContain("wp-admin");
    expect(text).toMatch(/service="api"/);
    // The process's own: CPU, memory, event loop.
    expect(text).toMatch(/^process_cpu_seconds_total/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds/m);
  });

  it("counts the web tier's upstream calls by route, and those that failed by reason", async () => {
    observeUpstream("GET", "/doctor/42", 0.02, 200);
    observeUpstream("POST", "/appointment", 0.5, 503);
    observeUpstream("POST", "/appointment", 10, "timeout");
    observeUpstream("GET", "/speciality", 0.001, "network");
    const text = await (await scrape(guarded.url, `Bearer ${TOKEN}`)).text();
    expect(text).toMatch(
      /upstream_request_duration_seconds_count\{[^}]*method="GET",route="\/doctor\/:param",status="200"/,
    );
    expect(text).toMatch(
      /upstream_errors_total\{[^}]*method="POST",route="\/appointment",reason="status_5xx"[^}]*\} 1/,
    );
    expect(text).toMatch(/upstream_errors_total\{[^}]*method="POST",route="\/appointment",reason="timeout"[^}]*\} 1/);
    expect(text).toMatch(/upstream_errors_total\{[^}]*method="GET",route="\/speciality",reason="network"[^}]*\} 1/);
    expect(text).not.toMatch(/upstream_errors_total\{[^}]*route="\/doctor\/:param"/);
  });

  // The pool exists on PostgreSQL only (PGlite is one connection in the process); the API tests
  // run on both in CI (tests/run-all.sh).
  it.runIf(!!process.env.TEST_DATABASE_URL)("reports the PostgreSQL pool's connections at each scrape", async () => {
    watchDatabasePool({ kind: "postgres", db: api.db, ping: async () => {}, close: async () => {} });
    await fetch(`${guarded.url}/speciality`);
    const text = await (await scrape(guarded.url, `Bearer ${TOKEN}`)).text();
    const total = Number(/db_pool_connections\{state="total"[^}]*\} (\d+)/.exec(text)?.[1]);
    const idle = Number(/db_pool_connections\{state="idle"[^}]*\} (\d+)/.exec(text)?.[1]);
    expect(total).toBeGreaterThanOrEqual(1);
    expect(idle).toBeLessThanOrEqual(total);
    expect(text).toMatch(/db_pool_connections\{state="waiting"[^}]*\} 0/);
  });

  it("reports the mail outbox: waiting, retrying after a failed attempt, given up, and the oldest one's age", async () => {
    watchMailOutbox(api.db);
    await api.db.delete(mailOutbox);
    // Due in an hour: no outbox worker picks them up while the test reads them.
    const later = new Date(Date.now() + 3_600_000);
    const mail = (recipient: string) => ({
      recipient,
      subject: "Your code",
      text: "123456",
      html: "<p>123456</p>",
      dueAt: later,
    });
    await api.db
      .insert(mailOutbox)
      .values([
        { ...mail("first@example.test"), createdAt: new Date(Date.now() - 120_000) },
        mail("second@example.test"),
        { ...mail("bounced@example.test"), attempts: 2, lastError: "421 try again later" },
        { ...mail("gone@example.test"), attempts: 10, lastError: "550 no such user", failedAt: new Date() },
      ]);
    const text = await (await scrape(guarded.url, `Bearer ${TOKEN}`)).text();
    expect(text).toMatch(/mail_outbox_messages\{state="waiting"[^}]*\} 2$/m);
    expect(text).toMatch(/mail_outbox_messages\{state="retrying"[^}]*\} 1$/m);
    expect(text).toMatch(/mail_outbox_messages\{state="failed"[^}]*\} 1$/m);
    const oldest = Number(/^mail_outbox_oldest_seconds(?:\{[^}]*\})? (\S+)$/m.exec(text)?.[1]);
    expect(oldest).toBeGreaterThanOrEqual(119);
    expect(text).not.toContain("example.test");
    await api.db.delete(mailOutbox);
    const empty = await (await scrape(guarded.url, `Bearer ${TOKEN}`)).text();
    expect(empty).toMatch(/mail_outbox_messages\{state="waiting"[^}]*\} 0$/m);
    expect(empty).toMatch(/^mail_outbox_oldest_seconds(?:\{[^}]*\})? 0$/m);
  });
});
