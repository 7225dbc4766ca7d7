// Malformed requests across every API route and every web form action, on the production server
// with its embedded database (docs/errors.md): whatever arrives, no answer is a 5xx, every API
// error carries a `message`, nothing logs a stack trace, and the server is healthy afterwards.
// Every API request is sent twice, without and with an Idempotency-Key: a key makes the API
// fingerprint the body before the route runs (api/idempotency.ts), work a malformed body must
// never reach (a body nested 5,000 deep once overflowed the stack there, with a key only).
// Seeded and bounded: the same requests on every run (FUZZ_SEED=<n> tries others).
//
// The routes are read from the sources and the build, so a new route or form is fuzzed without
// touching this file: API routes from api/app.ts and its routers, web actions from the build's route
// manifest, form field names and values from app/.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebServer, type WebServer } from "./test/web-server.ts";

const root = path.resolve(import.meta.dirname, "..");
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const API_RUNS = 1500;
const WEB_RUNS = 1500;

let app: WebServer;
const tokens: Record<string, string> = {};
const cookies: Record<string, string> = {};

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

function send(method: string, target: string, headers: Record<string, string>, body?: Buffer): Promise<Answer> {
  // Announced, whatever the method: Node's client frames a GET's body only with a length.
  if (body) headers = { ...headers, "content-length": String(body.length) };
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: app.port, method, path: target, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

// --- what there is to fuzz, read from the project ------------------------------------------------

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "+types" || entry.name === "test" ? [] : filesUnder(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

/** Every API route as [method, path pattern], e.g. ["put", "/auth/verifyUser/:id"]. */
function apiRoutes(): [string, string][] {
  const sources = filesUnder(path.join(root, "api")).map((file) => fs.readFileSync(file, "utf8"));
  const appSource = fs.readFileSync(path.join(root, "api/app.ts"), "utf8");
  const routes: [string, string][] = [];
  for (const mount of appSource.matchAll(/api\.use\("([^"]+)",\s*([^;]+)\);/g)) {
    for (const [, name] of mount[2].matchAll(/(\w+)\(deps\)/g)) {
      const source = sources.find((s) => new RegExp(`export function ${name}\\b`).test(s));
      if (!source) continue;
      for (const [, method, route] of source.matchAll(/router\.(get|post|put|patch|delete)\(\s*"([^"]+)"/g)) {
        routes.push([method, `${mount[1]}${route === "/" ? "" : route}`]);
      }
    }
  }
  return routes;
}

interface WebRoute {
  id: string;
  path: string;
  hasAction: boolean;
  parentId?: string;
}

/** Every page of the build (full path patterns), from React Router's client manifest. */
function webRoutes(): WebRoute[] {
  const assets = path.join(root, "build/client/assets");
  const file = fs.readdirSync(assets).find((name) => name.startsWith("manifest-"))!;
  const source = fs.readFileSync(path.join(assets, file), "utf8");
  const manifest = JSON.parse(source.slice(source.indexOf("=") + 1).replace(/;\s*$/, "")) as {
    routes: Record<string, WebRoute>;
  };
  const fullPath = (route: WebRoute): string => {
    const parent = route.parentId ? manifest.routes[route.parentId] : undefined;
    const own = route.path ?? "";
    const above = parent ? fullPath(parent) : "";
    return [above, own].filter(Boolean).join("/").replace(/\/+/g, "/");
  };
  return Object.values(manifest.routes).map((route) => ({
    ...route,
    path: `/${fullPath(route)}`.replace(/\/+/g, "/"),
  }));
}

/** Form field names and literal values the app uses (inputs, formData.get, zod schema keys). */
function formVocabulary() {
  const source = filesUnder(path.join(root, "app"))
    .map((file) => fs.readFileSync(file, "utf8"))
    .join("\n");
  const names = new Set<string>();
  for (const pattern of [
    /name="(\w+)"/g,
    /formData\.get\("(\w+)"\)/g,
    /^\s+(\w+): z\./gm,
    /getInputProps\(fields\.(\w+)/g,
  ]) {
    for (const [, name] of source.matchAll(pattern)) names.add(name);
  }
  const values = new Set<string>();
  for (const [, value] of source.matchAll(/value="([\w-]+)"/g)) values.add(value);
  return { names: [...names], values: [...values] };
}

// --- hostile values ----------------------------------------------------------------------------

const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "a\u0000b",
    "\r\n",
    "\u2028",
    "\uD800",
    "%ZZ",
    "%00",
    "../../etc/passwd",
    "/\t/evil.example",
    "//evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "-1",
    "0",
    "1e309",
    "NaN",
    "99999999999999999999",
    "2026-02-30",
    "9999-12-31",
    "25:61",
    "00000000-0000-4000-8000-000000000000",
    "x".repeat(5000),
    "patient@example.com",
    "Demo1234!",
  ),
);

const jsonValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    hostileText,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), hostileText), tie("value"), { maxKeys: 3 }),
  ),
})).value;

