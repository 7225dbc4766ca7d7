// The API's edge: malformed requests get a 4xx with a JSON `message`, never a 500, and leave one
// log line without a stack trace; bodies are limited before they are read; no answer is cached.
import http from "node:http";
import { describe, expect, it, vi } from "vitest";
import { refusal, setUpApi } from "./test/harness.ts";
import { bigUpload } from "./test/big-upload.ts";

const api = setUpApi();

/** A raw request: any header, any body, no client-side checks. */
function raw(method: string, path: string, headers: Record<string, string>, body?: string | Buffer) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: { message?: unknown } }>(
    (resolve, reject) => {
      const req = http.request(`${api.url}${path}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: { message?: unknown } = {};
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON: no message, which the assertion on `message` says
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
        });
      });
      req.on("error", reject);
      req.end(body);
    },
  );
}

const json = { "content-type": "application/json" };
const login = JSON.stringify({ email: "someone@example.test", password: "Secret123!", role: "patient" });

describe("malformed requests", () => {
  it.each([
    ["JSON over 64 kB", "POST", "/auth/login", json, JSON.stringify({ email: "x".repeat(70_000) }), 413],
    ["invalid JSON", "POST", "/auth/login", json, "{email:", 400],
    [
      "a form instead of JSON",
      "POST",
      "/auth/login",
      { "content-type": "application/x-www-form-urlencoded" },
      "email=a",
      415,
    ],
    ["text instead of JSON", "POST", "/auth/login", { "content-type": "text/plain" }, login, 415],
    ["XML instead of JSON", "POST", "/auth/login", { "content-type": "application/xml" }, "<a/>", 415],
    ["a body without a type", "POST", "/auth/login", {}, login, 415],
    ["multipart without a boundary", "POST", "/auth/login", { "content-type": "multipart/form-data" }, "--x--", 415],
    ["a gzip body", "POST", "/auth/login", { ...json, "content-encoding": "gzip" }, login, 415],
    ["an unknown content encoding", "POST", "/auth/login", { ...json, "content-encoding": "br" }, "garbage", 415],
    [
      "a NUL in a JSON text",
      "POST",
      "/auth/login",
      json,
      JSON.stringify({ email: "a\u0000@example.test", password: "x", role: "patient" }),
      400,
    ],
    ["a NUL in a search", "GET", "/doctor/search?name=%00", {}, undefined, 400],
    ["a NUL in a JSON key", "POST", "/auth/login", json, '{"e\\u0000":1}', 400],
    ["a malformed escape in the path", "GET", "/doctor/%ZZ", {}, undefined, 404],
    ["an unknown route", "DELETE", "/nothing/here", {}, undefined, 404],
  ])("%s: answered with a status and a message", async (_name, method, path, headers, body, status) => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const res = await raw(method, path, headers, body);
      expect(res.status).toBe(status);
      expect(typeof res.body?.message).toBe("string");
      expect(error).not.toHaveBeenCalled();
      for (const call of warn.mock.calls) expect(call.join(" ")).not.toMatch(/\n\s+at /);
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
  });

  it("refuses an announced oversized body before reading it", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      // Announce 50 MB and send only the headers: the answer comes without waiting for the body.
      const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(`${api.url}/auth/register`, {
          method: "POST",
          headers: { ...json, "content-length": String(50 * 1024 * 1024) },
        });
        req.on("response", (r) => {
          let text = "";
          r.on("data", (c) => (text += c));
          r.on("end", () => {
            req.destroy();
            resolve({ status: r.statusCode ?? 0, body: text });
          });
        });
        req.on("error", reject);
        req.flushHeaders();
      });
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body).message).toMatch(/too large/i);
      expect(error).not.toHaveBeenCalled();
    } finally {
      error.mockRestore();
    }
  });

  // The refusal closes the connection: closed at once, with upload bytes unread, it reset the
  // connection and a client that had not read yet lost the answer (http/lingering-close.ts).
  it("lets a client still uploading an oversized body read the 413", async () => {
    expect(
      await bigUpload(Number(new URL(api.url).port), "/auth/register", "application/json", 20, { readAfterMs: 300 }),
    ).toBe(413);
  });

  it("refuses a chunked body that grows past the limit", async () => {
    const res = await raw(
      "POST",
      "/auth/register",
      { ...json, "transfer-encoding": "chunked" },
      JSON.stringify({ x: "y".repeat(100_000) }),
    );
    expect(res.status).toBe(413);
    expect(refusal(res).message).toMatch(/too large/i);
  });

  it("still answers a proper request afterwards", async () => {
    const res = await raw("POST", "/auth/login", json, login);
    expect([400, 401]).toContain(res.status);
    expect(typeof refusal(res).message).toBe("string");
  });
});

describe("caching", () => {
  it("marks personal answers private and not to be stored", async () => {
    const { token } = await api.createPatient();
    const res = await raw("GET", "/patient/me", { authorization: `Bearer ${token}` });
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("private, no-store");
  });

  it("sends no ETag: a personal answer is never stored, so never revalidated", async () => {
    const { token } = await api.createPatient();
    const res = await raw("GET", "/patient/me", { authorization: `Bearer ${token}` });
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBeUndefined();
  });

  it("marks the login answer (which carries a token) not to be stored", async () => {
    const res = await raw("POST", "/auth/login", json, login);
    expect(res.headers["cache-control"]).toBe("private, no-store");
  });
});
