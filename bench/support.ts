// What the benchmarks that drive the production server share: starting it (built app, demo data,
// a temporary data folder), the HTTPS front a phone reaches it through, a free port, waiting for it
// to answer, a demo account's session through the real login form, and the way figures are printed
// and written.
import { execFileSync, spawn } from "node:child_process";
import { createHash, X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { get } from "node:https";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { benchConfig, childEnvironment } from "../config.ts";

/** A markdown table for bench/README.md: the first `textColumns` columns left-aligned, figures right. */
export function markdownTable(head: string[], rows: (string | number)[][], textColumns: number) {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  const rule = `|${head.map((_, i) => (i < textColumns ? "---" : "---:")).join("|")}|`;
  return [line(head), rule, ...rows.map(line)].join("\n");
}

/** Writes `value` as JSON to the file BENCH_JSON names, if it names one. */
export function writeBenchJson(value: unknown) {
  const file = benchConfig().BENCH_JSON;
  if (file) writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** A free TCP port on the loopback interface, chosen by the system. */
export function freePort() {
  return new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

async function waitFor(url: string) {
  for (let i = 0; i < 1200; i++) {
    // up to 2 minutes: PGlite starts slowly on a busy machine
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

/** Logs a demo account in through the real login form and returns its session cookie. */
export async function login(base: string, email: string, role: "patient" | "doctor" | "receptionist") {
  const body = new URLSearchParams({ email, password: "Demo1234!", role });
  const res = await fetch(`${base}/login`, {
    method: "POST",
    body,
    redirect: "manual",
    headers: { origin: base, cookie: "cookie_check=1" },
  }); // the login page's test cookie
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => c.startsWith("__session="));
  if (!cookie.length) throw new Error(`login as ${email} failed: ${res.status}`);
  return cookie.join("; ");
}

/** The environment of `node server.ts` in production mode with the demo data on `port` and `dataDir`; `env` adds to it. */
export function productionEnv(port: number, dataDir: string, env: Record<string, string> = {}): NodeJS.ProcessEnv {
  return childEnvironment({
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DEMO: "1",
    SESSION_SECRET: "b".repeat(40),
    COOKIE_SECURE: "false",
    // No mail leaves a benchmark or a test server (production refuses to start without a choice).
    MAIL_TRANSPORT: "outbox",
    // One web process unless a benchmark or test asks for more (production's default is one per core).
    WEB_CONCURRENCY: "1",
    ...env,
  });
}

/**
 * `node server.ts` in production mode with the demo data, on `port` (a free one by default) and a
 * temporary data folder. `env` adds to (or, with "", clears) the environment it inherits.
 */
export async function startProductionApp(options: { port?: number; env?: Record<string, string>; cwd?: string } = {}) {
  const port = options.port || (await freePort());
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-app-"));
  const app = spawn(process.execPath, ["server.ts"], {
    cwd: options.cwd,
    env: productionEnv(port, dataDir, options.env),
    stdio: ["ignore", "ignore", "inherit"],
  });
  const stop = async () => {
    if (app.exitCode === null) {
      app.kill("SIGTERM");
      await new Promise((resolve) => app.once("exit", resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) =>
    app.once("exit", (code) => reject(new Error(`server exited with ${code}`))),
  );
  try {
    await Promise.race([waitFor(`${base}/healthz`), exited]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, stop, pid: app.pid as number };
}

/**
 * An HTTPS front speaking HTTP/2 before the app at `target`, as phones reach it in production (the
 * app runs behind a TLS terminator: README, "HTTPS or plain HTTP"): nginx from Debian's packages
 * (NGINX_BIN) with a certificate made for the run by openssl. A browser is told to trust it by
 * `spki` (Chromium's --ignore-certificate-errors-spki-list), nothing else.
 */
export async function startHttpsFront(target: string) {
  const work = mkdtempSync(path.join(os.tmpdir(), "bench-front-"));
  const key = path.join(work, "key.pem");
  const cert = path.join(work, "cert.pem");
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1"].concat([
      "-keyout",
      key,
      "-out",
      cert,
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
    ]),
    { stdio: "ignore" },
  );
  const certificate = readFileSync(cert);
  const spki = createHash("sha256")
    .update(new X509Certificate(certificate).publicKey.export({ type: "spki", format: "der" }))
    .digest("base64");
  const port = await freePort();
  const conf = path.join(work, "nginx.conf");
  // `listen ... ssl http2`: the form nginx 1.22 (Debian 12) knows; later versions accept it too.
  writeFileSync(
    conf,
    `pid ${work}/nginx.pid;
error_log ${work}/error.log warn;
worker_processes 1;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${work}/body; proxy_temp_path ${work}/proxy;
  fastcgi_temp_path ${work}/fastcgi; uwsgi_temp_path ${work}/uwsgi; scgi_temp_path ${work}/scgi;
  upstream app { server ${new URL(target).host}; keepalive 16; }
  server {
    listen 127.0.0.1:${port} ssl http2;
    ssl_certificate ${cert};
    ssl_certificate_key ${key};
    location / {
      proxy_pass http://app;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }
  }
}
`,
  );
  const nginx = spawn(benchConfig().NGINX_BIN, ["-c", conf, "-p", work, "-g", "daemon off;"], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const stop = async () => {
    if (nginx.exitCode === null) {
      nginx.kill("SIGTERM");
      await new Promise((resolve) => nginx.once("exit", resolve));
    }
    rmSync(work, { recursive: true, force: true });
  };
  const base = `https://127.0.0.1:${port}`;
  const answers = () =>
    new Promise<boolean>((resolve) =>
      get(`${base}/healthz`, { ca: certificate }, (res) => resolve(res.resume().statusCode === 200)).on("error", () =>
        resolve(false),
      ),
    );
  for (let i = 0; !(await answers()); i++) {
    if (i === 100 || nginx.exitCode !== null) {
      await stop();
      throw new Error(`nginx did not answer at ${base}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, spki, stop };
}
