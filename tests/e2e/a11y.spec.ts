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

// All four pairs of language and JavaScript state: the same page differs in its words (names that
// must contain the visible label) and in what scripts add or replace (<noscript> content, dialogs
// opened in place). Each role's pages are visited once per pair, in one context.
const runs = [
  { language: "en", javaScriptEnabled: false },
  { language: "en", javaScriptEnabled: true },
  { language: "fr", javaScriptEnabled: false },
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
    const inside = (dialog: ReturnType<typeof page.getByRole>) => dialog.evaluate((d) => d.contains(document.activeElement));
    // The focusable controls of the dialog, in Tab order, as the dialog's own trap counts them.
    const edges = (dialog: ReturnType<typeof page.getByRole>) =>
      dialog.evaluate((d) => {
        const all = [...d.querySelectorAll<HTMLElement>('a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary')];
        const shown = all.filter((el) => el.getClientRects().length > 0);
        for (const [i, el] of shown.entries()) el.setAttribute("data-edge", String(i));
        return shown.length;
      });
    // Two dialogs, closed the two ways a keyboard user closes them: Escape, and the ✕ link.
    const cases = [
      { opener: page.getByRole("link", { name: "Request new appointment" }), dialog: page.getByRole("dialog", { name: "Request new appointment" }), close: "Escape" },
      { opener: page.getByRole("link", { name: /^Book an appointment with Dr\./ }).first(), dialog: page.getByRole("dialog"), close: "close link" },
    ];
    for (const { opener, dialog, close } of cases) {
      await opener.focus();
      await page.keyboard.press("Enter");
      await expect(dialog).toBeVisible();
      const count = await edges(dialog);
      expect(count, "the dialog has controls").toBeGreaterThan(1);
      // Tab from the last control comes back to the first; Shift+Tab from the first goes to the last.
      await dialog.locator(`[data-edge="${count - 1}"]`).focus();
      await page.keyboard.press("Tab");
      await expect(dialog.locator('[data-edge="0"]'), "Tab from the last control goes to the first").toBeFocused();
      await page.keyboard.press("Shift+Tab");
      await expect(dialog.locator(`[data-edge="${count - 1}"]`), "Shift+Tab from the first control goes to the last").toBeFocused();
      // And however far one tabs, the focus never reaches the page behind the overlay.
      for (let i = 0; i < count + 3; i++) {
        await page.keyboard.press("Tab");
        expect(await inside(dialog), `Tab ${i + 1} stays in the dialog`).toBe(true);
      }
      if (close === "Escape") await page.keyboard.press("Escape");
      else {
        await dialog.getByRole("link", { name: "Close" }).focus();
        await page.keyboard.press("Enter");
      }
      await expect(dialog).toHaveCount(0);
      await expect(opener, `closing with ${close} gives the focus back to the opener`).toBeFocused();
    }
  });
});
