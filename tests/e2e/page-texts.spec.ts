// A page carries only the texts it shows (docs/decisions/0003-first-load-javascript-budget.md,
// app/page-texts.ts); the language's whole texts load once the page is interactive, and a
// navigation in the browser waits for them, so the next page never shows a key instead of a text.
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { holdModule, shownApplyButtons } from "./support.ts";

const textsFile = /\/assets\/(en|fr)-[\w-]+\.js$/;

for (const [language, login, register, doctorText] of [
  ["en", "Log in", "Create an account", "Book an appointment"],
  ["fr", "Connexion", "Créer un compte", "Prendre rendez-vous"],
] as const) {
  test.describe(`the page's texts (${language})`, () => {
    test.use({ language });

    test("the login page carries its own texts and not the rest of the language's", async ({ page }) => {
      const html = await (await page.request.get("/login")).text();
      const block = /<script type="application\/json" id="page-texts">([^<]*)<\/script>/.exec(html);
      expect(block, "the page's texts block").not.toBeNull();
      const texts = JSON.stringify(JSON.parse(block![1]!));
      expect(texts).toContain(JSON.stringify(login));
      // Another page's texts, and another role's, stay out of this page.
      expect(texts).not.toContain(JSON.stringify(register));
      expect(html).not.toContain(doctorText);
      // Nor does the router's data carry the language's texts any more.
      const routerData = html.match(/streamController\.enqueue\((.*?)\);<\/script>/s)?.[1];
      expect(routerData).toBeDefined();
      expect(routerData).not.toContain("resources");
    });

    test("a link to a page with other texts waits for the language's texts, then shows them", async ({ page }) => {
      const texts = await holdModule(page, textsFile);
      await page.goto("/login");
      await expect(page.getByRole("heading", { level: 1, name: login })).toBeVisible();
      // Not part of its first load, nor asked for once the page is interactive (the language menu's
      // Apply button hidden): at the user's first act, here the press on the link.
      await expect(shownApplyButtons(page)).toHaveCount(0);
      expect(texts.asked).toBe(false);

      const data = page.waitForRequest(/\/register\.data/, { timeout: 2_000 }).catch(() => null);
      await page.getByRole("link", { name: language === "en" ? "Register" : "S'inscrire" }).click();
      await expect.poll(() => texts.asked).toBe(true);
      // While the texts are on their way, the next page's data is not even asked for: no page
      // without its texts can show.
      expect(await data).toBeNull();
      await expect(page.getByRole("heading", { level: 1, name: login })).toBeVisible();

      texts.release();
      await page.waitForURL(/\/register$/);
      await expect(page.getByRole("heading", { level: 1, name: register })).toBeVisible();
      await expect(page.locator("main")).not.toContainText(/\b(register|fields|roles)\.[a-zA-Z]+/);
    });

    test("the skip link, used while the language's texts are on their way, moves within the page and never reloads it", async ({
      page,
    }) => {
      const texts = await holdModule(page, textsFile);
      const documentLoads: string[] = [];
      page.on("request", (request) => {
        if (request.isNavigationRequest()) documentLoads.push(new URL(request.url()).pathname);
      });
      await page.goto("/login");
      await expect(shownApplyButtons(page)).toHaveCount(0);
      const email = page.locator('input[name="identifier"]');
      await email.fill("someone@example.com");
      // Asked for at the user's first act (here the focus on the field), and held.
      await expect.poll(() => texts.asked).toBe(true);
      await page.locator('a[href="#main"]').focus();
      await page.keyboard.press("Enter");
      await page.waitForURL(/#main$/);
      const arrived = page.waitForResponse(textsFile);
      texts.release();
      await arrived;
      // The page stays the one the user typed in: no document was asked for again.
      await expect(email).toHaveValue("someone@example.com");
      expect(documentLoads).toEqual(["/login"]);
    });

    /**
     * Opens the login page with every load of the language's texts failing, and waits until the page
     * is interactive and its texts request (asked at the user's first act: here a focus on the
     * e-mail field) has failed: a click before that would be an ordinary page load, and pass whether
     * or not the fallback works. Gives how many loads failed so far.
     */
    async function openLoginWithoutTexts(page: Page) {
      let aborted = 0;
      await page.route(textsFile, (route) => {
        aborted++;
        return route.abort("connectionreset");
      });
      await page.goto("/login");
      await expect(page.getByRole("heading", { level: 1, name: login })).toBeVisible();
      await expect(shownApplyButtons(page)).toHaveCount(0);
      await page.locator('input[name="identifier"]').focus();
      await expect.poll(() => aborted).toBeGreaterThan(0);
      return () => aborted;
    }

    test("when the language's texts cannot be loaded (a flaky network), the next page comes whole from the server", async ({
      page,
    }) => {
      await openLoginWithoutTexts(page);
      const fromServer = page.waitForRequest((r) => r.isNavigationRequest() && /\/register$/.test(r.url()));
      await page.getByRole("link", { name: language === "en" ? "Register" : "S'inscrire" }).click();
      await fromServer;
      await page.waitForURL(/\/register$/);
      await expect(page.getByRole("heading", { level: 1, name: register })).toBeVisible();
      // Texts the login page did not carry: the page is not one of empty labels.
      await expect(
        page.getByText(
          language === "en" ? "Register as a patient to book appointments" : "Inscrivez-vous comme patient p",
        ),
      ).toBeVisible();
    });

    test("when the language's texts cannot be loaded, a form answered with errors keeps what was typed and shows the errors", async ({
      page,
    }) => {
      const aborted = await openLoginWithoutTexts(page);
      const documentLoads: string[] = [];
      page.on("request", (request) => {
        if (request.isNavigationRequest()) documentLoads.push(`${request.method()} ${new URL(request.url()).pathname}`);
      });
      const email = page.getByLabel(language === "en" ? "Email or phone number" : "E-mail ou numéro de téléphone", {
        exact: true,
      });
      await email.fill("nobody-here@example.com");
      await page
        .getByLabel(language === "en" ? "Password" : "Mot de passe", { exact: true })
        .fill("not-the-password-1");
      await page.getByRole("button", { name: language === "en" ? "Log in" : "Se connecter", exact: true }).click();
      // The answer's message is a text the page did not carry: shown in the browser it would be
      // empty. The form went to the server as it goes without JavaScript, once, and its answer
      // stays: no reload afterwards asks for the page again and drops the input and the message.
      await expect(page.getByRole("alert")).toHaveText(language === "en" ? "Login failed" : "Échec de la connexion");
      await expect(email).toHaveValue("nobody-here@example.com");
      // The texts were tried again on the way (the network may have come back).
      expect(aborted()).toBeGreaterThan(2);
      await page.waitForLoadState("networkidle");
      await expect(page.getByRole("alert")).toHaveText(language === "en" ? "Login failed" : "Échec de la connexion");
      expect(documentLoads).toEqual(["POST /login"]);

      // Sent again with the email left out: the server's page has the focus on the field to mend.
      await email.fill("");
      await page.getByRole("button", { name: language === "en" ? "Log in" : "Se connecter", exact: true }).click();
      await expect(
        page.getByText(
          language === "en"
            ? "Email or phone number is required"
            : "L'e-mail ou le numéro de téléphone est obligatoire",
        ),
      ).toBeVisible();
      await expect(email).toBeFocused();
      expect(documentLoads).toEqual(["POST /login", "POST /login"]);
    });
  });
}

for (const language of ["en", "fr"] as const) {
  test.describe(`hydration over the page's own texts (${language})`, () => {
    test.use({ language });

    test("signed-in pages hydrate without a difference and then show texts they did not carry", async ({
      page,
      patient,
      signIn,
    }) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(`${page.url()}: ${message.text()}`);
      });
      page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`));
      await signIn(patient);
      for (const path of ["/health/doctors", "/health/doctors/my-appointments", "/patient/profile"]) {
        await page.goto(path);
        // Hydrated, and the language's whole texts arrived (a difference is reported meanwhile).
        await page.waitForLoadState("networkidle");
        await expect(page.locator("main h1").first()).toBeVisible();
      }
      // The profile's edit form was not on the page: its texts come with the language's.
      await page.getByRole("link", { name: language === "en" ? "Edit" : "Modifier", exact: true }).click();
      await expect(page.getByRole("button", { name: language === "en" ? "Save" : "Enregistrer" })).toBeVisible();
      expect(errors).toEqual([]);
    });
  });
}

test("switching to a language whose texts cannot be loaded asks the page of the server, in that language", async ({
  page,
}) => {
  await page.route(/\/assets\/fr-[\w-]+\.js$/, (route) => route.abort("connectionreset"));
  const documentLoads: string[] = [];
  page.on("request", (request) => {
    if (request.isNavigationRequest()) documentLoads.push(`${request.method()} ${new URL(request.url()).pathname}`);
  });
  const english = page.waitForResponse(/\/assets\/en-[\w-]+\.js$/);
  await page.goto("/login");
  // Interactive (the language menu's Apply button hidden); the texts come at the first act, the focus.
  await expect(shownApplyButtons(page)).toHaveCount(0);
  const menu = page.getByRole("combobox", { name: "Language" }).first();
  await menu.focus();
  await english;
  await menu.selectOption("fr");
  await expect(page.getByRole("heading", { level: 1, name: "Connexion" })).toBeVisible();
  await expect(page.locator("main")).not.toContainText(/\b(auth|common)\.[a-zA-Z]+/);
  expect(documentLoads.filter((load) => load === "GET /login").length).toBeGreaterThan(1);
});
