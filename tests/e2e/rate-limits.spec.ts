// Throttling as a user meets it: a flood from one connection gets a clear answer in the page's
// language, and someone guessing a patient's password from elsewhere does not lock the patient out.
// JavaScript off and on, English and French. The flood itself goes to the API from the page's own
// client address (the address the limits count, whichever way the request comes), with the last
// request before the limit sent through the page's form: only the answer is the user's to see.
import { api, PASSWORD } from "./doctor-helpers.ts";
import { createPatient } from "./fixtures.ts";
import { clientAddress, expect, test, uniqueEmail } from "./support.ts";

const TEXTS = {
  en: {
    email: "Email",
    password: "Password",
    login: "Log in",
    sendCode: "Send the code",
    tooManyLogins: "Too many attempts. Please try again later.",
    rateLimited: "Too many requests from your connection. Please wait a few minutes and try again.",
  },
  fr: {
    email: "E-mail",
    password: "Mot de passe",
    login: "Se connecter",
    sendCode: "Envoyer le code",
    tooManyLogins: "Trop de tentatives. Veuillez réessayer plus tard.",
    rateLimited: "Trop de demandes depuis votre connexion. Veuillez patienter quelques minutes avant de réessayer.",
  },
};

for (const javaScriptEnabled of [false, true]) {
  for (const language of ["en", "fr"] as const) {
    const t = TEXTS[language];
    test.describe(`throttling (${language}, JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
      test.use({ javaScriptEnabled, locale: language === "fr" ? "fr-FR" : "en-GB" });

      test("guessing a password from one connection is stopped there; the patient still logs in from home", async ({
        page,
        browser,
        extraHTTPHeaders,
      }) => {
        const patient = await createPatient();
        const from = extraHTTPHeaders!["x-forwarded-for"];
        const tryPassword = async (password: string) => {
          await page.goto("/login");
          await page.getByLabel(t.email).fill(patient.email);
          await page.getByLabel(t.password, { exact: true }).fill(password);
          await page.getByRole("button", { name: t.login, exact: true }).click();
        };
        // Five wrong passwords for the account from this connection (docs/throttling.md), the last
        // one typed in the page.
        for (let i = 0; i < 4; i++) {
          const answer = await api("POST", "/auth/login", {
            from,
            body: { email: patient.email, password: `Wrong${i}pass!`, role: "patient" },
          });
          expect(answer.status).toBe(401);
        }
        await tryPassword("Wrong4pass!");
        await expect(page.getByRole("alert")).toBeVisible();
        await tryPassword(PASSWORD);
        await expect(page.getByRole("alert")).toHaveText(t.tooManyLogins);

        // The patient, on another connection, is not held by the attacker's failures.
        const home = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": clientAddress() } });
        try {
          const own = await home.newPage();
          await own.goto("/login");
          await own.getByLabel(t.email).fill(patient.email);
          await own.getByLabel(t.password, { exact: true }).fill(PASSWORD);
          await own.getByRole("button", { name: t.login, exact: true }).click();
          await own.waitForURL(/\/health\/doctors$/);
        } finally {
          await home.close();
        }
      });

      test("a flood of reset-code requests from one connection gets a clear answer", async ({
        page,
        extraHTTPHeaders,
      }) => {
        const from = extraHTTPHeaders!["x-forwarded-for"];
        // Ten requests from this connection, the limit (docs/throttling.md), the last sent by the page.
        for (let i = 0; i < 9; i++) {
          expect(
            (await api("POST", "/auth/forgot-password", { from, body: { email: uniqueEmail("flood") } })).status,
          ).toBe(200);
        }
        await page.goto("/forgot-password");
        await page.getByLabel(t.email).fill(uniqueEmail("flood"));
        await page.getByRole("button", { name: t.sendCode }).click();
        await page.waitForURL(/\/reset-password/);
        await page.goto("/forgot-password");
        await page.getByLabel(t.email).fill(uniqueEmail("flood"));
        await page.getByRole("button", { name: t.sendCode }).click();
        await expect(page.getByRole("alert")).toHaveText(t.rateLimited);
        await expect(page).toHaveURL(/\/forgot-password/);
      });
    });
  }
}
