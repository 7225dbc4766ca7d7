// A doctor with more consultation records than one page reaches every one of them by paging,
// without searching: Next, Previous and 'Page n of m', the same paging as every other list.
import { expect, test } from "./support.ts";
import { api, book, generalPractice, signIn } from "./doctor-helpers.ts";
import { newPatient, newVerifiedDoctor } from "./fixtures.ts";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`consultation pages (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("21 records: 20 on the first page, the oldest on the second", async ({ page, a11y }) => {
      const speciality = await generalPractice();
      const doctor = await newVerifiedDoctor(speciality);
      const patient = await newPatient();
      await book(patient, doctor.id, speciality);
      const start = Date.now() - 30 * 86_400_000;
      for (let i = 1; i <= 21; i++) {
        const created = await api("POST", "/consultation", {
          token: doctor.token,
          body: {
            patientId: patient.id,
            type: "consultation",
            diagnosis: `Diagnosis ${String(i).padStart(2, "0")}`,
            consultedAt: new Date(start + i * 3_600_000).toISOString(),
          },
        });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
      }
      await signIn(page, doctor.email, "doctor");

      await page.goto("/doctor/consultations");
      const records = page
        .getByRole("list", { name: "Consultations" })
        .getByRole("listitem")
        .filter({ hasText: "Diagnosis" });
      await expect(records).toHaveCount(20);
      await expect(page.getByText("Diagnosis 21")).toBeVisible();
      await expect(page.getByText("Diagnosis 01")).toHaveCount(0);
      await expect(page.getByText("Page 1 of 2")).toBeVisible();
      await a11y();

      await page.getByRole("link", { name: "Next" }).click();
      await expect(page).toHaveURL(/page=2/);
      await expect(page.getByText("Page 2 of 2")).toBeVisible();
      await expect(records).toHaveCount(1);
      await expect(page.getByText("Diagnosis 01")).toBeVisible();

      await test.step("the record of page 2 opens for editing from there", async () => {
        await page.getByRole("link", { name: `Edit record of ${patient.username}` }).click();
        await expect(page.getByRole("dialog").getByLabel("Diagnosis")).toHaveValue("Diagnosis 01");
      });

      await page.goto("/doctor/consultations?page=2");
      await page.getByRole("link", { name: "Previous" }).click();
      await expect(page.getByText("Page 1 of 2")).toBeVisible();
      await expect(records).toHaveCount(20);
    });
  });
}
