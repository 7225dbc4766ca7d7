// A patient changes the date in the book dialog and books: the appointment is on the date the
// field shows, whether or not its times were reloaded first; a time taken on that date brings the
// dialog back on that date, asking for another time. Never the date shown before. In English and
// French, with JavaScript off and on, on the desktop and the phone (both projects).
import type { Page } from "@playwright/test";
import { api, futureSlot } from "./doctor-helpers.ts";
import { createPatient, expect, test, type Account, type Language } from "./fixtures.ts";

const TEXT = {
  en: { showTimes: "Show available times", online: "Online", submit: "Book appointment", created: "Appointment created successfully!", taken: "This time slot has just been taken" },
  fr: { showTimes: "Afficher les horaires disponibles", online: "En ligne", submit: "Réserver le rendez-vous", created: "Rendez-vous créé avec succès !", taken: "Ce créneau vient d'être pris" },
} satisfies Record<Language, Record<string, string>>;

/** The patient's appointments with that doctor, as the API has them. */
async function bookedDates(patient: Account, doctor: Account): Promise<string[]> {
  const list = await api("GET", "/appointment?limit=100", { token: patient.token });
  return list.body.appointments.filter((a: { doctorId: string; status: string }) => a.doctorId === doctor.id && a.status !== "cancelled").map((a: { date: string }) => a.date);
}

/** Two different future days (the doctor is the test's own: every slot is free). */
function twoDays() {
  const first = futureSlot(30).date;
  let second = futureSlot(30).date;
  while (second === first) second = futureSlot(30).date;
  return { first, second };
}

async function openDialogOn(page: Page, doctor: Account, date: string) {
  await page.goto(`/health/doctors?book=${doctor.id}&date=${date}`);
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByLabel("Date")).toHaveValue(date);
  return dialog;
}

for (const language of ["en", "fr"] as const) {
  const text = TEXT[language];
  for (const javaScriptEnabled of [false, true]) {
    test.describe(`the book dialog books the date it shows (${language}, JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
      test.use({ javaScriptEnabled, language });

      test("a date changed without reloading the times is the date booked", async ({ page, patient, doctor, signIn }) => {
        const { first, second } = twoDays();
        await signIn(patient);
        const dialog = await openDialogOn(page, doctor, first);

        await test.step("change the date, then choose a type and a time without pressing 'Show available times'", async () => {
          // Hydrated once the no-JavaScript button is gone; from then on a new date loads its times by itself.
          if (javaScriptEnabled) await expect(dialog.getByRole("button", { name: text.showTimes })).toHaveCount(0);
          await dialog.getByLabel("Date").fill(second);
          if (javaScriptEnabled) await page.waitForURL(new RegExp(`date=${second}`));
          await dialog.getByRole("radio", { name: text.online }).check();
          await dialog.locator('input[name="time"]:not([disabled])').first().check();
          await dialog.getByRole("button", { name: text.submit }).click();
          await expect(page.getByText(text.created)).toBeVisible();
        });

        await test.step("the appointment is on the date the field showed", async () => {
          expect(await bookedDates(patient, doctor)).toEqual([second]);
        });
      });
    });
  }

  test.describe(`without JavaScript, a changed date whose time is taken (${language})`, () => {
    test.use({ javaScriptEnabled: false, language });

    test("comes back on the new date asking for another time, and books nothing", async ({ page, patient, doctor, signIn }) => {
      // Someone else takes 09:00 on the second day.
      const { first, second } = twoDays();
      const other = await createPatient();
      const held = await api("POST", "/appointment", { token: other.token, body: { doctorId: doctor.id, type: "online", status: "pending", category: "direct", date: second, time: "09:00" } });
      expect(held.status, JSON.stringify(held.body)).toBeLessThan(300);

      await signIn(patient);
      const dialog = await openDialogOn(page, doctor, first);
      await dialog.getByRole("radio", { name: text.online }).check();
      await dialog.getByRole("radio", { name: "09:00" }).check();
      await dialog.getByLabel("Date").fill(second);
      await dialog.getByRole("button", { name: text.submit }).click();

      await expect(dialog.getByRole("alert")).toContainText(text.taken);
      await expect(dialog.getByLabel("Date")).toHaveValue(second);
      await expect(dialog.getByRole("radio", { name: "09:00" })).toBeDisabled();
      await expect(dialog.locator('input[name="time"]:checked')).toHaveCount(0);
      expect(await bookedDates(patient, doctor)).toEqual([]);

      await test.step("another time that day is then booked on that day", async () => {
        await dialog.getByRole("radio", { name: "10:00" }).check();
        await dialog.getByRole("button", { name: text.submit }).click();
        await expect(page.getByText(text.created)).toBeVisible();
        expect(await bookedDates(patient, doctor)).toEqual([second]);
      });
    });
  });
}
