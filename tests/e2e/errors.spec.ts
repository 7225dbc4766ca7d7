// What a user sees when something is wrong, with JavaScript off and on (docs/errors.md): the
// not-found page in their language, still translated once the page's scripts run; a session that
// ends while browsing sends them to log in and back to the page they asked for; and after logging
// out, Back does not show the patient's pages from the browser's cache.
import { PASSWORD, signIn } from "./doctor-helpers.ts";
import { expect, mainMenu, test } from "./fixtures.ts";
import { checkA11y } from "./support.ts";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`errors (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("an unknown page says so in the user's language, with its status", async ({ page, context }) => {
      const english = await page.goto("/no/such/page");
      expect(english?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
      await expect(page.getByRole("link", { name: "Go to the home page" })).toBeVisible();
      await checkA11y(page);

      await context.addCookies([{ name: "i18nextLng", value: "fr", url: page.url() }]);
      const french = await page.goto("/no/such/page");
      expect(french?.status()).toBe(404);
      await expect(page.locator("html")).toHaveAttribute("lang", "fr");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page introuvable");
      await expect(page.getByText("Aller à l'accueil")).toBeVisible();
      // Once the page's scripts have run (hydration re-renders it in the browser), still no raw key.
      await page.waitForLoadState("networkidle");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page introuvable");
      await expect(page.locator("body")).not.toContainText("errors.");
    });

    test("a session that ends brings the patient back to the page they asked for after login", async ({
      page,
      context,
      patient,
    }) => {
      await signIn(page, patient.email, "patient");
      await page.waitForURL(/\/health\/doctors$/);

      // The session ends (the cookie is gone) while the page is open; the patient opens a menu item.
      await context.clearCookies({ name: "__session" });
      await (await mainMenu(page)).getByRole("link", { name: "My appointments" }).click();
      await page.waitForURL(/\/login\?/);
      const redirectTo = new URL(page.url()).searchParams.get("redirectTo");
      expect(redirectTo).toBe("/health/doctors/my-appointments");

      await page.getByRole("radio", { name: "Patient" }).check();
      await page.getByLabel("Email").fill(patient.email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      await page.waitForURL(/\/health\/doctors\/my-appointments$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("My appointments");
    });

    test("after logging out, Back does not show the patient's appointments", async ({ page, patient }) => {
      await signIn(page, patient.email, "patient");
      await page.waitForURL(/\/health\/doctors$/);
      const appointments = await page.goto("/health/doctors/my-appointments");
      expect(appointments?.headers()["cache-control"]).toBe("private, no-store");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("My appointments");

      await page.getByLabel("Account menu").click();
      await page.getByRole("button", { name: "Log out" }).click();
      await page.waitForURL(/\/login/);
      await page.goBack();
      await expect(page).toHaveURL(/\/login\?redirectTo=/);
      await expect(page.getByRole("heading", { level: 1, name: "My appointments" })).toHaveCount(0);
    });
  });
}
