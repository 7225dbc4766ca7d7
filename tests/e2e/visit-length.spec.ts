// A doctor's own hours and visit length (docs/product.md, Availability screens), from the screens:
// the doctor sets 08:00-12:00 and 13:00-16:00 in 20-minute visits on the weekdays (Monday typed,
// then copied), sees the times before saving, and a patient's book dialog offers the 21 starts of a
// weekday in the parts of the day and books 08:40, which the doctor's list shows as 08:40–09:00. A
// wrong period is said beside its field in the page's language; shrinking a plan over a booked
// appointment lists it as outside the plan, with a link to move it.
import type { Page } from "@playwright/test";
import { api, signIn, signOut } from "./doctor-helpers.ts";
import { type Account, expect, type Language, mainMenu, test } from "./fixtures.ts";

const CLINIC_ZONE = "Africa/Douala";
const DAY_MS = 86_400_000;
const clinicDay = (at: number) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: CLINIC_ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    at,
  );
const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T12:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const weekdayOf = (day: string) => new Date(`${day}T12:00:00Z`).getUTCDay();

/** A Monday-to-Friday day from `minDays` days on that is no closed day of the clinic, at a random distance (parallel tests differ). */
async function openWeekday(admin: Account, minDays = 3) {
  const answer = await api<{ closures: { date: string }[] }>("GET", "/admin/closures", { token: admin.token });
  const closed = new Set(answer.body.closures.map((c) => c.date));
  for (let day = addDays(clinicDay(Date.now()), minDays + Math.floor(Math.random() * 40)); ; day = addDays(day, 1)) {
    if (weekdayOf(day) % 6 !== 0 && !closed.has(day)) return day;
  }
}

const words = {
  en: {
    availability: "Availability",
    visit: "Length of a visit (minutes)",
    field: (day: string, n: number, end: "from" | "to") => `${day}, period ${n}: ${end === "from" ? "From" : "To"}`,
    monday: "Monday",
    tuesday: "Tuesday",
    friday: "Friday",
    copy: "Copy Monday to Tuesday–Friday",
    show: "Show the times",
    save: "Save working plan",
    saved: "Working plan saved",
    preview:
      "21 visits: 08:00, 08:20, 08:40, 09:00, 09:20, 09:40, 10:00, 10:20, 10:40, 11:00, 11:20, 11:40, 13:00, 13:20, 13:40, 14:00, 14:20, 14:40, 15:00, 15:20, 15:40",
    toBeforeFrom: "The period must end after it starts",
    offGrid: "Times are on a 5-minute grid between 06:00 and 22:00 (08:00, 08:05, …)",
    outside: "1 upcoming appointment falls outside your plan",
    move: "Move",
    book: "Book appointment",
    bookDialog: "Book an appointment",
    morning: "Morning",
    afternoon: "Afternoon",
    reschedule: "Reschedule appointment",
  },
  fr: {
    availability: "Disponibilités",
    visit: "Durée d'une consultation (minutes)",
    field: (day: string, n: number, end: "from" | "to") => `${day}, plage ${n} : ${end === "from" ? "De" : "À"}`,
    monday: "Lundi",
    tuesday: "Mardi",
    friday: "Vendredi",
    copy: "Copier lundi sur mardi–vendredi",
    show: "Afficher les heures",
    save: "Enregistrer le planning",
    saved: "Planning de travail enregistré",
    preview:
      "21 consultations : 08:00, 08:20, 08:40, 09:00, 09:20, 09:40, 10:00, 10:20, 10:40, 11:00, 11:20, 11:40, 13:00, 13:20, 13:40, 14:00, 14:20, 14:40, 15:00, 15:20, 15:40",
    toBeforeFrom: "La plage doit finir après son début",
    offGrid: "Les heures vont de 5 en 5 minutes, entre 06:00 et 22:00 (08:00, 08:05, …)",
    outside: "1 rendez-vous à venir est hors de votre planning",
    move: "Déplacer",
    book: "Réserver le rendez-vous",
    bookDialog: "Prendre rendez-vous",
    morning: "Matin",
    afternoon: "Après-midi",
    reschedule: "Reprogrammer le rendez-vous",
  },
} satisfies Record<Language, unknown>;

