// Dialogs whose code loads after the page is interactive (docs/decisions/0003-first-load-javascript-budget.md):
// a page opened with the dialog in its URL shows the server's dialog at once, keeps it while the
// dialog's module is still on its way, and enhances it once the module has arrived.
import { signIn } from "./doctor-helpers.ts";
import { expect, test } from "./fixtures.ts";

test.describe("a dialog opened by its URL (JavaScript on)", () => {
  test("the book dialog stays while its code loads, then reloads the times when the date changes", async ({ page, patient, doctor }) => {
    // Hold the dialog's module back (from the first page on, so no copy of it is in the cache).
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let requested = false;
    await page.route(/\/assets\/doctor-dialogs-[^/]+\.js$/, async (route) => {
      requested = true;
      await held;
      // The first page's request may have been cancelled by the navigation.
      await route.continue().catch(() => {});
    });

    await signIn(page, patient.email, "patient");
    requested = false;
    await page.goto(`/health/doctors?book=${doctor.id}`);
    const dialog = page.getByRole("dialog", { name: "Book an appointment" });
    await expect(dialog.getByText(`Dr. ${doctor.username}`)).toBeVisible();
    await expect(dialog).toBeVisible();
    // The module is asked for once the scripts run (it is not in the page's first load) and held:
    // the server's dialog, with its no-JavaScript button, is what the patient sees meanwhile.
    await expect.poll(() => requested).toBe(true);
    const show = dialog.getByRole("button", { name: "Show available times" });
    await expect(show).toBeVisible();

    release();
    // Hydrated: the button gives way to the enhancement, a date change reloads the times in place.
    await expect(show).toHaveCount(0);
    const date = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    await dialog.locator('input[type="date"]').fill(date);
    await page.waitForURL(new RegExp(`date=${date}`));
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("radio", { name: /^\d\d:\d\d$/ }).first()).toBeVisible();
  });

  test("the module is not part of the first load", async ({ page, patient }) => {
    await signIn(page, patient.email, "patient");
    const html = await (await page.request.get("/health/doctors")).text();
    expect(html).toMatch(/assets\/doctors-[^"]+\.js/);
    expect(html).not.toMatch(/doctor-dialogs-/);
    expect(html).not.toMatch(/assets\/conform-/);
  });
});
