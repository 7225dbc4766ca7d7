// /admin pages its queue like every other list (20 registrations a page, Previous / Next links that
// work without JavaScript): every doctor awaiting verification can be reached, and a decision taken
// on a later page comes back to that page.
import { randomUUID } from "node:crypto";
import { checkA11y, expect, test } from "./support.ts";
import { ADMIN, api, apiLogin, PASSWORD, signIn, uniqueEmail, uniqueName } from "./doctor-helpers.ts";

/** `n` doctor registrations awaiting verification (no code needed to be in the queue). */
async function registrations(n: number) {
  const made: { id: string; name: string }[] = [];
  for (let i = 0; i < n; i++) {
    const name = uniqueName("Queued Doctor");
    const registered = await api("POST", "/auth/register", {
      body: { username: name, email: uniqueEmail("queued"), contact: "+237 650 000 002", password: PASSWORD, serial_number: `MD-${randomUUID().slice(0, 6)}`, userRole: "doctor" },
    });
    expect(registered.status, JSON.stringify(registered.body)).toBeLessThan(300);
    made.push({ id: registered.body.id, name });
  }
  return made;
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`the admin's queue (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("more than a page of registrations: each is reached through the page links", async ({ page }) => {
      test.setTimeout(180_000);
      // More than one page whatever else is waiting; taken out of the queue again at the end, so
      // other tests find their own registrations on the first page.
      const queued = await registrations(21);
      const admin = await apiLogin(ADMIN, "admin");
      try {
        await signIn(page, ADMIN, "patient");
        await page.goto("/admin");
        const seen: string[] = [];
        const pages = page.getByRole("navigation", { name: "Pages of doctors awaiting verification" });
        await expect(pages.getByText(/^Page 1 of \d+$/)).toBeVisible();
        const total = Number((await pages.getByText(/^Page 1 of \d+$/).textContent())!.match(/of (\d+)/)![1]);
        expect(total).toBeGreaterThanOrEqual(2);
        await checkA11y(page);
        for (let n = 1; ; n++) {
          const headings = page.getByRole("main").getByRole("heading", { level: 2 });
          const count = await headings.count();
          expect(count, `page ${n} holds at most 20 registrations`).toBeLessThanOrEqual(20);
          seen.push(...(await headings.allTextContents()));
          if (n === total) break;
          await pages.getByRole("link", { name: "Next" }).click();
          await expect(pages.getByText(`Page ${n + 1} of ${total}`)).toBeVisible();
        }
        for (const { name } of queued) expect(seen.filter((s) => s === name), name).toHaveLength(1);

        // A decision on the last page comes back to it.
        const last = queued.at(-1)!;
        if (total > 1) {
          await page.getByRole("form", { name: `Reject ${last.name}` }).getByRole("button", { name: "Reject" }).click();
          await expect(page.getByText(`The registration of ${last.name} has been rejected`)).toBeVisible();
          await expect(page).toHaveURL(new RegExp(`/admin\\?page=${total}$`));
          await expect(page.getByRole("heading", { name: last.name })).toHaveCount(0);
        }
        await pages.getByRole("link", { name: "Previous" }).click();
        await expect(pages.getByText(`Page ${total - 1} of`)).toBeVisible();
      } finally {
        for (const { id } of queued) await api("POST", `/admin/doctors/${id}/reject`, { token: admin.token, body: {} });
      }
    });
  });
}
