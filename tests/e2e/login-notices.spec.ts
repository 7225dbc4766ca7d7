// What the login page tells a user, once and clearly: 'Account verified' is a one-time flash (not
// an address that repeats it on every reload), and a browser that blocks cookies is told so
// instead of being silently sent back to the form after a correct login.
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { api, enterCode, newCode, PASSWORD, uniqueEmail, uniqueName } from "./doctor-helpers.ts";

/**
 * What a browser that blocks this site's cookies does: it keeps none, so it sends none back. Every
 * request goes out from the test without cookies, and the answer comes back without Set-Cookie.
 */
async function blockCookies(page: Page) {
  await page.route("**/*", async (route) => {
    const request = route.request();
    const headers = { ...request.headers() };
    delete headers.cookie;
    const answer = await fetch(request.url(), {
      method: request.method(),
      headers,
      body: request.postDataBuffer() ? new Uint8Array(request.postDataBuffer()!) : undefined,
      redirect: "manual",
    });
    const kept: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      // fetch has already inflated the body, and the cookies are what the browser refuses.
      if (!["set-cookie", "content-encoding", "content-length"].includes(name)) kept[name] = value;
    });
    await route.fulfill({ status: answer.status, headers: kept, body: Buffer.from(await answer.arrayBuffer()) });
  });
}

const VERIFIED = "Account verified successfully! You can now login.";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`the login page's notices (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("'Account verified' shows once, and not again on reload", async ({ page }) => {
      const email = uniqueEmail("verified");
      const registered = await api("POST", "/auth/register", {
        body: {
          username: uniqueName("Patient"),
          email,
          phone: "67" + String(Date.now()).slice(-7),
          password: PASSWORD,
          userRole: "patient",
        },
      });
      expect(registered.status).toBeLessThan(300);
      await page.goto(`/verification?userId=${registered.body.id}&email=${encodeURIComponent(email)}`);
      await enterCode(page, await newCode(email));
      await page.getByRole("button", { name: "Validate" }).click();
      await page.waitForURL(/\/login/);
      await expect(page.getByText(VERIFIED)).toHaveCount(1);
      await expect(page.getByLabel("Email")).toHaveValue(email);
      expect(new URL(page.url()).searchParams.has("verified")).toBe(false);

      await page.reload();
      await expect(page.getByRole("heading", { level: 1, name: "Log in" })).toBeVisible();
      await expect(page.getByText(VERIFIED)).toHaveCount(0);
    });

    test("with cookies blocked, a correct login says cookies are blocked", async ({ page, patient }) => {
      await blockCookies(page);
      await page.goto("/login");
      await page.getByRole("radio", { name: "Patient" }).check();
      await page.getByLabel("Email").fill(patient.email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      await expect(page.getByRole("alert")).toHaveText(
        "Your browser is blocking cookies for this site, so you could not stay logged in. Allow cookies for this site, then log in again.",
      );
      expect(new URL(page.url()).pathname).toBe("/login");
      await expect(page.getByLabel("Email")).toHaveValue(patient.email);
    });
  });
}

test.describe("with cookies blocked, in French on a phone", () => {
  test.use({ javaScriptEnabled: false, locale: "fr-FR", viewport: { width: 360, height: 740 } });

  test("the message is in French", async ({ page, patient }) => {
    await blockCookies(page);
    await page.goto("/login");
    await page.getByLabel("E-mail").fill(patient.email);
    await page.getByLabel("Mot de passe").fill(PASSWORD);
    await page.getByRole("button", { name: /^se connecter$/i }).click();
    await expect(page.getByRole("alert")).toHaveText(
      "Votre navigateur bloque les cookies de ce site : vous ne pourriez pas rester connecté. Autorisez les cookies pour ce site, puis reconnectez-vous.",
    );
  });
});
