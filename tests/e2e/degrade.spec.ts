// Enhancements degrade without errors (docs/layout.md): with storage blocked, with script files
// blocked, and under the CSP, every page stays a working form and the console stays clean.
import type { Page } from "@playwright/test";
import { expect, test } from "./support.ts";

/** Storage and CSP errors the page reports, including those a script catches and logs, and uncaught errors. */
async function watch(page: Page) {
  const seen: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && /Security|Storage|CSP|Content.Security/i.test(m.text()))
      seen.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => seen.push(`uncaught: ${e.message}`));
  // A violation inside a try/catch is still reported to the page as an event.
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) =>
      console.error(`CSP violation: ${e.violatedDirective} ${e.sourceFile ?? ""}`),
    );
  });
  return seen;
}

test.describe("enhancements degrade (JavaScript on)", () => {
  test.use({ javaScriptEnabled: true });

  test("with storage blocked, pages load and navigate without an error", async ({ page }) => {
    const seen = await watch(page);
    // What a browser that blocks site data does: every access to the storages throws.
    await page.addInitScript(() => {
      for (const name of ["sessionStorage", "localStorage"]) {
        Object.defineProperty(window, name, {
          configurable: true,
          get() {
            throw new DOMException(`Access to '${name}' is denied for this document.`, "SecurityError");
          },
        });
      }
    });
    await page.goto("/login");
    await page.getByRole("link", { name: "Register" }).click();
    await expect(page).toHaveURL(/\/register/);
    await page.goBack();
    await expect(page).toHaveURL(/\/login/);
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(seen, seen.join("\n")).toEqual([]);
  });

  test("form validation runs in the browser without tripping the CSP", async ({ page }) => {
    const seen = await watch(page);
    await page.goto("/login");
    const email = page.getByLabel("Email");
    // The browser validates once the page is interactive and has its texts: retry until it answers.
    await expect(async () => {
      await email.fill("not-an-email");
      await email.blur();
      await expect(email).toHaveAttribute("aria-invalid", "true", { timeout: 1_000 });
    }).toPass();
    await page.getByLabel("Password", { exact: true }).fill("x");
    await page.getByLabel("Password", { exact: true }).blur();
    expect(seen, seen.join("\n")).toEqual([]);
  });

  test("with script files blocked by policy, the language can still be changed", async ({ page }) => {
    // The page's own inline scripts run, its script files never arrive (a proxy or an extension).
    await page.route(/\.js(\?|$)/, (route) => route.abort("blockedbyclient"));
    await page.goto("/login");
    await page.getByLabel("Language").selectOption("fr");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Connexion");
  });
});
