// The web server's HTTP edge, on the production build with its embedded API (docs/errors.md):
// malformed requests get a 4xx and a translated page, never a 500 and a stack trace; bodies have a
// limit and big ones do not grow the memory; texts survive an error first; redirects stay on this
// site; signed-in answers are not stored by caches.
import http from "node:http";
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bigUpload } from "../../api/test/big-upload.ts";
import { patientSession, startWebServer, type WebServer } from "../../app/test/web-server.ts";

let app: WebServer;
beforeAll(async () => {
  app = await startWebServer();
}, 120_000);
afterAll(() => app?.stop());

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const formType = { "content-type": "application/x-www-form-urlencoded" };
/** A login post from a browser that keeps cookies: the login page's test cookie comes back. */
const loginType = { ...formType, cookie: "cookie_check=1" };

/** A raw request: any header, any body, no client-side checks, redirects not followed. */
function raw(method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string; body: Buffer }>(
    (resolve, reject) => {
      const req = http.request(`${app.url}${path}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: body.toString("utf8"), body });
        });
      });
      req.on("error", reject);
      req.end(body);
    },
  );
}

const heading = (html: string) => html.match(/<h1[^>]*>([^<]*)<\/h1>/)?.[1];
const stackLines = () => app.logs().filter((line) => /^\s+at /.test(line));
/** The log lines about `route`: the request's own JSON line (api/logging.ts) and anything else. */
const linesAbout = (route: string) => app.logs().filter((line) => line.includes(route));
const requestLine = (method: string, route: string, status: number) =>
  expect.stringMatching(
    new RegExp(`^\\{.*"method":"${method}","route":"${route.replace(/[/.]/g, "\\$&")}","status":${status}\\b`),
  );

async function logIn(email = "patient@example.com", role = "patient") {
  const res = await raw("POST", "/login", loginType, form({ email, password: "Demo1234!", role }));
  expect(res.status).toBe(302);
  const cookie = [res.headers["set-cookie"] ?? []].flat().find((c) => c.startsWith("__session="));
  return cookie!.split(";")[0];
}

describe("texts", () => {
  // Runs first on a fresh server: an error page as the very first page once cached empty texts.
  it("stay complete when the first page after a start is an error", async () => {
    expect((await raw("GET", "/favicon.ico")).status).toBe(404);
    const english = await raw("GET", "/login", { "accept-language": "en" });
    expect(english.status).toBe(200);
    expect(heading(english.text)).toBe("Log in");
    expect(english.text).not.toMatch(/auth:login\./);
    const french = await raw("GET", "/login", { cookie: "i18nextLng=fr" });
    expect(heading(french.text)).toBe("Connexion");
  });

  it("take a language cookie that is not well encoded as no choice: the page in the browser's language, and no stack", async () => {
    app.clearLogs();
    for (const cookie of ["i18nextLng=%", "i18nextLng=%E0%A4%A", "i18nextLng=fr%"]) {
      const page = await raw("GET", "/login", { cookie, "accept-language": "fr" });
      expect(page.status).toBe(200);
      expect(heading(page.text)).toBe("Connexion");
    }
    expect(stackLines()).toEqual([]);
  });

  it("give the not-found page in the user's language, with its status and one log line", async () => {
    app.clearLogs();
    const french = await raw("GET", "/no/such/page", { cookie: "i18nextLng=fr" });
    expect(french.status).toBe(404);
    expect(heading(french.text)).toBe("Page introuvable");
    const english = await raw("GET", "/no/such/page", { "accept-language": "en-GB,en;q=0.8" });
    expect(heading(english.text)).toBe("Page not found");
    // The line is written once the answer is sent: it may come a moment after the answer.
    await expect
      .poll(() => linesAbout("/no/such/page"))
      .toEqual([requestLine("GET", "/no/such/page", 404), requestLine("GET", "/no/such/page", 404)]);
    expect(stackLines()).toEqual([]);
  });
});

describe("malformed requests", () => {
  it.each([
    ["a form posted as JSON", { "content-type": "application/json" }, '{"email":"a"}', 415],
    ["a form posted as text", { "content-type": "text/plain" }, "email=a", 415],
    ["a form posted as XML", { "content-type": "application/xml" }, "<email>a</email>", 415],
    ["multipart without a boundary", { "content-type": "multipart/form-data" }, "email=a", 415],
    ["multipart that does not parse", { "content-type": "multipart/form-data; boundary=zz" }, "--zz\r\ngarbage", 400],
    ["a gzip body", { ...formType, "content-encoding": "gzip" }, "email=a", 415],
    ["a NUL in a field", formType, "email=a%00b%40example.test&password=x&role=patient", 400],
    ["a form over 64 kB", formType, `email=${"a".repeat(70_000)}`, 413],
  ])("%s: a translated error page, one log line", async (_name, headers, body, status) => {
    app.clearLogs();
    const res = await raw("POST", "/login", { ...headers, cookie: "i18nextLng=fr" }, body);
    expect(res.status).toBe(status);
    expect(res.headers["content-type"]).toMatch(/text\/html/);
    expect(heading(res.text)).toMatch(/^Requête/);
    await expect.poll(() => app.logs()).toEqual([requestLine("POST", "/login", status)]);
  });

  it.each([
    ["a malformed escape in the path", "GET", "/%ZZ", 404],
    ["a malformed escape in a data request", "GET", "/health/%ZZ.data", 404],
    ["a NUL in a query", "GET", "/login?redirectTo=%00", 200],
    ["an unknown method", "PROPFIND", "/login", 405],
    ["a post to a page without a form", "POST", "/terms", 405],
  ])("%s: no 5xx, no stack trace", async (_name, method, path, status) => {
    app.clearLogs();
    const res = await raw(method, path);
    expect(res.status).toBe(status);
    expect(stackLines()).toEqual([]);
  });

  it.each([
    ["CR/LF", "/\r\nSet-Cookie: x=1"],
    ["U+2028", "/health\u2028x"],
    ["a bad escape", "/%ZZ"],
  ])("a language switch with %s in redirectTo is answered, not a 500", async (_name, redirectTo) => {
    const res = await raw("POST", "/language", formType, form({ lng: "fr", redirectTo }));
    expect(res.status).toBe(302);
    expect(res.headers["set-cookie"]?.join()).not.toMatch(/x=1/);
    expect(stackLines()).toEqual([]);
  });
});

describe("body limits", () => {
  const bigPost = (megabytes: number, announced: boolean) =>
    bigUpload(app.port, "/login", formType["content-type"], megabytes, { announced });

  it("refuses big form posts with 413 and the memory stays flat", async () => {
    await raw("GET", "/login");
    const before = app.rssBytes();
    const statuses = await Promise.all([
      bigPost(100, true),
      bigPost(100, true),
      bigPost(100, true),
      bigPost(100, true),
      bigPost(50, false),
      bigPost(50, false),
    ]);
    expect(statuses).toEqual([413, 413, 413, 413, 413, 413]);
    const grown = app.rssBytes() - before;
    // 500 MB were sent; before the limit the server buffered all of it (2.7 GB for 4 x 100 MB).
    expect(grown).toBeLessThan(100 * 1024 * 1024);
    expect((await fetch(`${app.url}/healthz`)).ok).toBe(true);
  });

  // A refusal closes the connection; closed at once, with upload bytes unread, it reset the
  // connection and a client that had not read yet lost the answer every time (http/lingering-close.ts).
  // Read after the 2 s linger too: a paused body left unread there was reset at its end.
  it.each([
    ["announced", true, 300],
    ["chunked", false, 300],
    ["chunked, read after the linger", false, 2_500],
  ])("a client still uploading (%s) when refused reads the 413", async (_name, announced, readAfterMs) => {
    expect(await bigUpload(app.port, "/login", formType["content-type"], 20, { announced, readAfterMs })).toBe(413);
  });
});

describe("redirects", () => {
  const attacks = [
    ["TAB", "/\t/evil.example"],
    ["backslash", "/\\evil.example"],
    ["backslash after a slash", "/\\/evil.example"],
    ["protocol-relative", "//evil.example"],
    ["CR/LF", "/\r\n/evil.example"],
    ["an absolute URL", "https://evil.example/"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["leading space", " //evil.example"],
  ];

  it.each(attacks)("after login, %s stays on this site", async (_name, redirectTo) => {
    const res = await raw(
      "POST",
      "/login",
      loginType,
      form({ email: "patient@example.com", password: "Demo1234!", role: "patient", redirectTo }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("/health/doctors");
  });

  it.each(attacks)("after a language switch, %s stays on this site", async (_name, redirectTo) => {
    const res = await raw("POST", "/language", formType, form({ lng: "en", redirectTo }));
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("/");
  });

  it("after login, a TAB in the login link's redirectTo stays on this site", async () => {
    const page = await raw("GET", "/login?redirectTo=/%09/evil.example");
    // The login form's own field (the language menu has one too, for the page itself).
    const fields = [...page.text.matchAll(/name="redirectTo" value="([^"]*)"/g)].map((m) => m[1]);
    const redirectTo = fields.find((value) => !value.startsWith("/login"));
    expect(redirectTo).toBe("/\t/evil.example");
    const res = await raw(
      "POST",
      "/login",
      loginType,
      form({ email: "patient@example.com", password: "Demo1234!", role: "patient", redirectTo: redirectTo! }),
    );
    expect(res.headers.location).toBe("/health/doctors");
  });

  it("follows a page of this site", async () => {
    const res = await raw("POST", "/language", formType, form({ lng: "en", redirectTo: "/health/doctors?name=Eto" }));
    expect(res.headers.location).toBe("/health/doctors?name=Eto");
  });
});

describe("signed-in pages", () => {
  it("send the user to log in and back to the page they asked for, even from a data request", async () => {
    const page = await raw("GET", "/health/doctors/my-appointments?tab=assigned");
    expect(page.status).toBe(302);
    expect(page.headers.location).toBe(
      `/login?redirectTo=${encodeURIComponent("/health/doctors/my-appointments?tab=assigned")}`,
    );
    const data = await raw(
      "GET",
      "/health/doctors/my-appointments.data?tab=assigned&_routes=routes%2Fhealth%2Fmy-appointments",
    );
    expect(data.text).toContain(
      `/login?redirectTo=${encodeURIComponent("/health/doctors/my-appointments?tab=assigned")}`,
    );
    expect(data.text).not.toContain(".data");
  });

  it("send the user to log in and back to the page when the API ends the session (an expired token)", async () => {
    const cookie = await patientSession("a-token-the-api-does-not-know");
    const back = `/login?redirectTo=${encodeURIComponent("/health/doctors/my-appointments?tab=assigned")}`;
    const page = await raw("GET", "/health/doctors/my-appointments?tab=assigned", { cookie });
    expect(page.status).toBe(302);
    expect(page.headers.location).toBe(back);
    expect(String(page.headers["set-cookie"])).toMatch(/__session=;/);
    const data = await raw(
      "GET",
      "/health/doctors/my-appointments.data?tab=assigned&_routes=routes%2Fhealth%2Fmy-appointments",
      { cookie },
    );
    expect(data.text).toContain(back);
  });

  it("are not stored by any cache, nor their data", async () => {
    const cookie = await logIn();
    for (const path of ["/health/doctors", "/health/doctors/my-appointments", "/health/doctors.data"]) {
      const res = await raw("GET", path, { cookie });
      expect(res.status, path).toBe(200);
      expect(res.headers["cache-control"], path).toBe("private, no-store");
    }
  });

  it("broken off by the client before the answer are not logged as server errors", async () => {
    const cookie = await logIn();
    // Broken off at every moment of the page's making, from its loaders to its rendering.
    let brokenOff = 0;
    for (let delay = 0; delay <= 60; delay += 4) {
      const answered = await new Promise<boolean>((resolve) => {
        const req = http.get(`${app.url}/health/doctors`, { headers: { cookie } }, (res) => {
          res.resume();
          res.on("end", () => resolve(true));
        });
        req.on("error", () => resolve(false));
        setTimeout(() => req.destroy(), delay);
      });
      if (!answered) brokenOff++;
    }
    expect(brokenOff).toBeGreaterThan(0);
    // Each broken-off page has finished by the time a later one is answered.
    await new Promise((r) => setTimeout(r, 500));
    expect((await raw("GET", "/health/doctors", { cookie })).status).toBe(200);
    expect(app.logs().filter((line) => /Unexpected Server Error|Error:/.test(line))).toEqual([]);
    expect(stackLines()).toEqual([]);
    // Each page that is not broken off is waited for whole: on a busy machine (CI runs a test file
    // per core) sixteen of them take longer than the default 30 s.
  }, 120_000);

  it("show the first page of a list for a page number that is not one, and the page asked for otherwise", async () => {
    const patient = await logIn();
    const doctor = await logIn("doctor@example.com", "doctor");
    const admin = await logIn("admin@example.com");
    const lists: [string, string][] = [
      ["/health/doctors", patient],
      ["/health/doctors/my-appointments", patient],
      ["/patient/profile/access", patient],
      ["/doctor/appointments", doctor],
      ["/doctor/appointments?tab=requests", doctor],
      ["/doctor/consultations", doctor],
      ["/admin", admin],
    ];
    for (const [list, cookie] of lists) {
      for (const page of ["1.5", "1e300", "99999999999999999999", "-2", "0", "abc", "%00", "2"]) {
        const path = `${list}${list.includes("?") ? "&" : "?"}page=${page}`;
        const res = await raw("GET", path, { cookie });
        expect(res.status, path).toBe(200);
      }
    }
    expect(stackLines()).toEqual([]);
  });

  it("answer 404 for an appointment or a consultation that does not exist", async () => {
    const cookie = await logIn();
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-an-id", "%E2%80%A8"]) {
      const res = await raw("GET", `/health/payment/${id}`, { cookie });
      expect(res.status, id).toBe(404);
      expect(heading(res.text)).toBe("Page not found");
    }
    const doctor = await raw(
      "POST",
      "/login",
      loginType,
      form({ email: "doctor@example.com", password: "Demo1234!", role: "doctor" }),
    );
    const doctorCookie = [doctor.headers["set-cookie"] ?? []]
      .flat()
      .find((c) => c.startsWith("__session="))!
      .split(";")[0];
    const print = await raw("GET", "/doctor/consultations/00000000-0000-4000-8000-000000000000/print", {
      cookie: doctorCookie,
    });
    expect(print.status).toBe(404);
    expect(stackLines()).toEqual([]);
  });
});

// Last: the log lines of these requests come a moment after their answers, and the tests above read the log.
describe("files of the build", () => {
  it("are served from the list made at start: the favicon and the assets, with their types and cache lifetimes", async () => {
    const favicon = await raw("GET", "/favicon.svg?v=1");
    expect(favicon.status).toBe(200);
    expect(favicon.headers["content-type"]).toMatch(/^image\/svg\+xml/);
    expect(favicon.headers["cache-control"]).toBe("public, max-age=3600");
    expect(favicon.text).toContain("<svg");
    const login = await raw("GET", "/login");
    const script = login.text.match(/\/assets\/[\w.-]+\.js/)?.[0];
    expect(script).toBeDefined();
    const asset = await raw("GET", script!);
    expect(asset.status).toBe(200);
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect((await raw("GET", "/favicon.svg/")).status).toBe(404);
  });

  it("are sent as the build's brotli or gzip copy the browser accepts, else as they are", async () => {
    const login = await raw("GET", "/login");
    // The largest script of the page: React, React Router and React DOM.
    const scripts = [...login.text.matchAll(/\/assets\/[\w.-]+\.js/g)].map((m) => m[0]);
    const sizes = await Promise.all(scripts.map(async (s) => ({ s, plain: await raw("GET", s) })));
    const { s: script, plain } = sizes.sort((a, b) => b.plain.body.length - a.plain.body.length)[0];
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toBe("Accept-Encoding");
    const brotli = await raw("GET", script, { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(brotli.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(brotli.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(brotli.headers["cross-origin-resource-policy"]).toBe("same-origin");
    expect(brotliDecompressSync(brotli.body).equals(plain.body)).toBe(true);
    // Compressed at brotli's highest level, not at the quick level a live answer uses.
    const live = brotliCompressSync(plain.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
    expect(brotli.body.length).toBeLessThan(live.length * 0.95);
    const gzip = await raw("GET", script, { "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    const css = login.text.match(/\/assets\/[\w.-]+\.css/)![0];
    const style = await raw("GET", css, { "accept-encoding": "br" });
    expect(style.headers["content-encoding"]).toBe("br");
    expect(style.headers["content-type"]).toMatch(/^text\/css/);
  });
});
