// A patient's booking limits on screen (docs/product.md, Booking limits): booking a second doctor at
// the start time of an appointment already held is refused, and the book dialog says why in the
// page's language. The limits per doctor and in all are the deployment's settings, which this
// suite's server lifts (tests/e2e/server.ts); the API tests hold them.
import { book } from "./doctor-helpers.ts";
import { expect, newVerifiedDoctor, test } from "./fixtures.ts";

const words = {
  en: {
    bookDialog: "Book an appointment",
    online: "Online",
    submit: "Book appointment",
    sameTime:
      "You already have an appointment at this time. Choose another time, or cancel the other appointment first.",
  },
  fr: {
    bookDialog: "Prendre rendez-vous",
    online: "En ligne",
    submit: "Réserver le rendez-vous",
    sameTime:
      "Vous avez déjà un rendez-vous à cette heure. Choisissez un autre horaire, ou annulez d'abord l'autre rendez-vous.",
  },
};

const variants = [
  { language: "fr", javaScriptEnabled: false },
  { language: "en", javaScriptEnabled: false },
  { language: "fr", javaScriptEnabled: true },
] as const;

for (const { language, javaScriptEnabled } of variants) {
  const w = words[language];
  test.describe(`booking limits in ${language === "en" ? "English" : "French"} (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled, language });

    test("a second doctor at the time of an appointment already held is refused, and the dialog says why", async ({
      page,
      patient,
      doctor,
      signIn,
      generalPractice,
    }) => {
      const other = await newVerifiedDoctor(generalPractice);
      const held = await book(patient, other.id, generalPractice);
      // The fixture doctor is free then: a new doctor with no appointment, on the same default plan.
      await signIn(patient);
      await page.goto(
        `/health/doctors?search=${encodeURIComponent(doctor.username)}&book=${doctor.id}&date=${held.date}`,
      );
      const dialog = page.getByRole("dialog", { name: w.bookDialog });
      await expect(dialog.locator('input[type="date"]')).toHaveValue(held.date);
      await dialog.getByRole("radio", { name: w.online }).check();
      await dialog.getByRole("radio", { name: held.time, exact: true }).check();
      await dialog.getByRole("button", { name: w.submit }).click();

      await expect(page.getByRole("dialog", { name: w.bookDialog }).getByText(w.sameTime)).toBeVisible();
      // Nothing was booked with the fixture doctor.
      await page.goto("/health/doctors/my-appointments?tab=assigned");
      await expect(page.getByRole("listitem").filter({ hasText: doctor.username })).toHaveCount(0);
      await expect(page.getByRole("listitem").filter({ hasText: other.username })).toHaveCount(1);
    });
  });
}
