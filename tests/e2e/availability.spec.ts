// The clinic's calendar from its screens (docs/product.md, Availability screens): a doctor changes
// the working week (its periods of work) and declares an absence on the Availability page, and the patient's book dialog
// follows it (a slot it no longer offers, posted by hand, is refused in words); an absence over a
// booked appointment lists it and, confirmed, cancels it; the admin adds and removes a closed day,
// and one over a booked appointment lists it and, confirmed, cancels it.
// Days are chosen from the clinic's today (APP_TIMEZONE), so the tests pass whatever day they run.
import type { Page } from "@playwright/test";
import { checkA11y } from "./support.ts";
import { api, signIn, signOut } from "./doctor-helpers.ts";
import { type Account, expect, type Language, mainMenu, test } from "./fixtures.ts";

const CLINIC_ZONE = "Africa/Douala";
const DAY_MS = 86_400_000;
const clinicDay = (at: number) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: CLINIC_ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    at,
  );
const weekdayOf = (day: string) => new Date(`${day}T12:00:00Z`).getUTCDay();
const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T12:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** Cameroon's fixed public holidays (MM-DD), closed days from the start (migration 0010). */
const FIXED_HOLIDAYS = ["01-01", "02-11", "05-01", "05-20", "08-15", "12-25"];

/** The clinic's closed days to come, which no day of a test may fall on (the fixed holidays among them). */
async function closedDays(admin: Account) {
  const answer = await api<{ closures: { date: string }[] }>("GET", "/admin/closures", { token: admin.token });
  expect(answer.status).toBe(200);
  return new Set(answer.body.closures.map((c) => c.date));
}

/**
 * The first day from `minDays` days after the clinic's today that is a `weekday` (0 Sunday ... 6
 * Saturday) and not a closed day: far enough for the minimum notice, well inside the horizon.
 */
function nextOpen(weekday: number, closed: Set<string>, minDays = 2) {
  for (let day = addDays(clinicDay(Date.now()), minDays); ; day = addDays(day, 1)) {
    if (weekdayOf(day) === weekday && !closed.has(day)) return day;
  }
}

