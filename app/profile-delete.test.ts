// A patient's account deletion the API refuses (it fails, or cannot be reached): the profile comes
// back with the delete dialog still open and what happened inside it, in the user's language, not
// in a toast; nothing signs the patient out (docs/forms.md, A failed action says what happened).
// The API has no refusal a patient can provoke (the deletion needs only the session), so a fake
// upstream answers here, as app/upstream.test.ts does for the 503 page.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, patientSession, startWebServer, type WebServer } from "./test/web-server.ts";

let app: WebServer;
let upstream: http.Server;
let deletion: { status: number; body: string } = {
  status: 500,
  body: '{"message":"Internal error","code":"internal"}',
};
const deletions: string[] = [];

const PROFILE = {
  id: "00000000-0000-4000-8000-000000000001",
  username: "Test Patient",
  email: "test.patient@example.test",
  phone: null,
  gender: null,
  profession: null,
  address: null,
  avatarUrl: null,
  countryId: null,
  cityId: null,
  Country: null,
  City: null,
  createdAt: "2026-01-01T00:00:00.000Z",
};

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    const json = (status: number, body: string) =>
      res.writeHead(status, { "content-type": "application/json" }).end(body);
    if (req.method === "GET" && req.url === "/patient/me") return json(200, JSON.stringify(PROFILE));
    if (req.method === "DELETE" && req.url === "/auth/delete-account") {
      deletions.push(req.headers["idempotency-key"] as string);
      return json(deletion.status, deletion.body);
    }
    // The bell's summary and the rest: not needed by this page.
    return json(404, '{"message":"Not found","code":"not_found"}');
  });
  const port = await freePort();
  await new Promise<void>((resolve) => upstream.listen(port, "127.0.0.1", resolve));
  app = await startWebServer({ env: { API_URL: `http://127.0.0.1:${port}`, API_TIMEOUT_MS: "3000" } });
}, 180_000);

afterAll(async () => {
  await app?.stop();
  upstream?.closeAllConnections();
  await new Promise((resolve) => upstream?.close(resolve));
});

async function postDelete(language?: string) {
  const cookie = await patientSession("a-token-the-upstream-never-checks", language);
  return fetch(`${app.url}/patient/profile?delete=1`, {
    method: "POST",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "delete", idempotencyKey: crypto.randomUUID() }),
    redirect: "manual",
  });
}

/** The delete dialog's content, from its title to the end of its form. */
const dialogOf = (html: string) => html.match(/<div[^>]*role="dialog"[\s\S]*?<\/form>/)?.[0] ?? "";

const alertIn = (html: string) => dialogOf(html).match(/<div role="alert"[^>]*>([^<]*)<\/div>/)?.[1];

describe("a refused deletion of a patient's account", () => {
  it.each([
    {
      status: 500,
      en: "Your account could not be deleted: nothing was changed. Try again in a moment.",
      fr: "Votre compte n&#x27;a pas pu être supprimé : rien n&#x27;a changé. Réessayez dans un instant.",
    },
    {
      status: 429,
      en: "Too many requests from your connection. Please wait a few minutes and try again.",
      fr: undefined,
    },
  ])(
    "answer $status: the dialog stays open and says what happened, in English and French",
    async ({ status, en, fr }) => {
      deletion = {
        status,
        body: JSON.stringify({ message: "refused", code: status === 429 ? "rate_limited" : "internal" }),
      };
      deletions.length = 0;
      const english = await postDelete();
      // Not a redirect with a toast, not a sign-out: the same page, with the refusal's status.
      expect(english.status).toBeGreaterThanOrEqual(400);
      expect(english.headers.get("location")).toBeNull();
      expect(
        english.headers
          .getSetCookie()
          .some((c) => c.startsWith("__session=;") || /__session=[^;]*;.*Max-Age=0/i.test(c)),
      ).toBe(false);
      const page = await english.text();
      expect(dialogOf(page)).toContain("Delete your account?");
      expect(alertIn(page)).toBe(en);
      expect(dialogOf(page)).toContain("Delete my account");
      expect(deletions).toHaveLength(1);

      if (fr) {
        const french = await (await postDelete("fr")).text();
        expect(alertIn(french)).toBe(fr);
      }
    },
  );
});
