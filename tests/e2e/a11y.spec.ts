// Keyboard use (docs/layout.md): a skip link first; dialogs keep and give back the focus. axe-core
// on every page of every role and every dialog open, EN/FR and JavaScript on/off, is part of the
// walk in tests/e2e/layout.spec.ts, which measures the same page loads.
import { expect, test } from "./fixtures.ts";
import { shownApplyButtons } from "./support.ts";

test.describe("keyboard (JavaScript on)", () => {
  test.use({ javaScriptEnabled: true });

  test("the skip link is the first Tab stop and leads past the menus to the page", async ({
    page,
    patient,
    signIn,
  }) => {
    await signIn(patient);
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

  test("a dialog keeps the focus while open and gives it back on close", async ({ page, patient, signIn }) => {
    await signIn(patient);
    await page.goto("/health/doctors");
    // Hydrated first (the language menu's Apply button is hidden then): hydration disables the request's
    // submit until a speciality and a type are chosen, which would change the controls counted below.
    await expect(shownApplyButtons(page)).toHaveCount(0);
    const inside = (dialog: ReturnType<typeof page.getByRole>) =>
      dialog.evaluate((d) => d.contains(document.activeElement));
    // The focusable controls of the dialog, in Tab order, as the dialog's own trap counts them.
    const edges = (dialog: ReturnType<typeof page.getByRole>) =>
      dialog.evaluate((d) => {
        const all = [
          ...d.querySelectorAll<HTMLElement>(
            'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary',
          ),
        ];
        const shown = all.filter((el) => el.getClientRects().length > 0);
        for (const [i, el] of shown.entries()) el.setAttribute("data-edge", String(i));
        return shown.length;
      });
    // Two dialogs, closed the two ways a keyboard user closes them: Escape, and the ✕ link.
    const cases = [
      {
        opener: page.getByRole("link", { name: "Request new appointment" }),
        dialog: page.getByRole("dialog", { name: "Request new appointment" }),
        close: "Escape",
      },
      {
        opener: page.getByRole("link", { name: /^Book an appointment with Dr\./ }).first(),
        dialog: page.getByRole("dialog"),
        close: "close link",
      },
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
      await expect(
        dialog.locator(`[data-edge="${count - 1}"]`),
        "Shift+Tab from the first control goes to the last",
      ).toBeFocused();
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
