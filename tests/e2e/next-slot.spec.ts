// A doctor's card in the search says when they can next be seen, and its booking dialog opens on
// that day; once that slot is booked the card moves on to the next; a day without a free slot says
// so in the dialog, and a day the doctor does not work says that instead (docs/product.md,
// Availability). In English and French, with JavaScript off and on, on the desktop and the phone.
import { api } from "./doctor-helpers.ts";
import { expect, test, type Account, type Language } from "./fixtures.ts";

const TEXT = {
  en: {
    next: "Next available:",
    at: "at",
    book: "Book an appointment with Dr.",
    confirm: "Book appointment",
    dayFull: "No free time on this day: choose another date.",
    dayNotWorked: "The doctor does not take appointments on this day.",
  },
  fr: {
    next: "Prochain créneau libre :",
    at: "à",
    book: "Réserver un rendez-vous avec le Dr",
    confirm: "Réserver le rendez-vous",
    dayFull: "Aucun créneau libre ce jour-là : choisissez une autre date.",
    dayNotWorked: "Le médecin ne prend pas de rendez-vous ce jour-là.",
  },
} satisfies Record<Language, Record<string, string>>;

const DAY = 86_400_000;
/** Cameroon's fixed public holidays (MM-DD), closed days of the clinic. */
const HOLIDAYS = ["01-01", "02-11", "05-01", "05-20", "08-15", "12-25"];
/** The first day from `from` (ms, default the day after tomorrow) whose weekday is `weekday` (0 Sunday), not a fixed holiday. */
function next(weekday: number, from = Date.now() + 2 * DAY): string {
  for (let day = from; ; day += DAY) {
    const date = new Date(day);
    const iso = date.toISOString().slice(0, 10);
    if (date.getUTCDay() === weekday && !HOLIDAYS.includes(iso.slice(5))) return iso;
  }
}

/** The doctor works on Wednesday afternoons only, at 14:00, from no notice to 90 days ahead. */
async function wednesdayAfternoonsOnly(doctor: Account) {
  const week = { monday: [], tuesday: [], wednesday: ["14:00"], thursday: [], friday: [], saturday: [], sunday: [] };
  const res = await api("PUT", "/doctor/working-plan", {
    token: doctor.token,
    body: { week, minimumNoticeHours: 0, bookingHorizonDays: 90 },
  });
  expect(res.status).toBe(200);
}

for (const language of ["en", "fr"] as const) {
  const text = TEXT[language];
  for (const javaScriptEnabled of [false, true]) {
    test.describe(`the search's next available slot (${language}, JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
      test.use({ javaScriptEnabled, language });

      test("the card shows the doctor's next free slot, and its dialog opens on that day", async ({
        page,
        patient,
        doctor,
        signIn,
      }) => {
        await wednesdayAfternoonsOnly(doctor);
        const wednesday = next(3);
        const shown = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeZone: "UTC" }).format(
          new Date(`${wednesday}T12:00:00Z`),
        );
        await signIn(patient);

        await test.step("search the doctor: the card says Wednesday at 14:00", async () => {
          await page.goto(`/health/doctors?search=${encodeURIComponent(doctor.username)}`);
          const card = page.getByRole("listitem").filter({ hasText: doctor.username });
          await expect(card).toHaveCount(1);
          await expect(card.getByText(`${text.next} ${shown} ${text.at} 14:00`)).toBeVisible();
        });

        await test.step("book from the card: the dialog is on that Wednesday, 14:00 the one time offered", async () => {
          const card = page.getByRole("listitem").filter({ hasText: doctor.username });
          await card.getByRole("link", { name: `${text.book} ${doctor.username}` }).click();
          const dialog = page.getByRole("dialog");
          await expect(dialog).toBeVisible();
          await expect(dialog.locator('input[type="date"]')).toHaveValue(wednesday);
          await expect(dialog.locator('input[name="time"]:not([disabled])')).toHaveCount(1);
          await expect(dialog.locator('input[name="time"][value="14:00"]')).toBeEnabled();
          await expect(dialog.getByText(text.dayFull)).toHaveCount(0);
        });

        await test.step("book that slot: the card moves on to the Wednesday after", async () => {
          const dialog = page.getByRole("dialog");
          await dialog.locator('input[name="type"][value="online"]').check();
          await dialog.locator('input[name="time"][value="14:00"]').check();
          await dialog.getByRole("button", { name: text.confirm, exact: true }).click();
          await expect(page.getByRole("dialog")).toHaveCount(0);
          await page.goto(`/health/doctors?search=${encodeURIComponent(doctor.username)}`);
          const weekAfter = new Date(`${next(3, Date.parse(`${wednesday}T12:00:00Z`) + DAY)}T12:00:00Z`);
          const card = page.getByRole("listitem").filter({ hasText: doctor.username });
          await expect(
            card.getByText(
              `${text.next} ${new Intl.DateTimeFormat(language, { dateStyle: "medium", timeZone: "UTC" }).format(weekAfter)} ${text.at} 14:00`,
            ),
          ).toBeVisible();
        });

        await test.step("the booked Wednesday says there is no free time that day", async () => {
          await page.goto(
            `/health/doctors?search=${encodeURIComponent(doctor.username)}&book=${doctor.id}&date=${wednesday}`,
          );
          const dialog = page.getByRole("dialog");
          await expect(dialog.getByText(text.dayFull)).toBeVisible();
          await expect(dialog.locator('input[name="time"][value="14:00"]')).toBeDisabled();
          await expect(dialog.locator('input[name="time"]:not([disabled])')).toHaveCount(0);
        });

        await test.step("a Saturday, which the doctor does not work, says so and offers no time", async () => {
          await page.goto(
            `/health/doctors?search=${encodeURIComponent(doctor.username)}&book=${doctor.id}&date=${next(6)}`,
          );
          const dialog = page.getByRole("dialog");
          await expect(dialog.getByText(text.dayNotWorked)).toBeVisible();
          await expect(dialog.getByText(text.dayFull)).toHaveCount(0);
          await expect(dialog.locator('input[name="time"]')).toHaveCount(0);
        });
      });
    });
  }
}
