// A patient changes the date in the book dialog and books: the appointment is on the date the
// field shows, whether or not its times were reloaded first; a time taken on that date brings the
// dialog back on that date, asking for another time. Never the date shown before. In English and
// French, with JavaScript off and on, on the desktop and the phone (both projects). With JavaScript,
// a date typed key by key keeps the field, the type and what was typed; the times follow once the
// date is whole.
import type { Page } from "@playwright/test";
import { api, futureSlot, openDay } from "./doctor-helpers.ts";
import { createPatient, expect, test, type Account, type Language } from "./fixtures.ts";

const TEXT = {
  en: {
    showTimes: "Show available times",
    online: "Online",
    submit: "Book appointment",
    created: "Appointment created successfully!",
    taken: "This time slot has just been taken",
    cleared: "09:00 was chosen for",
  },
  fr: {
    showTimes: "Afficher les horaires disponibles",
    online: "En ligne",
    submit: "Réserver le rendez-vous",
    created: "Rendez-vous créé avec succès !",
    taken: "Ce créneau vient d'être pris",
    cleared: "09:00 avait été choisi pour le",
  },
} satisfies Record<Language, Record<string, string>>;

/** The patient's appointments with that doctor, as the API has them. */
async function booked(patient: Account, doctor: Account): Promise<{ date: string; type: string }[]> {
  const list = await api("GET", "/appointment?limit=100", { token: patient.token });
  return list.body.appointments.filter(
    (a: { doctorId: string; status: string }) => a.doctorId === doctor.id && a.status !== "cancelled",
  );
}

async function bookedDates(patient: Account, doctor: Account): Promise<string[]> {
  return (await booked(patient, doctor)).map((a) => a.date);
}

/**
 * The keys a person presses to type `date` into this browser's date field, in the order of its
 * segments: the browser's own format (month first in Chromium's en-US), whatever the page's language.
 */
async function dateKeys(page: Page, date: string) {
  const probe = await page.context().newPage();
  await probe.setContent('<input type="date" aria-label="probe">');
  await probe.getByLabel("probe").pressSequentially("01022030");
  const order = await probe.getByLabel("probe").inputValue();
  await probe.close();
  const [year, month, day] = date.split("-");
  if (order === "2030-01-02") return `${month}${day}${year}`;
  if (order === "2030-02-01") return `${day}${month}${year}`;
  throw new Error(`a date field whose segments come in an unknown order: 01022030 gave '${order}'`);
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

      test("a date changed without reloading the times is the date booked", async ({
        page,
        patient,
        doctor,
        signIn,
      }) => {
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

  test.describe(`a date typed key by key (${language}, JavaScript on)`, () => {
    test.use({ language });

    // Reported from Chromium and Firefox: once the month was typed the field held a whole date (the
    // 15th of the new month), the dialog reloaded for it and rebuilt its form, focus fell to the
    // page and the rest of the keys went nowhere: a patient who did not look booked the wrong day.
    test("keeps the field, what was typed and the type, and books the day typed", async ({
      page,
      patient,
      doctor,
      signIn,
    }) => {
      // Two days the default working plan offers, in other months and on other days of the month:
      // typed over the shown day, the month and the day change, so halfway the field holds another
      // whole date.
      let shown = openDay(5);
      let typed = openDay(35);
      while (shown.slice(5, 7) === typed.slice(5, 7) || shown.slice(8) === typed.slice(8)) {
        shown = openDay(5);
        typed = openDay(35);
      }
      // 09:00 is taken on the day typed: its time list must come in place of the shown day's.
      const other = await createPatient();
      const held = await api("POST", "/appointment", {
        token: other.token,
        body: {
          doctorId: doctor.id,
          type: "online",
          status: "pending",
          category: "direct",
          date: typed,
          time: "09:00",
        },
      });
      expect(held.status, JSON.stringify(held.body)).toBeLessThan(300);

      await signIn(patient);
      const dialog = await openDialogOn(page, doctor, shown);
      await expect(dialog.getByRole("button", { name: text.showTimes })).toHaveCount(0);
      await dialog.getByRole("radio", { name: text.online }).check();
      await dialog.getByRole("radio", { name: "09:00" }).check();

      const field = dialog.getByLabel("Date");
      await field.focus();
      await field.pressSequentially(await dateKeys(page, typed), { delay: 120 });

      await test.step("after a pause the times are the typed day's, and nothing else moved", async () => {
        await expect(page).toHaveURL(new RegExp(`date=${typed}`), { timeout: 15_000 });
        await expect(dialog.getByRole("radio", { name: "09:00" })).toBeDisabled();
        await expect(field).toBeFocused();
        await expect(field).toHaveValue(typed);
        await expect(dialog.getByRole("radio", { name: text.online })).toBeChecked();
        // The time chosen for the other day is gone, and the dialog says so.
        await expect(dialog.locator('input[name="time"]:checked')).toHaveCount(0);
        await expect(dialog.getByText(text.cleared)).toBeVisible();
      });

      await test.step("a time that day books that day, online", async () => {
        await dialog.getByRole("radio", { name: "10:00" }).check();
        await dialog.getByRole("button", { name: text.submit }).click();
        await expect(page.getByText(text.created)).toBeVisible();
        expect(await booked(patient, doctor)).toEqual([expect.objectContaining({ date: typed, type: "online" })]);
      });
    });
  });

  test.describe(`without JavaScript, a changed date whose time is taken (${language})`, () => {
    test.use({ javaScriptEnabled: false, language });

    test("comes back on the new date asking for another time, and books nothing", async ({
      page,
      patient,
      doctor,
      signIn,
    }) => {
      // Someone else takes 09:00 on the second day.
      const { first, second } = twoDays();
      const other = await createPatient();
      const held = await api("POST", "/appointment", {
        token: other.token,
        body: {
          doctorId: doctor.id,
          type: "online",
          status: "pending",
          category: "direct",
          date: second,
          time: "09:00",
        },
      });
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
