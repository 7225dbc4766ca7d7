// The admin's queue of doctors awaiting verification: every registration is reached page by page,
// forward and back; a decision another admin took first is said on that doctor's card, in words,
// and stays there (not a toast), in English and French. JavaScript off and on.
import { api } from "./doctor-helpers.ts";
import { randomUUID } from "node:crypto";
import { ADMIN_PAGE_SIZE, adminPageOf, expect, queueCard, registerDoctor, test } from "./fixtures.ts";
import { checkA11y } from "./support.ts";

const TEXT = {
  en: {
    approve: (name: string) => `Approve ${name}`,
    button: "Approve",
    alreadyDecided: (name: string) =>
      `Another admin decided on the registration of ${name} before you: nothing was done. It has left this list, and the doctor has been told of that decision.`,
  },
  fr: {
    approve: (name: string) => `Approuver ${name}`,
    button: "Approuver",
    alreadyDecided: (name: string) =>
      `Un autre administrateur a statué sur l'inscription de ${name} avant vous : rien n'a été fait. Elle a quitté cette liste, et le médecin a été informé de cette décision.`,
  },
};

for (const [language, javaScriptEnabled] of [
  ["en", false],
  ["en", true],
  ["fr", false],
] as const) {
  test.describe(`a decision another admin took first (${language}, JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled, language });

    test("approving a doctor already rejected in another tab says so on the card, and stays", async ({
      page,
      admin,
      signIn,
    }) => {
      if (javaScriptEnabled) await page.clock.install();
      const text = TEXT[language];
      const doctor = await registerDoctor();
      await signIn(admin);
      const card = await queueCard(page, admin, doctor.username);

      // Another admin (or this one, in another tab) rejects the registration meanwhile.
      const rejected = await api("POST", `/admin/doctors/${doctor.id}/reject`, {
        token: admin.token,
        body: { reason: "Serial number unknown" },
      });
      expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);

      await card
        .getByRole("form", { name: text.approve(doctor.username) })
        .getByRole("button", { name: text.button })
        .click();
      const alert = card.getByRole("alert");
      await expect(alert).toHaveText(text.alreadyDecided(doctor.username));
      // The card holds only what happened: nothing left to approve or reject.
      await expect(card.getByRole("button")).toHaveCount(0);
      // Not a toast that goes away: still there once a toast would have closed.
      if (javaScriptEnabled) await page.clock.runFor(10_000);
      await expect(alert).toBeVisible();
      await checkA11y(page);

      // The rejection stands: the approval did nothing.
      expect(await adminPageOf(admin, doctor.username, "rejected")).toBeGreaterThan(0);
    });
  });
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`the queue's pages (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });
    let cleanup: (() => Promise<void>) | undefined;
    test.afterEach(async () => {
      await cleanup?.();
      cleanup = undefined;
    });

    // Other tests add and decide on registrations meanwhile, so the queue is never assumed still:
    // this test's own registrations (more than a page) are looked for across the pages, and a pass
    // that missed one because the queue moved under it is walked again.
    test("every registration is reached by Next, and Previous leads back to the first page", async ({
      page,
      admin,
      signIn,
    }) => {
      test.setTimeout(180_000);
      const tag = `Queue ${randomUUID().slice(0, 6)}`;
      const made: { id: string; username: string }[] = [];
      // A few at a time: each registration hashes a password.
      for (let batch = 0; batch < 3; batch++) {
        made.push(
          ...(await Promise.all(
            Array.from({ length: 7 }, (_, i) =>
              registerDoctor({ username: `${tag} ${String(batch * 7 + i + 1).padStart(2, "0")}` }),
            ),
          )),
        );
      }
      const names = made.map((d) => d.username);
      expect(names.length).toBeGreaterThan(ADMIN_PAGE_SIZE);
      // Leave the queue as it was found, whatever happens: other specs look for their own registrations in it.
      cleanup = async () => {
        for (const { id } of made) await api("POST", `/admin/doctors/${id}/reject`, { token: admin.token, body: {} });
      };
      await signIn(admin);
      const pages = page.getByRole("navigation", { name: "Pages of doctors awaiting verification" });
      const mine = page.getByRole("heading", { level: 2, name: tag });

      let last = 1;
      await test.step("Next walks the queue to its last page, and every registration is on one of them", async () => {
        await expect(async () => {
          const seen = new Set<string>();
          await page.goto("/admin");
          await expect(pages.getByText(/^Page 1 of \d+$/)).toBeVisible({ timeout: 2_000 });
          for (let n = 1; ; n++) {
            await expect(page).toHaveURL(n === 1 ? /\/admin$/ : new RegExp(`/admin\\?page=${n}$`));
            for (const name of await mine.allTextContents()) seen.add(name);
            const next = pages.getByRole("link", { name: "Next" });
            if ((await next.count()) === 0) {
              last = n;
              break;
            }
            await next.click();
            await expect(pages.getByText(new RegExp(`^Page ${n + 1} of \\d+$`))).toBeVisible({ timeout: 2_000 });
          }
          expect(names.filter((name) => !seen.has(name))).toEqual([]);
        }).toPass({ timeout: 90_000 });
      });

      await test.step("Previous leads back page by page to the first", async () => {
        expect(last).toBeGreaterThan(1);
        await expect(pages.getByText(new RegExp(`^Page ${last} of \\d+$`))).toBeVisible();
        for (let n = last; n > 1; n--) {
          await pages.getByRole("link", { name: "Previous" }).click();
          await expect(pages.getByText(new RegExp(`^Page ${n - 1} of \\d+$`))).toBeVisible();
        }
        await expect(pages.getByRole("link", { name: "Previous" })).toHaveCount(0);
        await expect(pages.getByRole("link", { name: "Next" })).toBeVisible();
      });
    });
  });
}
