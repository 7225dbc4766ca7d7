// Accessibility of every page of every role and of every dialog open (docs/layout.md): axe-core
// clean (WCAG 2.2 AA, best practices, names that contain the visible label) in English and French,
// JavaScript on and off; ids unique on every page; a skip link first; dialogs keep and give back
// the focus.
import { checkA11y, expect, test } from "./support.ts";
import { buildWorld, pageAs, type World } from "./layout-support.ts";

let world: World;
test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  world = await buildWorld(browser);
});

// Each language and each JavaScript state once: English without JavaScript, French with it. All
// four pairs took about 25 minutes on the shared CI machine (axe without JavaScript analyses a copy
// of the page in a second context); the journeys run checkA11y in both states as well.
const runs = [
  { language: "en", javaScriptEnabled: false },
  { language: "fr", javaScriptEnabled: true },
] as const;

for (const { javaScriptEnabled, language } of runs) {
  test.describe(`accessibility (${language}, JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled, locale: language === "fr" ? "fr-FR" : "en-US" });

    for (const role of ["anonymous", "patient", "doctor", "admin"] as const) {
      test(`every ${role} page and dialog passes axe and has unique ids`, async ({ browser, baseURL }) => {
        test.setTimeout(240_000);
        const page = await pageAs(browser, baseURL!, world, { role, language, javaScriptEnabled });
        const problems: string[] = [];
        try {
          for (const visit of world.pages[role]) {
            await test.step(visit.what, async () => {
              await page.goto(visit.path);
              if (visit.dialog) await expect(page.getByRole("dialog"), `${visit.what} is open`).toBeVisible();
              const duplicates = await page.evaluate(() => {
                const seen = new Map<string, number>();
                for (const el of document.querySelectorAll("[id]")) seen.set(el.id, (seen.get(el.id) ?? 0) + 1);
                return [...seen].filter(([, n]) => n > 1).map(([id, n]) => `${id} (x${n})`);
              });
              if (duplicates.length) problems.push(`${visit.what} (${visit.path}): duplicate ids ${duplicates.join(", ")}`);
              try {
                await checkA11y(page, { thorough: true });
              } catch (error) {
                problems.push(`${visit.what} (${visit.path}): ${(error as Error).message.split("\n\n")[0]}`);
              }
            });
          }
        } finally {
          await page.context().close();
        }
        expect(problems, problems.join("\n")).toEqual([]);
      });
    }
  });
}

test.describe("keyboard (JavaScript on)", () => {
  test.use({ javaScriptEnabled: true });

  test("the skip link is the first Tab stop and leads past the menus to the page", async ({ page }) => {
    await page.context().addCookies(world.states.patient.cookies);
    await page.goto("/health/doctors");
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to main content" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    // The next stop is inside the page's content, not the top bar or the side menu.
    expect(await page.evaluate(() => !!document.activeElement?.closest("main"))).toBe(true);
  });

  test("a dialog keeps the focus while open and gives it back on close", async ({ page }) => {
    await page.context().addCookies(world.states.patient.cookies);
    await page.goto("/health/doctors");
    const opener = page.getByRole("link", { name: "Request new appointment" });
    await opener.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Request new appointment" });
    await expect(dialog).toBeVisible();
    // Far more Tab presses than the dialog has controls: the focus never leaves it, either way.
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press("Tab");
      expect(await dialog.evaluate((d) => d.contains(document.activeElement)), `Tab ${i + 1} stays in the dialog`).toBe(true);
    }
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press("Shift+Tab");
      expect(await dialog.evaluate((d) => d.contains(document.activeElement)), `Shift+Tab ${i + 1} stays in the dialog`).toBe(true);
    }
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(opener).toBeFocused();
  });
});
