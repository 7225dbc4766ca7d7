// A patient finds a doctor, books a slot in the book dialog, sees the appointment under
// 'Assigned to me' and cancels it; then the same journey in French.
import type { Page } from "@playwright/test";
import { checkA11y } from "./support.ts";
import { futureSlot, signIn } from "./doctor-helpers.ts";
import { DUTY_HOSPITAL, expect, test } from "./fixtures.ts";

/** Searches the doctor by name and opens their book dialog on a far, random day. */
async function openBookDialog(page: Page, name: string, search: RegExp, bookLabel: string) {
  await page.getByRole("searchbox").first().fill(name);
  await page.getByRole("button", { name: search }).click();
  await page.waitForURL(/search=/);
  const card = page.getByRole("listitem").filter({ hasText: name });
  await expect(card).toHaveCount(1);
  await card.getByRole("link", { name: bookLabel }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  const { date } = futureSlot();
  await dialog.locator('input[type="date"]').fill(date);
  // Without JavaScript the day's slots load with a button; with it, changing the date reloads them.
  const show = dialog.getByRole("button", { name: /Show available times|Afficher les horaires/ });
  if (await show.count()) await show.click();
  await page.waitForURL(new RegExp(`date=${date}`));
  return { dialog, date };
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`booking a doctor (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("search a doctor, book a slot, see it assigned, cancel it", async ({ page, patient, doctor }) => {
      const DOCTOR = doctor.username;
      await signIn(page, patient.email, "patient");

      await test.step("the dashboard welcomes the patient with no appointment yet", async () => {
        await expect(page).toHaveURL(/\/health\/doctors/);
        await expect(page.getByText(`Welcome back, ${patient.username}!`)).toBeVisible();
        await expect(page.getByText("You don't have any confirmed appointments scheduled.")).toBeVisible();
        await checkA11y(page);
      });

      let time = "";
      await test.step("search the doctor and open the book dialog", async () => {
        const { dialog } = await openBookDialog(page, DOCTOR, /^Search/, `Book an appointment with Dr. ${DOCTOR}`);
        // One money format, Intl's for the language: "FCFA 3,000" in English.
        await expect(dialog.getByText(/^FCFA\s3,000$/).first()).toBeVisible();
        await expect(dialog.getByRole("radio", { name: /^\d\d:\d\d$/ })).toHaveCount(6);
        await checkA11y(page);
      });

      await test.step("booking without a type is refused", async () => {
        const dialog = page.getByRole("dialog");
        await dialog.locator('input[name="time"]:not([disabled])').first().check();
        await dialog.getByRole("button", { name: "Book appointment" }).click();
        await expect(dialog.getByText("Type is required")).toBeVisible();
      });

      await test.step("book an online slot", async () => {
        const dialog = page.getByRole("dialog");
        await dialog.getByRole("radio", { name: "Online" }).check();
        const slot = dialog.locator('input[name="time"]:not([disabled])').first();
        await slot.check();
        time = await slot.inputValue();
        await dialog.getByRole("button", { name: "Book appointment" }).click();
        await expect(page.getByText("Appointment created successfully!")).toBeVisible();
        await expect(page.getByRole("dialog")).toHaveCount(0);
        const upcoming = page.getByRole("region", { name: "Your next appointment" });
        await expect(upcoming.getByText(`Dr. ${DOCTOR}`)).toBeVisible();
        await expect(upcoming.getByText("Online video")).toBeVisible();
        await expect(upcoming.getByText(DUTY_HOSPITAL)).toHaveCount(0);
      });

      await test.step("the appointment is listed under 'Assigned to me'", async () => {
        await page.goto("/health/doctors/my-appointments");
        await page.getByRole("link", { name: "Assigned to me" }).click();
        const item = page.getByRole("listitem").filter({ hasText: `Dr. ${DOCTOR}` });
        await expect(item).toHaveCount(1);
        await expect(item.getByText("Pending")).toBeVisible();
        await expect(item.getByText(time)).toBeVisible();
        await checkA11y(page);
      });

      await test.step("cancel it after the irreversible warning", async () => {
        await page.getByRole("link", { name: `Cancel: Dr. ${DOCTOR}` }).click();
        const dialog = page.getByRole("dialog");
        await expect(dialog.getByText(/Cancellation is irreversible/)).toBeVisible();
        await checkA11y(page);
        await dialog.getByRole("link", { name: "Keep Appointment" }).click();
        await expect(page.getByRole("dialog")).toHaveCount(0);
        await page.getByRole("link", { name: `Cancel: Dr. ${DOCTOR}` }).click();
        await page.getByRole("dialog").getByRole("button", { name: "Cancel Appointment" }).click();
        await expect(page.getByText("Appointment cancelled successfully!")).toBeVisible();
        const item = page.getByRole("listitem").filter({ hasText: `Dr. ${DOCTOR}` });
        await expect(item.getByText("Cancelled")).toBeVisible();
        await expect(item.getByRole("link", { name: /^Cancel/ })).toHaveCount(0);
      });
    });
  });

  test.describe(`booking a doctor in French (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled, language: "fr" });

    test("the booking journey in French", async ({ page, patient, doctor }) => {
      const DOCTOR = doctor.username;
      await signIn(page, patient.email, "patient");
      await expect(page.getByRole("heading", { level: 1, name: "Trouver un médecin" })).toBeVisible();
      await expect(page.getByText("Vous n'avez aucun rendez-vous confirmé.")).toBeVisible();
      await checkA11y(page);

      const { dialog } = await openBookDialog(
        page,
        DOCTOR,
        /^Rechercher/,
        `Réserver un rendez-vous avec le Dr ${DOCTOR}`,
      );
      await expect(dialog.getByRole("heading", { name: "Prendre rendez-vous" })).toBeVisible();
      await expect(dialog.getByText(/^3\s000\sFCFA$/).first()).toBeVisible();
      await checkA11y(page);
      await dialog.getByRole("radio", { name: "En présentiel" }).check();
      await dialog.locator('input[name="time"]:not([disabled])').first().check();
      await dialog.getByRole("button", { name: "Réserver le rendez-vous" }).click();
      await expect(page.getByText("Rendez-vous créé avec succès !")).toBeVisible();
      const upcoming = page.getByRole("region", { name: "Votre prochain rendez-vous" });
      await expect(upcoming.getByText(DUTY_HOSPITAL)).toBeVisible();

      await page.goto("/health/doctors/my-appointments?tab=assigned");
      await expect(page.getByRole("link", { name: "Attribués" })).toBeVisible();
      const item = page.getByRole("listitem").filter({ hasText: `Dr ${DOCTOR}` });
      await expect(item.getByText("En attente")).toBeVisible();
      await item.getByRole("link", { name: /^Annuler/ }).click();
      await expect(page.getByRole("dialog").getByText(/L'annulation est irréversible/)).toBeVisible();
      await checkA11y(page);
      await page.getByRole("dialog").getByRole("button", { name: "Annuler le rendez-vous" }).click();
      await expect(page.getByText("Rendez-vous annulé avec succès !")).toBeVisible();
    });
  });
}