/** The doctor's Availability page, reached from the role's menu. */
async function openAvailability(page: Page, language: Language) {
  await (await mainMenu(page, language)).getByRole("link", { name: words[language].availability }).click();
  await expect(page.getByRole("heading", { level: 1, name: words[language].availability })).toBeVisible();
}

/** One end of one period of a weekday, by its label. */
const periodField = (page: Page, language: Language, day: string, n: number, end: "from" | "to") =>
  page.getByLabel(words[language].field(day, n, end), { exact: true });

/** Types the periods of a day, row by row; "" empties a row. */
async function setPeriods(page: Page, language: Language, day: string, periods: [string, string][]) {
  for (const [i, [from, to]] of periods.entries()) {
    await periodField(page, language, day, i + 1, "from").fill(from);
    await periodField(page, language, day, i + 1, "to").fill(to);
  }
}

/** A day's fieldset on the plan form. */
const dayGroup = (page: Page, name: string) => page.getByRole("group", { name, exact: true });

for (const language of ["en", "fr"] as const) {
  for (const javaScriptEnabled of [false, true]) {
    const w = words[language];
    test.describe(`visit length in ${language === "en" ? "English" : "French"} (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
      test.use({ javaScriptEnabled, language });

      test(`a doctor's 20-minute weekdays are what a patient books${language === "fr" ? " in French" : ""}`, async ({
        page,
        doctor,
        patient,
        admin,
      }) => {
        const day = await openWeekday(admin);
        await signIn(page, doctor.email, "doctor");
        await openAvailability(page, language);

        await test.step("Monday: 08:00-12:00 and 13:00-16:00 in 20-minute visits, copied to Tuesday-Friday", async () => {
          await page.getByLabel(w.visit, { exact: true }).fill("20");
          await setPeriods(page, language, w.monday, [
            ["08:00", "12:00"],
            ["13:00", "16:00"],
          ]);
          await page.getByRole("button", { name: w.copy }).click();
          await expect(periodField(page, language, w.friday, 1, "from")).toHaveValue("08:00");
          await expect(periodField(page, language, w.friday, 2, "to")).toHaveValue("16:00");
          await expect(page.getByLabel(w.visit, { exact: true })).toHaveValue("20");
        });

        await test.step("the times show before saving", async () => {
          // Without JavaScript they follow 'Show the times'; with it, the typing.
          if (!javaScriptEnabled) await page.getByRole("button", { name: w.show }).click();
          await expect(dayGroup(page, w.tuesday).getByText(w.preview, { exact: true })).toBeVisible();
          expect((await api("GET", "/doctor/working-plan", { token: doctor.token })).body.visitMinutes).toBe(60);
        });

        await test.step("saved, the plan is the week of starts", async () => {
          await page.getByRole("button", { name: w.save }).click();
          await expect(page.getByText(w.saved)).toBeVisible();
          const plan = (await api("GET", "/doctor/working-plan", { token: doctor.token })).body;
          expect(plan.visitMinutes).toBe(20);
          for (const weekday of ["monday", "tuesday", "wednesday", "thursday", "friday"])
            expect(plan.week[weekday], weekday).toHaveLength(21);
          expect(plan.week.saturday).toEqual([]);
          await expect(periodField(page, language, w.monday, 2, "from")).toHaveValue("13:00");
        });

        const origin = new URL(page.url()).origin;
        await signOut(page);
        await page.context().addCookies([{ name: "i18nextLng", value: language, url: origin }]);
        await signIn(page, patient.email, "patient");

        await test.step("the book dialog offers the 21 starts, morning and afternoon, and books 08:40", async () => {
          await page.goto(
            `/health/doctors?search=${encodeURIComponent(doctor.username)}&book=${doctor.id}&date=${day}`,
          );
          const dialog = page.getByRole("dialog", { name: w.bookDialog });
          await expect(dialog.locator('input[name="time"]:not([disabled])')).toHaveCount(21);
          await expect(dialog.getByRole("group", { name: w.morning }).getByRole("radio")).toHaveCount(12);
          await expect(dialog.getByRole("group", { name: w.afternoon }).getByRole("radio")).toHaveCount(9);
          await dialog.locator('input[name="type"][value="online"]').check();
          await dialog.getByRole("radio", { name: "08:40" }).check();
          await dialog.getByRole("button", { name: w.book }).click();
          await expect(page.getByRole("dialog")).toHaveCount(0);
          const list = await api("GET", "/appointment?limit=100", { token: patient.token });
          const booked = list.body.appointments.find((a: { date: string }) => a.date === day);
          expect(booked?.time).toContain("T08:40");
          expect(booked?.endTime).toContain("T09:00");
        });

        await signOut(page);
        await page.context().addCookies([{ name: "i18nextLng", value: language, url: origin }]);
        await signIn(page, doctor.email, "doctor");

        await test.step("the doctor's list shows 08:40–09:00", async () => {
          await page.goto("/doctor/appointments");
          await expect(page.getByRole("listitem").filter({ hasText: patient.username })).toContainText("08:40–09:00");
        });
      });

      test("a wrong period is said beside its field; nothing is saved", async ({ page, doctor }) => {
        await signIn(page, doctor.email, "doctor");
        await openAvailability(page, language);
        await setPeriods(page, language, w.monday, [["12:00", "08:00"]]);
        await setPeriods(page, language, w.tuesday, [["08:03", "12:00"]]);
        await page.getByRole("button", { name: w.save }).click();
        const to = periodField(page, language, w.monday, 1, "to");
        await expect(to).toHaveAttribute("aria-invalid", "true");
        await expect(dayGroup(page, w.monday).getByText(w.toBeforeFrom, { exact: true })).toBeVisible();
        await expect(periodField(page, language, w.tuesday, 1, "from")).toHaveAttribute("aria-invalid", "true");
        await expect(dayGroup(page, w.tuesday).getByText(w.offGrid, { exact: true })).toBeVisible();
        // What was typed is still there, and the saved plan is the default one.
        await expect(periodField(page, language, w.tuesday, 1, "from")).toHaveValue("08:03");
        const plan = (await api("GET", "/doctor/working-plan", { token: doctor.token })).body;
        expect(plan.week.monday).toEqual(["09:00", "10:00", "11:00", "14:00", "15:00", "16:00"]);
      });

      test("a plan shrunk over a booked appointment lists it outside the plan, to move it", async ({
        page,
        doctor,
        patient,
        admin,
        generalPractice,
      }) => {
        const day = await openWeekday(admin);
        const booked = await api("POST", "/appointment", {
          token: patient.token,
          body: {
            doctorId: doctor.id,
            specialityId: generalPractice,
            type: "online",
            category: "direct",
            date: day,
            time: "16:00",
          },
        });
        expect(booked.status, JSON.stringify(booked.body)).toBe(201);
        await signIn(page, doctor.email, "doctor");
        await openAvailability(page, language);

        // Mornings only, Monday to Friday.
        await setPeriods(page, language, w.monday, [
          ["08:00", "12:00"],
          ["", ""],
        ]);
        await page.getByRole("button", { name: w.copy }).click();
        await expect(periodField(page, language, w.friday, 2, "from")).toHaveValue("");
        await page.getByRole("button", { name: w.save }).click();
        await expect(page.getByText(w.saved)).toBeVisible();

        const outside = page.getByRole("region", { name: w.outside });
        await expect(outside).toBeVisible();
        const item = outside.getByRole("listitem").filter({ hasText: patient.username });
        await expect(item).toContainText("16:00");
        // The booking stays.
        const seen = await api("GET", "/appointment?limit=100", { token: patient.token });
        expect(seen.body.appointments.find((a: { id: string }) => a.id === booked.body.id)?.status).toBe("pending");

        await item.getByRole("link", { name: new RegExp(`^${w.move}`) }).click();
        await expect(page.getByRole("dialog", { name: w.reschedule })).toBeVisible();
      });
    });
  }
}
