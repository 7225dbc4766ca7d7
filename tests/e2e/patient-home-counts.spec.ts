// The patient home's counts say what they count: beside 'Confirmed appointments', the confirmed
// ones still to come; on the link to the full list, every appointment whatever its status. Never
// '1 appointment in all' beside 'You don't have any confirmed appointments scheduled'.
import { expect, test } from "./support.ts";
import { api, apiLogin, book, DEMO_DOCTOR, doctorId, generalPractice, PASSWORD, signIn } from "./doctor-helpers.ts";
import { freshPatient } from "./patient-helpers.ts";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`the patient home's counts (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("a pending booking is counted in all, not as confirmed; once confirmed, in both", async ({ page }) => {
      const patient = await freshPatient();
      const booked = await book(patient, await doctorId(DEMO_DOCTOR), await generalPractice());
      await signIn(page, patient.email, "patient");
      const confirmed = page.getByRole("region", { name: "Confirmed appointments" });

      await expect(confirmed.getByText("You don't have any confirmed appointments scheduled.")).toBeVisible();
      await expect(confirmed.getByRole("link", { name: "0 confirmed to come" })).toBeVisible();
      await expect(confirmed.getByRole("link", { name: "All my appointments, every status: 1" })).toBeVisible();

      const doctor = await apiLogin(DEMO_DOCTOR, "doctor");
      expect((await api("PUT", `/appointment/${booked.id}`, { token: doctor.token, body: { status: "confirmed" } })).status).toBe(200);
      await page.reload();
      await expect(confirmed.getByRole("link", { name: "1 confirmed to come" })).toBeVisible();
      await expect(confirmed.getByRole("link", { name: "All my appointments, every status: 1" })).toBeVisible();
      await confirmed.getByRole("link", { name: "1 confirmed to come" }).click();
      await expect(page.getByRole("list", { name: "Assigned to me" }).getByRole("listitem")).toHaveCount(1);
    });
  });
}

test.describe("the patient home's counts in French on a phone", () => {
  test.use({ javaScriptEnabled: false, locale: "fr-FR", viewport: { width: 360, height: 740 } });

  test("say what they count", async ({ page }) => {
    const patient = await freshPatient();
    await book(patient, await doctorId(DEMO_DOCTOR), await generalPractice());
    await page.goto("/login");
    await page.getByLabel("E-mail").fill(patient.email);
    await page.getByLabel("Mot de passe").fill(PASSWORD);
    await page.getByRole("button", { name: /^se connecter$/i }).click();
    const confirmed = page.getByRole("region", { name: "Rendez-vous confirmés" });
    await expect(confirmed.getByRole("link", { name: "0 confirmé à venir" })).toBeVisible();
    await expect(confirmed.getByRole("link", { name: "Tous mes rendez-vous, tous statuts confondus : 1" })).toBeVisible();
  });
});