/** Percent-encoded; a lone surrogate (which encodeURIComponent refuses) becomes invalid UTF-8 bytes. */
const encode = (text: string) => {
  try {
    return encodeURIComponent(text);
  } catch {
    return `%ED%A0%80${encodeURIComponent(text.toWellFormed())}`;
  }
};

const segment = fc.oneof(
  hostileText.map(encode),
  fc.constantFrom("%ZZ", "%", "%00", "%2F", "..", "1", "0", "-5", "00000000-0000-4000-8000-000000000000", "%E2%80%A8"),
);

const queryString = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom(
          "page",
          "limit",
          "status",
          "name",
          "q",
          "search",
          "date",
          "doctorId",
          "id",
          "tab",
          "redirectTo",
          "_routes",
          "index",
        ),
        fc.string({ maxLength: 6 }),
      ),
      hostileText,
    ),
    { maxLength: 4 },
  )
  .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join("&")}` : ""));

/** A body and the headers that announce it, honest or not. */
function bodyOf(
  kind: string,
  fields: [string, string][],
  json: unknown,
): { headers: Record<string, string>; body?: Buffer } {
  const urlencoded = new URLSearchParams(fields).toString();
  switch (kind) {
    case "none":
      return { headers: {} };
    case "form":
      return { headers: { "content-type": "application/x-www-form-urlencoded" }, body: Buffer.from(urlencoded) };
    case "multipart": {
      const boundary = "fuzzboundary";
      const parts = fields
        .map(
          ([k, v]) =>
            `--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/["\r\n]/g, "")}"\r\n\r\n${v}\r\n`,
        )
        .join("");
      return {
        headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
        body: Buffer.from(`${parts}--${boundary}--\r\n`),
      };
    }
    case "json":
      return { headers: { "content-type": "application/json" }, body: Buffer.from(JSON.stringify(json) ?? "null") };
    case "broken json":
      return { headers: { "content-type": "application/json" }, body: Buffer.from(`{"a": ${urlencoded}`) };
    case "text":
      return { headers: { "content-type": "text/plain" }, body: Buffer.from(urlencoded) };
    case "xml":
      return { headers: { "content-type": "application/xml" }, body: Buffer.from(`<a>${urlencoded}</a>`) };
    case "multipart without boundary":
      return { headers: { "content-type": "multipart/form-data" }, body: Buffer.from(urlencoded) };
    case "broken multipart":
      return {
        headers: { "content-type": "multipart/form-data; boundary=zz" },
        body: Buffer.from(`--zz\r\n${urlencoded}`),
      };
    case "gzip":
      return {
        headers: { "content-type": "application/x-www-form-urlencoded", "content-encoding": "gzip" },
        body: Buffer.from(urlencoded),
      };
    case "deep json":
      return {
        headers: { "content-type": "application/json" },
        body: Buffer.from(`${"[".repeat(5000)}${JSON.stringify(json) ?? "null"}${"]".repeat(5000)}`),
      };
    case "deep object":
      return {
        headers: { "content-type": "application/json" },
        body: Buffer.from(`${'{"a":'.repeat(5000)}${JSON.stringify(Object.fromEntries(fields))}${"}".repeat(5000)}`),
      };
    case "oversized":
      return {
        headers: { "content-type": "application/json" },
        body: Buffer.from(JSON.stringify({ a: "x".repeat(70_000), ...Object.fromEntries(fields) })),
      };
    default:
      throw new Error(kind);
  }
}

const bodyKinds = fc.constantFrom(
  "none",
  "form",
  "form",
  "multipart",
  "json",
  "json",
  "broken json",
  "text",
  "xml",
  "multipart without boundary",
  "broken multipart",
  "gzip",
  "deep json",
  "deep object",
  "oversized",
);
const roles = fc.constantFrom("none", "patient", "doctor", "admin", "garbage");

beforeAll(async () => {
  app = await startWebServer();
  for (const [role, email] of [
    ["patient", "patient@example.com"],
    ["doctor", "doctor@example.com"],
    ["admin", "admin@example.com"],
  ]) {
    const api = await send(
      "POST",
      "/api/auth/login",
      { "content-type": "application/json" },
      Buffer.from(JSON.stringify({ email, password: "Demo1234!", role })),
    );
    expect(api.status, `API login of ${role}`).toBe(200);
    tokens[role] = JSON.parse(api.text).token.token;
    const web = await send(
      "POST",
      "/login",
      { "content-type": "application/x-www-form-urlencoded", cookie: "cookie_check=1" },
      Buffer.from(
        new URLSearchParams({ email, password: "Demo1234!", role: role === "admin" ? "patient" : role }).toString(),
      ),
    );
    expect(web.status, `web login of ${role}`).toBe(302);
    cookies[role] = [web.headers["set-cookie"] ?? []]
      .flat()
      .find((c) => c.startsWith("__session="))!
      .split(";")[0];
  }
  tokens.garbage = "not-a-token";
  cookies.garbage = "__session=garbage";
}, 120_000);
afterAll(() => app?.stop());

// Ending the session would leave the rest of the run anonymous: those routes are fuzzed without one.
const endsSession = (route: string) => /logout|delete-account/.test(route);

describe("fuzz", () => {
  // A new key for each request: the same key with another body would only be refused as reused.
  let keys = 0;
  it("no API route answers 5xx or an error without a message", async () => {
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(40);
    const request = fc.record({
      route: fc.constantFrom(...routes),
      params: fc.array(segment, { minLength: 3, maxLength: 3 }),
      query: queryString,
      kind: bodyKinds,
      fields: fc.array(fc.tuple(fc.string({ maxLength: 10 }), hostileText), { maxLength: 4 }),
      json: fc.oneof(
        jsonValue,
        fc.dictionary(
          fc.constantFrom(
            "email",
            "password",
            "role",
            "code",
            "date",
            "time",
            "doctorId",
            "status",
            "type",
            "username",
            "phone",
          ),
          jsonValue,
          { maxKeys: 6 },
        ),
      ),
      role: roles,
      method: fc.oneof(fc.constant(""), fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")),
    });
    await fc.assert(
      fc.asyncProperty(
        request,
        async ({ route: [method, pattern], params, query, kind, fields, json, role, method: other }) => {
          let n = 0;
          const target = `/api${pattern.replace(/:\w+/g, () => params[n++])}${query}`;
          const { headers, body } = bodyOf(kind, fields, json);
          const useRole = endsSession(pattern) ? "none" : role;
          if (useRole !== "none") headers.authorization = `Bearer ${tokens[useRole]}`;
          for (const key of [undefined, `fuzz-key-${++keys}`]) {
            const answer = await send(
              other || method.toUpperCase(),
              target,
              key ? { ...headers, "idempotency-key": key } : headers,
              body,
            );
            const what = `${method} ${target} (${kind}, ${key ? "with" : "without"} an idempotency key)`;
            expect(answer.status, what).toBeLessThan(500);
            if (answer.status >= 400)
              expect(typeof JSON.parse(answer.text).message, `${what}: ${answer.text.slice(0, 120)}`).toBe("string");
          }
        },
      ),
      { seed: SEED, numRuns: API_RUNS, endOnFailure: true },
    );
  }, 120_000);

  it("no web form action or page answers 5xx", async () => {
    const pages = webRoutes().filter((route) => route.id !== "root");
    const actions = pages.filter((route) => route.hasAction);
    expect(actions.length).toBeGreaterThan(10);
    const { names, values } = formVocabulary();
    const fieldValue = fc.oneof(hostileText, fc.constantFrom(...values));
    const request = fc.record({
      page: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...actions) },
        { weight: 1, arbitrary: fc.constantFrom(...pages) },
      ),
      params: fc.array(segment, { minLength: 3, maxLength: 3 }),
      query: queryString,
      data: fc.boolean(),
      kind: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom("form", "multipart") },
        { weight: 3, arbitrary: bodyKinds },
      ),
      fields: fc.array(
        fc.tuple(
          fc.oneof(
            { weight: 4, arbitrary: fc.constantFrom(...names) },
            { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
          ),
          fieldValue,
        ),
        { maxLength: 8 },
      ),
      role: roles,
      method: fc.constantFrom("POST", "POST", "POST", "GET", "PUT", "DELETE"),
      language: fc.constantFrom("en", "fr", "de", "*", "\u00ff"),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ page, params, query, data, kind, fields, role, method, language }) => {
        let n = 0;
        const pathname = page.path.replace(/:\w+/g, () => params[n++]).replace(/\/$/, "") || "/";
        // As the router sends a submission with JavaScript: to the page's data URL.
        const target = data
          ? `${pathname === "/" ? "/_root" : pathname}.data${query || "?"}${query ? "&" : ""}index`
          : `${pathname}${query}`;
        const { headers, body } =
          method === "GET"
            ? { headers: {} as Record<string, string>, body: undefined }
            : bodyOf(kind, fields, Object.fromEntries(fields));
        const useRole = endsSession(page.path) ? "none" : role;
        if (useRole !== "none") headers.cookie = cookies[useRole];
        headers["accept-language"] = language;
        const answer = await send(method, target, headers, body);
        expect(answer.status, `${method} ${target} (${kind}, ${useRole})`).toBeLessThan(500);
      }),
      { seed: SEED, numRuns: WEB_RUNS, endOnFailure: true },
    );
  }, 120_000);

  it("leaves the server healthy, with no stack trace in its log", async () => {
    expect((await send("GET", "/healthz", {})).status).toBe(200);
    expect((await send("GET", "/readyz", {})).status).toBe(200);
    const page = await send("GET", "/health/doctors", { cookie: cookies.patient });
    expect([200, 302]).toContain(page.status);
    expect(app.running()).toBe(true);
    const stacks = app.logs().filter((line) => /^\s+at /.test(line));
    expect(stacks, app.logs().join("\n").slice(0, 4000)).toEqual([]);
  });
});