const words = {
  en: {
    availability: "Availability",
    saturday: "Saturday",
    wednesday: "Wednesday",
    notice: "Minimum notice (hours)",
    noticeRange: "Minimum notice is a whole number of hours from 0 to 168",
    save: "Save working plan",
    saved: "Working plan saved",
    from: "From",
    to: "To",
    reason: "Reason (optional)",
    declare: "Declare absence",
    declared: "Absence declared",
    booked: (n: number) => `${n} appointment is booked from`,
    anyway: "Declare the absence and cancel this appointment",
    declaredCancelling: "Absence declared; the appointments in it were cancelled and their patients told",
    warning: /Nothing was saved\. Going ahead cancels this appointment for good/,
    bookedMany: (n: number) => `${n} appointments are booked from`,
    more: "And 1 more appointment after these.",
    keep: "Keep the appointments",
    tooMany: "You already have 100 absences to come, the most there can be. Remove one before declaring another.",
    notOffered: "The doctor does not take appointments at this time on this day.",
    away: "The doctor is away on this day.",
    closedDays: "Closed days",
    date: "Date",
    closureReason: "Reason",
    reasonRequired: "Reason is required",
    add: "Add closed day",
    added: "Closed day added",
    remove: (day: string) => new RegExp(`^Remove the closed day ${day}`),
    removed: "Closed day removed",
    bookedOn: (n: number, day: string) => `${n} appointment is booked on ${day}`,
    closeAnyway: "Close the day and cancel this appointment",
    addedCancelling: "Closed day added; the appointments on it were cancelled and their patients told",
    withDoctor: (patient: string, doctor: string) => `${patient} with Dr. ${doctor}`,
    yearList: "Closed days in the coming twelve months",
    allList: "Closed days to come",
    showLater: /^Show the later years \(\d+ more closed days\)$/,
    showYear: "Show the coming twelve months only",
    labourDay: "Labour Day",
    christmas: "Christmas",
    bookDialog: "Book an appointment",
    book: "Book appointment",
  },
  fr: {
    availability: "Disponibilités",
    saturday: "Samedi",
    wednesday: "Mercredi",
    notice: "Délai de prévenance (heures)",
    noticeRange: "Le délai de prévenance est un nombre entier d'heures de 0 à 168",
    save: "Enregistrer le planning",
    saved: "Planning de travail enregistré",
    from: "Du",
    to: "Au",
    reason: "Motif (facultatif)",
    declare: "Déclarer l'absence",
    declared: "Absence déclarée",
    booked: (n: number) => `${n} rendez-vous est réservé du`,
    anyway: "Déclarer l'absence et annuler ce rendez-vous",
    declaredCancelling: "Absence déclarée ; ses rendez-vous ont été annulés et leurs patients prévenus",
    warning: /Rien n'a été enregistré\. Continuer annule définitivement ce rendez-vous/,
    bookedMany: (n: number) => `${n} rendez-vous sont réservés du`,
    more: "Et 1 autre rendez-vous après ceux-ci.",
    keep: "Garder les rendez-vous",
    tooMany: "Vous avez déjà 100 absences à venir, le maximum. Retirez-en une avant d'en déclarer une autre.",
    notOffered: "Le médecin ne prend pas de rendez-vous à cette heure ce jour-là.",
    away: "Le médecin est absent ce jour-là.",
    closedDays: "Jours de fermeture",
    date: "Date",
    closureReason: "Motif",
    reasonRequired: "Le motif est obligatoire",
    add: "Ajouter le jour de fermeture",
    added: "Jour de fermeture ajouté",
    remove: (day: string) => new RegExp(`^Retirer le jour de fermeture du ${day}`),
    removed: "Jour de fermeture retiré",
    bookedOn: (n: number, day: string) => `${n} rendez-vous est réservé le ${day}`,
    closeAnyway: "Fermer ce jour et annuler ce rendez-vous",
    addedCancelling: "Jour de fermeture ajouté ; ses rendez-vous ont été annulés et leurs patients prévenus",
    withDoctor: (patient: string, doctor: string) => `${patient} avec le Dr ${doctor}`,
    yearList: "Jours de fermeture des douze prochains mois",
    allList: "Jours de fermeture à venir",
    showLater: /^Afficher les années suivantes \(\d+ autres jours de fermeture\)$/,
    showYear: "N'afficher que les douze prochains mois",
    labourDay: "Fête du Travail",
    christmas: "Noël",
    bookDialog: "Prendre rendez-vous",
    book: "Réserver le rendez-vous",
  },
} satisfies Record<Language, unknown>;

/**
 * A Sunday, which no doctor works by default, at a random distance within the twelve months the
 * Closed days page lists: parallel tests neither book it nor pick the same one.
 */
async function freeSunday(admin: Account) {
  const closed = await closedDays(admin);
  return nextOpen(0, closed, 30 + 7 * Math.floor(Math.random() * 44));
}

/** The admin's Closed days page, reached from the admin's menu. */
async function openClosedDays(page: Page, admin: Account, language: Language) {
  await signIn(page, admin.email, "admin");
  await (await mainMenu(page, language)).getByRole("link", { name: words[language].closedDays }).click();
  await expect(page.getByRole("heading", { level: 1, name: words[language].closedDays })).toBeVisible();
}

/** The patient books an online appointment with the doctor at `time` on `day`, through the API. */
async function book(patient: Account, doctor: Account, specialityId: number, day: string, time: string) {
  const booked = await api("POST", "/appointment", {
    token: patient.token,
    body: { doctorId: doctor.id, specialityId, type: "online", category: "direct", date: day, time },
  });
  expect(booked.status, JSON.stringify(booked.body)).toBe(201);
  return booked;
}

/** The day as the page writes it ('5 Dec 2026', '5 déc. 2026'). */
const shown = (day: string, language: Language) =>
  new Intl.DateTimeFormat(language, { dateStyle: "medium", timeZone: "UTC" }).format(new Date(`${day}T12:00:00Z`));

/** The doctor's Availability page, reached from the role's menu. */
async function openAvailability(page: Page, language: Language) {
  await (await mainMenu(page, language)).getByRole("link", { name: words[language].availability }).click();
  await expect(page.getByRole("heading", { level: 1, name: words[language].availability })).toBeVisible();
}

/** One end (from, to) of the n-th period of a weekday on the working plan's form, by its label. */
const periodLabel = {
  en: (day: string, n: number, end: "from" | "to") => `${day}, period ${n}: ${end === "from" ? "From" : "To"}`,
  fr: (day: string, n: number, end: "from" | "to") => `${day}, plage ${n} : ${end === "from" ? "De" : "À"}`,
};

