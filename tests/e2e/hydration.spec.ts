// Every page of every role hydrates over the server's HTML without a difference, on the production
// build with JavaScript on: no page error and no hydration error or warning on the console
// (watchPage in support.ts). A difference makes React render the page a second time in the browser;
// one stylesheet in the server's HTML and another in the browser's manifest failed every page so
// (app/app.css, tools/css-sources.test.ts). The layout walk loads the same pages on the phone for
// their layout; this loads them once, on the desktop, for their hydration.
import type { Page } from "@playwright/test";
import { buildWorld, pageAs, type Role, type World } from "./layout-support.ts";
import { expect, shownApplyButtons, test, watchPage } from "./support.ts";

let world: World;
test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  world = await buildWorld(browser);
});

/**
 * Waits until the page has hydrated: its scripts loaded and run, and (on a page with the language
 * menu) the menu's Apply button hidden, which an effect does once React has committed the hydrated
 * page, after it reported any difference (app/components/language-menu.tsx).
 */
async function hydrated(page: Page) {
  await page.waitForLoadState("networkidle");
  if ((await page.locator('select[name="lng"]').count()) > 0) await expect(shownApplyButtons(page)).toHaveCount(0);
}

test.use({ javaScriptEnabled: true });

const roles: Role[] = ["anonymous", "patient", "doctor", "pending", "admin", "receptionist"];
for (const language of ["en", "fr"] as const) {
  for (const role of roles) {
    test(`every ${role} page hydrates without an error or a difference (${language})`, async ({ browser, baseURL }) => {
      test.setTimeout(180_000);
      const page = await pageAs(browser, baseURL!, world, { role, language, javaScriptEnabled: true });
      const problems: string[] = [];
      watchPage(page, problems);
      try {
        for (const visit of world.pages[role]) {
          await test.step(visit.what, async () => {
            if (visit.path) await page.goto(visit.path);
            await hydrated(page);
            await visit.act?.(page);
            if (visit.shows) await expect(page.locator(visit.shows).first()).toBeVisible();
            await hydrated(page);
          });
        }
      } finally {
        await page.context().close();
      }
      expect(problems, problems.join("\n")).toEqual([]);
    });
  }
}
