// The lists' search box (app/components/search-form.tsx): with JavaScript, typing submits once the
// typing pauses, and the box stays the user's: an answer that comes while they type more does not
// put back the older search, the focus stays in the box, and Enter sends the search once. What was
// typed before the page's scripts ran (a slow phone) stays in the box and is searched for.
import { expect, test } from "./fixtures.ts";
import { holdModule, shownApplyButtons } from "./support.ts";

test.describe("the search box of a list (JavaScript on)", () => {
  test.use({ javaScriptEnabled: true });

  test("submits after a pause, keeps what is typed meanwhile and the focus, and Enter sends once", async ({
    page,
    patient,
    signIn,
  }) => {
    await signIn(patient);
    const answers: string[] = [];
    let hold: Promise<void> | undefined;
    let release: () => void = () => {};
    await page.route(/\/health\/doctors\/my-appointments\.data/, async (route) => {
      const url = new URL(route.request().url());
      // The list's own data (the root's comes in a request of its own).
      if (url.searchParams.get("_routes")?.includes("my-appointments"))
        answers.push(url.searchParams.get("search") ?? "");
      if (hold) await hold;
      await route.continue().catch(() => {});
    });
    await page.goto("/health/doctors/my-appointments?tab=assigned");
    // Interactive: the language menu's Apply button is hidden once the scripts run.
    await expect(shownApplyButtons(page)).toHaveCount(0);
    const box = page.getByRole("searchbox", { name: "Search" });

    // A pause sends what was typed, without a click; the answer is held while the user types more.
    hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    await box.pressSequentially("ab");
    await expect.poll(() => answers).toEqual(["ab"]);
    await box.pressSequentially("cd ");
    hold = undefined;
    release();
    // The older search's answer did not put itself back in the box, nor take the focus from it.
    // (Whether the page shows it at all depends on when the second pause came: a slow machine's
    // typing makes the second search supersede it before it lands. Either way the box stays.)
    await expect(box).toHaveValue("abcd ");
    await expect(box).toBeFocused();
    await expect.poll(() => answers).toEqual(["ab", "abcd "]);
    await expect(page).toHaveURL(/search=abcd\+(&|$)/);
    await expect(box).toHaveValue("abcd ");

    // Enter right after typing sends the search once: the pause's submit is dropped.
    await box.pressSequentially("e");
    await box.press("Enter");
    await expect(page).toHaveURL(/search=abcd\+e/);
    // Longer than the pause: a second submit would have gone by now.
    await page.waitForTimeout(1_000);
    expect(answers).toEqual(["ab", "abcd ", "abcd e"]);
    await expect(box).toBeFocused();
  });

  test("what is typed before the page is interactive stays in the box and is searched for", async ({
    page,
    patient,
    signIn,
  }) => {
    await signIn(patient);
    const scripts = await holdModule(page, /\/assets\/[^/]+\.js$/);
    await page.goto("/health/doctors/my-appointments?tab=assigned", { waitUntil: "commit" });
    const box = page.getByRole("searchbox", { name: "Search" });
    await box.fill("derm");
    expect(scripts.asked).toBe(true);
    scripts.release();
    await expect(shownApplyButtons(page)).toHaveCount(0);
    await expect(box).toHaveValue("derm");
    await expect(page).toHaveURL(/search=derm(&|$)/);
    await expect(box).toHaveValue("derm");
  });
});
