// The patient home's counts say what they count: beside 'Confirmed appointments', the confirmed
// ones still to come; on the link to the full list, every appointment whatever its status. Never
// '1 appointment in all' beside 'You don't have any confirmed appointments scheduled'.
import { api, book, signIn } from "./doctor-helpers.ts";
import { expect, test } from "./fixtures.ts";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`the patient home's counts (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("a pending booking is counted in all, not as confirmed; once confirmed, in both", async ({
      page,
      patient,
      doctor,
      generalPractice,
    }) => {
      const booked = await book(patient, doctor.id, generalPractice);
      await signIn(page, patient.email, "patient");
      const confirmed = page.getByRole("region", { name: "Confirmed appointments" });

      await expect(confirmed.getByText("You don't have any confirmed appointments scheduled.")).toBeVisible();
      await expect(confirmed.getByRole("link", { name: "0 confirmed to come" })).toBeVisible();
      await expect(confirmed.getByRole("link", { name: "All my appointments, every status: 1" })).toBeVisible();

      expect(
        (await api("PUT", `/appointment/${booked.id}`, { token: doctor.token, body: { status: "confirmed" } })).status,
      ).toBe(200);
      await page.reload();
      await expect(confirmed.getByRole("link", { name: "1 confirmed to come" })).toBeVisible();
      await expect(confirmed.getByRole("link", { name: "All my appointments, every status: 1" })).toBeVisible();
      await confirmed.getByRole("link", { name: "1 confirmed to come" }).click();
      await expect(page.getByRole("list", { name: "Assigned to me" }).getByRole("listitem")).toHaveCount(1);
    });
  });
}

test.describe("the patient home's counts in French", () => {
  test.use({ javaScriptEnabled: false, language: "fr" });

  test("say what they count", async ({ page, patient, doctor, generalPractice }) => {
    await book(patient, doctor.id, generalPractice);
    await signIn(page, patient.email, "patient");
    const confirmed = page.getByRole("region", { name: "Rendez-vous confirmés" });
    await expect(confirmed.getByRole("link", { name: "0 confirmé à venir" })).toBeVisible();
    await expect(
      confirmed.getByRole("link", { name: "Tous mes rendez-vous, tous statuts confondus : 1" }),
    ).toBeVisible();
  });
});
