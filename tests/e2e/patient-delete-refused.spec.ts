// A patient's account deletion the API refuses: the delete dialog stays open with what happened
// inside it, in the patient's language, the patient stays signed in and the account stays; once the
// API answers again, the same dialog deletes the account (docs/forms.md, A failed action says what
// happened). JavaScript off and on, English then French.
//
// The API refuses nothing a patient can provoke here (a deletion needs only the session, and
// cancels the patient's future appointments itself), but it can fail: its database down, a deploy
// under way. So the browser drives a web server of its own whose API is the test server's behind a
// relay that, while asked to, answers the deletion with the API's internal error; every other call
// reaches the real API.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import { startProductionApp } from "../../bench/support.ts";
import { api, apiLogin, PASSWORD } from "./doctor-helpers.ts";
import { expect, test } from "./fixtures.ts";

const API = process.env.E2E_API_URL ?? "http://127.0.0.1:3100/api";

/** Whether the relay answers DELETE /auth/delete-account with a failure (tests of a worker run one at a time). */
let failing = true;
let relay: http.Server;
let web: Awaited<ReturnType<typeof startProductionApp>>;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  relay = http.createServer((req, res) => {
    if (failing && req.method === "DELETE" && req.url === "/auth/delete-account") {
      req.resume();
      res.writeHead(500, { "content-type": "application/json" }).end('{"message":"Internal error","code":"internal"}');
      return;
    }
    const upstream = http.request(
      `${API}${req.url}`,
      { method: req.method, headers: { ...req.headers, host: new URL(API).host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  const relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
  // The web tier alone (no database, no demo seed of its own), in front of the relay.
  web = await startProductionApp({ env: { API_URL: relayUrl, DEMO: "", LOG_LEVEL: "warn" } });
});

test.afterAll(async () => {
  await web?.stop();
  relay?.closeAllConnections();
  await new Promise((resolve) => relay?.close(resolve));
});

/** Signs the page's context in on the relayed web server, through its login form posted over HTTP. */
async function signInThere(page: Page, email: string) {
  await page.context().addCookies([{ name: "cookie_check", value: "1", url: web.base }]);
  const answer = await page
    .context()
    .request.post(`${web.base}/login`, { form: { email, password: PASSWORD, role: "patient" }, maxRedirects: 0 });
  expect(answer.status()).toBe(302);
}

const words = {
  en: {
    title: "Delete your account?",
    confirm: "Delete my account",
    failed: "Your account could not be deleted: nothing was changed. Try again in a moment.",
    deleted: "Account deleted successfully",
  },
  fr: {
    title: "Supprimer votre compte ?",
    confirm: "Supprimer mon compte",
    failed: "Votre compte n'a pas pu être supprimé : rien n'a changé. Réessayez dans un instant.",
    deleted: "Compte supprimé avec succès",
  },
};

for (const javaScriptEnabled of [false, true]) {
  test.describe(`a patient's deletion the API refuses (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("keeps the dialog open with the reason, in English and French, and deletes once the API answers", async ({
      page,
      patient,
    }) => {
      failing = true;
      await signInThere(page, patient.email);
      for (const language of ["en", "fr"] as const) {
        await test.step(`refused, in ${language === "en" ? "English" : "French"}`, async () => {
          const w = words[language];
          await page.context().addCookies([{ name: "i18nextLng", value: language, url: web.base }]);
          await page.goto(`${web.base}/patient/profile?delete=1`);
          const dialog = page.getByRole("dialog", { name: w.title });
          await dialog.getByRole("button", { name: w.confirm }).click();
          await expect(dialog.getByRole("alert")).toHaveText(w.failed);
          // Still in the dialog, still signed in, the account still there.
          await expect(dialog.getByRole("button", { name: w.confirm })).toBeVisible();
          await expect(page).toHaveURL(/\/patient\/profile\?delete=1$/);
          await apiLogin(patient.email, "patient");
        });
      }

      await test.step("the API answers again: the same dialog deletes the account", async () => {
        failing = false;
        await page
          .getByRole("dialog", { name: words.fr.title })
          .getByRole("button", { name: words.fr.confirm })
          .click();
        await expect(page).toHaveURL(/\/login$/);
        await expect(page.getByText(words.fr.deleted)).toBeVisible();
        expect(
          (await api("POST", "/auth/login", { body: { email: patient.email, password: PASSWORD, role: "patient" } }))
            .status,
        ).toBe(401);
      });
    });
  });
}