/** The patient's book dialog with the doctor, on `day`: the slots of that day as radios. */
async function bookDialogOn(page: Page, doctor: Account, day: string, language: Language) {
  await page.goto(`/health/doctors?search=${encodeURIComponent(doctor.username)}&book=${doctor.id}&date=${day}`);
  const dialog = page.getByRole("dialog", { name: words[language].bookDialog });
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('input[type="date"]')).toHaveValue(day);
  return dialog;
}

/**
 * A booking posted by hand, as a browser would post the book dialog's form (its fields, and the
 * Origin header React Router checks on every action): the app's answer page, as text.
 */
async function postBooking(page: Page, doctor: Account, day: string, time: string) {
  const origin = new URL(page.url()).origin;
  const answer = await page.request.post(`/health/doctors?book=${doctor.id}&date=${day}`, {
    headers: { Origin: origin },
    form: {
      form: "book",
      doctorId: doctor.id,
      shownDate: day,
      idempotencyKey: crypto.randomUUID(),
      date: day,
      time,
      type: "online",
    },
    maxRedirects: 0,
  });
  return { status: answer.status(), text: await answer.text() };
}

for (const language of ["en", "fr"] as const) {
  for (const javaScriptEnabled of [false, true]) {
    const w = words[language];
    test.describe(`availability in ${language === "en" ? "English" : "French"} (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
      test.use({ javaScriptEnabled, language });

      test("a doctor's week and absence decide what the patient can book", async ({ page, doctor, patient, admin }) => {
        const closed = await closedDays(admin);
        const saturday = nextOpen(6, closed);
        const wednesday = nextOpen(3, closed);
        const away = nextOpen(4, closed);
        const periodField = (page: Page, day: string, n: number, end: "from" | "to") =>
          page.getByLabel(periodLabel[language](day, n, end), { exact: true });
        await signIn(page, doctor.email, "doctor");
        await openAvailability(page, language);
        await checkA11y(page);

        await test.step("add Saturday morning, remove Wednesday afternoon; a wrong notice keeps what was typed", async () => {
          await periodField(page, w.saturday, 1, "from").fill("09:00");
          await periodField(page, w.saturday, 1, "to").fill("12:00");
          await periodField(page, w.wednesday, 2, "from").fill("");
          await periodField(page, w.wednesday, 2, "to").fill("");
          await page.getByLabel(w.notice, { exact: true }).fill("999");
          await page.getByRole("button", { name: w.save }).click();
          await expect(page.getByText(w.noticeRange)).toBeVisible();
          await expect(page.getByLabel(w.notice, { exact: true })).toHaveAttribute("aria-invalid", "true");
          await expect(periodField(page, w.saturday, 1, "to")).toHaveValue("12:00");
          await expect(periodField(page, w.wednesday, 2, "from")).toHaveValue("");
          await page.getByLabel(w.notice, { exact: true }).fill("2");
          await page.getByRole("button", { name: w.save }).click();
          await expect(page.getByText(w.saved)).toBeVisible();
        });

        await test.step("the saved week is the one shown", async () => {
          await page.reload();
          await expect(periodField(page, w.saturday, 1, "from")).toHaveValue("09:00");
          await expect(periodField(page, w.saturday, 1, "to")).toHaveValue("12:00");
          await expect(periodField(page, w.saturday, 2, "from")).toHaveValue("");
          await expect(periodField(page, w.wednesday, 1, "to")).toHaveValue("12:00");
          await expect(periodField(page, w.wednesday, 2, "from")).toHaveValue("");
          const plan = await api("GET", "/doctor/working-plan", { token: doctor.token });
          expect(plan.body.week.saturday).toEqual(["09:00", "10:00", "11:00"]);
          expect(plan.body.week.wednesday).toEqual(["09:00", "10:00", "11:00"]);
        });

        await test.step("declare an absence", async () => {
          await page.getByLabel(w.from, { exact: true }).fill(away);
          await page.getByLabel(w.to, { exact: true }).fill(away);
          await page.getByLabel(w.reason, { exact: true }).fill("Conference");
          await page.getByRole("button", { name: w.declare }).click();
          await expect(page.getByText(w.declared, { exact: true })).toBeVisible();
          const absences = page.getByRole("list", { name: "Absences" });
          await expect(
            absences
              .getByRole("listitem")
              .filter({ hasText: shown(away, language) })
              .getByText("Conference"),
          ).toBeVisible();
          await checkA11y(page);
        });

        // The patient's own session, in the same language (signing out clears the language cookie too).
        const origin = new URL(page.url()).origin;
        await signOut(page);
        await page.context().addCookies([{ name: "i18nextLng", value: language, url: origin }]);
        await signIn(page, patient.email, "patient");

        await test.step("the book dialog offers Saturday morning and none of the removed slots", async () => {
          // The dialog offers the starts of the plan that day, and no other.
          let dialog = await bookDialogOn(page, doctor, saturday, language);
          for (const slot of ["09:00", "10:00", "11:00"])
            await expect(dialog.locator(`input[name="time"][value="${slot}"]`)).toBeEnabled();
          for (const slot of ["14:00", "15:00", "16:00"])
            await expect(dialog.locator(`input[name="time"][value="${slot}"]`)).toHaveCount(0);
          dialog = await bookDialogOn(page, doctor, wednesday, language);
          await expect(dialog.locator(`input[name="time"][value="09:00"]`)).toBeEnabled();
          for (const slot of ["14:00", "15:00", "16:00"])
            await expect(dialog.locator(`input[name="time"][value="${slot}"]`)).toHaveCount(0);
          dialog = await bookDialogOn(page, doctor, away, language);
          await expect(dialog.locator('input[name="time"]:not([disabled])')).toHaveCount(0);
        });

        await test.step("a slot posted by hand anyway is refused, in words", async () => {
          const afternoon = await postBooking(page, doctor, wednesday, "15:00");
          expect(afternoon.status).toBe(409);
          expect(afternoon.text).toContain(w.notOffered);
          const absent = await postBooking(page, doctor, away, "10:00");
          expect(absent.status).toBe(409);
          expect(absent.text).toContain(w.away);
        });

        await test.step("Saturday morning can be booked", async () => {
          const dialog = await bookDialogOn(page, doctor, saturday, language);
          await dialog.locator('input[name="type"][value="online"]').check();
          await dialog.locator('input[name="time"][value="10:00"]').check();
          await dialog.getByRole("button", { name: w.book }).click();
          await expect(page.getByRole("dialog")).toHaveCount(0);
          const list = await api("GET", "/appointment?limit=100", { token: patient.token });
          expect(list.body.appointments.map((a: { date: string }) => a.date)).toContain(saturday);
        });
      });

      test("an absence over a booked appointment lists it, and cancels it once confirmed", async ({
        page,
        doctor,
        patient,
        admin,
        generalPractice,
      }) => {
        const day = nextOpen(2, await closedDays(admin));
        const booked = await book(patient, doctor, generalPractice, day, "10:00");
        await signIn(page, doctor.email, "doctor");
        await openAvailability(page, language);

        await page.getByLabel(w.from, { exact: true }).fill(day);
        await page.getByLabel(w.to, { exact: true }).fill(addDays(day, 1));
        await page.getByRole("button", { name: w.declare }).click();
        const conflicts = page.getByRole("alert").filter({ hasText: w.booked(1) });
        await expect(conflicts).toBeVisible();
        await expect(conflicts.getByRole("listitem").filter({ hasText: shown(day, language) })).toContainText("10:00");
        await expect(conflicts.getByRole("listitem")).toContainText(patient.username);
        await expect(conflicts.getByText(w.warning)).toBeVisible();
        // Nothing was declared yet, and what was typed is still there.
        await expect(page.getByLabel(w.from, { exact: true })).toHaveValue(day);
        expect((await api("GET", "/doctor/absences", { token: doctor.token })).body.absences).toHaveLength(0);
        await checkA11y(page);

        await conflicts.getByRole("button", { name: w.anyway }).click();
        await expect(page.getByText(w.declaredCancelling)).toBeVisible();
        await expect(page.getByRole("list", { name: "Absences" }).getByRole("listitem")).toHaveCount(1);
        const list = await api("GET", "/appointment?limit=100", { token: patient.token });
        expect(list.body.appointments.find((a: { id: string }) => a.id === booked.body.id)?.status).toBe("cancelled");
      });

      test("an absence over more appointments than the list holds says how many more; kept, nothing changes", async ({
        page,
        doctor,
        patient,
        admin,
        generalPractice,
      }) => {
        // 51 appointments, six a day on the default plan: one more than the API lists.
        const closed = await closedDays(admin);
        const days: string[] = [];
        for (let day = addDays(clinicDay(Date.now()), 10); days.length < 9; day = addDays(day, 1)) {
          if (weekdayOf(day) % 6 !== 0 && !closed.has(day)) days.push(day);
        }
        const slots = days.flatMap((date) =>
          ["09:00", "10:00", "11:00", "14:00", "15:00", "16:00"].map((time) => ({ date, time })),
        );
        for (const { date, time } of slots.slice(0, 51)) await book(patient, doctor, generalPractice, date, time);
        await signIn(page, doctor.email, "doctor");
        await openAvailability(page, language);

        await page.getByLabel(w.from, { exact: true }).fill(days[0]);
        await page.getByLabel(w.to, { exact: true }).fill(days.at(-1)!);
        await page.getByRole("button", { name: w.declare }).click();
        const conflicts = page.getByRole("alert").filter({ hasText: w.bookedMany(51) });
        await expect(conflicts).toBeVisible();
        await expect(conflicts.getByRole("listitem")).toHaveCount(50);
        await expect(conflicts.getByText(w.more, { exact: true })).toBeVisible();
        await checkA11y(page);

        await conflicts.getByRole("link", { name: w.keep }).click();
        await expect(page.getByRole("alert").filter({ hasText: w.bookedMany(51) })).toHaveCount(0);
        expect((await api("GET", "/doctor/absences", { token: doctor.token })).body.absences).toHaveLength(0);
        const list = await api("GET", "/appointment?limit=100", { token: patient.token });
        expect(list.body.appointments.filter((a: { status: string }) => a.status === "pending")).toHaveLength(51);
      });

      test("a doctor with 100 absences to come is told to remove one first; nothing typed is lost", async ({
        page,
        doctor,
      }) => {
        const today = clinicDay(Date.now());
        for (let i = 0; i < 100; i++) {
          const day = addDays(today, 30 + i);
          const made = await api("POST", "/doctor/absences", { token: doctor.token, body: { from: day, to: day } });
          expect(made.status, JSON.stringify(made.body)).toBe(201);
        }
        await signIn(page, doctor.email, "doctor");
        await openAvailability(page, language);

        const day = addDays(today, 200);
        await page.getByLabel(w.from, { exact: true }).fill(day);
        await page.getByLabel(w.to, { exact: true }).fill(day);
        await page.getByLabel(w.reason, { exact: true }).fill("Congress");
        await page.getByRole("button", { name: w.declare }).click();
        await expect(page.getByText(w.tooMany)).toBeVisible();
        await expect(page.getByLabel(w.from, { exact: true })).toHaveValue(day);
        await expect(page.getByLabel(w.reason, { exact: true })).toHaveValue("Congress");
        expect((await api("GET", "/doctor/absences", { token: doctor.token })).body.absences).toHaveLength(100);
        await checkA11y(page);
      });

      test("the admin sees the coming twelve months of closed days, the later years on request, each in the page's language", async ({
        page,
        admin,
      }) => {
        // Other tests add and remove closed days meanwhile: the fixed holidays are what stays.
        const today = clinicDay(Date.now());
        const [y, m, d] = today.split("-").map(Number);
        const yearOn = addDays(new Date(Date.UTC(y + 1, m - 1, d)).toISOString().slice(0, 10), -1);
        const holidays = [...(await closedDays(admin))].filter((day) => FIXED_HOLIDAYS.includes(day.slice(5))).sort();
        const lastWithin = holidays.filter((day) => day <= yearOn).at(-1)!;
        const firstAfter = holidays.find((day) => day > yearOn)!;
        const labourDay = holidays.find((day) => day.endsWith("-05-01"))!;
        const other = language === "en" ? words.fr : words.en;
        await openClosedDays(page, admin, language);

        const year = page.getByRole("list", { name: w.yearList });
        const item = (day: string) => year.getByRole("listitem").filter({ hasText: shown(day, language) });
        await expect(item(lastWithin)).toHaveCount(1);
        await expect(item(firstAfter)).toHaveCount(0);
        await expect(item(labourDay)).toContainText(w.labourDay);
        await expect(item(labourDay)).not.toContainText(other.labourDay);
        await checkA11y(page);

        await page.getByRole("link", { name: w.showLater }).click();
        await expect(page).toHaveURL(/\/admin\/closures\?years=all$/);
        const every = page.getByRole("list", { name: w.allList });
        await expect(every.getByRole("listitem").filter({ hasText: shown(firstAfter, language) })).toHaveCount(1);
        const last = every.getByRole("listitem").filter({ hasText: shown("2036-12-25", language) });
        await expect(last).toContainText(w.christmas);
        await expect(last).not.toContainText(other.christmas);

        await page.getByRole("link", { name: w.showYear }).click();
        await expect(page).toHaveURL(/\/admin\/closures$/);
        await expect(item(lastWithin)).toHaveCount(1);
        await expect(item(firstAfter)).toHaveCount(0);
      });

      test("the admin adds and removes a closed day", async ({ page, admin }) => {
        const day = await freeSunday(admin);
        await openClosedDays(page, admin, language);

        await page.getByLabel(w.date, { exact: true }).fill(day);
        await page.getByRole("button", { name: w.add }).click();
        await expect(page.getByText(w.reasonRequired)).toBeVisible();
        await expect(page.getByLabel(w.date, { exact: true })).toHaveValue(day);
        await page.getByLabel(w.closureReason, { exact: true }).fill("Eid al-Fitr");
        await page.getByRole("button", { name: w.add }).click();
        await expect(page.getByText(w.added, { exact: true })).toBeVisible();
        const item = page
          .getByRole("listitem")
          .filter({ hasText: "Eid al-Fitr" })
          .filter({ hasText: shown(day, language) });
        await expect(item).toHaveCount(1);
        await checkA11y(page);

        await item.getByRole("button", { name: w.remove(shown(day, language)) }).click();
        await expect(page.getByText(w.removed)).toBeVisible();
        await expect(item).toHaveCount(0);
        expect(await closedDays(admin)).not.toContain(day);
      });

      test("a closed day over a booked appointment lists it, and cancels it once confirmed", async ({
        page,
        admin,
        doctor,
        patient,
        generalPractice,
      }) => {
        // This test's doctor alone works on Sundays, and books far ahead.
        const week = Object.fromEntries(
          ["monday", "tuesday", "wednesday", "thursday", "friday", "sunday"].map((d) => [
            d,
            ["09:00", "10:00", "11:00", "14:00", "15:00", "16:00"],
          ]),
        );
        const plan = await api("PUT", "/doctor/working-plan", {
          token: doctor.token,
          body: { week: { ...week, saturday: [] }, minimumNoticeHours: 2, bookingHorizonDays: 730 },
        });
        expect(plan.status, JSON.stringify(plan.body)).toBe(200);
        const day = await freeSunday(admin);
        const booked = await book(patient, doctor, generalPractice, day, "10:00");
        await openClosedDays(page, admin, language);

        await page.getByLabel(w.date, { exact: true }).fill(day);
        await page.getByLabel(w.closureReason, { exact: true }).fill("Eid al-Adha");
        await page.getByRole("button", { name: w.add }).click();
        const conflicts = page.getByRole("alert").filter({ hasText: w.bookedOn(1, shown(day, language)) });
        await expect(conflicts).toBeVisible();
        await expect(conflicts.getByRole("listitem")).toContainText(w.withDoctor(patient.username, doctor.username));
        await expect(conflicts.getByRole("listitem")).toContainText("10:00");
        expect(await closedDays(admin)).not.toContain(day);
        await checkA11y(page);

        await conflicts.getByRole("button", { name: w.closeAnyway }).click();
        await expect(page.getByText(w.addedCancelling)).toBeVisible();
        const closure = (await api("GET", "/admin/closures", { token: admin.token })).body.closures.find(
          (c: { date: string }) => c.date === day,
        );
        expect(closure?.reason).toBe("Eid al-Adha");
        const list = await api("GET", "/appointment?limit=100", { token: patient.token });
        expect(list.body.appointments.find((a: { id: string }) => a.id === booked.body.id)?.status).toBe("cancelled");
        // The Sunday is the clinic's again.
        expect((await api("DELETE", `/admin/closures/${closure.id}`, { token: admin.token })).status).toBe(200);
      });
    });
  }
}
