// The admin's queue of doctors awaiting verification: a decision another admin took first is said
// on that doctor's card, in words, and stays there (not a toast), in English and French, JavaScript
// off and on.
import type { Page } from "@playwright/test";
import { api } from "./doctor-helpers.ts";
import { type Account, expect, registerDoctor, test } from "./fixtures.ts";
import { checkA11y } from "./support.ts";

/** Registrations per /admin page (the API's default for this list). */
const PAGE_SIZE = 20;

/**
 * The page of the registrations in `status` that holds `doctorId` now (the queue is oldest first,
 * and other tests decide on theirs meanwhile).
 */
async function pageOf(admin: Account, doctorId: string, status = "pending") {
  for (let page = 1; ; page++) {
    const answer = await api("GET", `/admin/doctors?status=${status}&limit=${PAGE_SIZE}&page=${page}`, { token: admin.token });
    expect(answer.status).toBe(200);
    if (answer.body.doctors.some((d: { id: string }) => d.id === doctorId)) return page;
    if (page >= answer.body.totalPages) throw new Error(`${doctorId} is not ${status}`);
  }
}

/** The card of `name` on the admin's queue, opened on the page that holds it. */
async function cardOf(page: Page, admin: Account, doctor: { id: string; username: string }) {
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: doctor.username }) });
  await expect(async () => {
    await page.goto(`/admin?page=${await pageOf(admin, doctor.id)}`);
    await expect(card).toHaveCount(1, { timeout: 1_000 });
  }).toPass();
  return card;
}

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

for (const [language, javaScriptEnabled] of [["en", false], ["en", true], ["fr", false]] as const) {
  test.describe(`a decision another admin took first (${language}, JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled, language });

    test("approving a doctor already rejected in another tab says so on the card, and stays", async ({ page, admin, signIn }) => {
      if (javaScriptEnabled) await page.clock.install();
      const text = TEXT[language];
      const doctor = await registerDoctor();
      await signIn(admin);
      const card = await cardOf(page, admin, doctor);

      // Another admin (or this one, in another tab) rejects the registration meanwhile.
      const rejected = await api("POST", `/admin/doctors/${doctor.id}/reject`, { token: admin.token, body: { reason: "Serial number unknown" } });
      expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);

      await card.getByRole("form", { name: text.approve(doctor.username) }).getByRole("button", { name: text.button }).click();
      const alert = card.getByRole("alert");
      await expect(alert).toHaveText(text.alreadyDecided(doctor.username));
      // The card holds only what happened: nothing left to approve or reject.
      await expect(card.getByRole("button")).toHaveCount(0);
      // Not a toast that goes away: still there once a toast would have closed.
      if (javaScriptEnabled) await page.clock.runFor(10_000);
      await expect(alert).toBeVisible();
      await checkA11y(page);

      // The rejection stands: the approval did nothing.
      expect(await pageOf(admin, doctor.id, "rejected")).toBeGreaterThan(0);
    });
  });
}
