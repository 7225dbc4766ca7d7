// Consultation records: create one for a patient of the doctor, find it by search, edit it and
// export it as a print-ready page. Also the dashboard and its printable schedule.
import { checkA11y } from "./support.ts";
import { book, uniqueName } from "./doctor-helpers.ts";
import { expect, test } from "./fixtures.ts";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`consultations (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("create, search, edit and export a consultation", async ({
      page,
      patient,
      doctor,
      generalPractice,
      signIn,
    }) => {
      await book(patient, doctor.id, generalPractice);
      const diagnosis = uniqueName("Malaria");
      await signIn(doctor);

      await test.step("the dashboard shows counters and today's sessions", async () => {
        await page.goto("/doctor/dashboard");
        await expect(page.getByText("Upcoming appointments")).toBeVisible();
        await expect(page.getByRole("heading", { name: /Morning session/ })).toBeVisible();
        await expect(page.getByRole("heading", { name: /Afternoon session/ })).toBeVisible();
        await checkA11y(page);
        await page.getByRole("link", { name: "Print-friendly version" }).click();
        await expect(page.getByText("Use your browser's Print command")).toBeVisible();
        await checkA11y(page);
      });

      await test.step("the doctor records a new consultation", async () => {
        await page.goto("/doctor/consultations");
        await expect(page.getByRole("heading", { level: 1, name: "Consultations" })).toBeVisible();
        await expect(page.getByText("Time zone: West Africa Time (UTC+1)")).toBeVisible();
        await page.getByRole("link", { name: "New Consultation" }).click();
        const dialog = page.getByRole("dialog", { name: "New Consultation" });
        await dialog.getByLabel("Patient Name").selectOption({ label: patient.username });
        await dialog.getByLabel("Consultation Type").selectOption("follow-up");
        await dialog.getByLabel("Diagnosis").fill(diagnosis);
        await dialog.getByLabel("Consultation Notes").fill("Fever for three days.");
        await dialog.getByLabel("Prescription & Recommendations").fill("Artemether 80 mg\nRest and fluids");
        await checkA11y(page);
        await dialog.getByRole("button", { name: "Save Consultation" }).click();
        await expect(page.getByText("Consultation saved")).toBeVisible();
      });

      await test.step("the search finds it by diagnosis, and More shows the prescription", async () => {
        await page.getByRole("searchbox", { name: "Search consultations" }).fill(diagnosis.toLowerCase());
        await page.getByRole("button", { name: "Search" }).click();
        const card = page.getByRole("listitem").filter({ hasText: diagnosis });
        await expect(card).toHaveCount(1);
        await card.getByText("More").click();
        await expect(card.getByText("Artemether 80 mg")).toBeVisible();
        await expect(card.getByText("Less")).toBeVisible();
        await checkA11y(page);
        await page.goto("/doctor/consultations?search=no-such-diagnosis-anywhere");
        await expect(page.getByText("No consultations found matching your search.")).toBeVisible();
      });

      await test.step("the doctor edits the record", async () => {
        await page.goto(`/doctor/consultations?search=${encodeURIComponent(diagnosis)}`);
        await page.getByRole("link", { name: `Edit record of ${patient.username}` }).click();
        const dialog = page.getByRole("dialog", { name: "Edit consultation record" });
        await expect(dialog.getByLabel("Diagnosis")).toHaveValue(diagnosis);
        await dialog.getByLabel("Diagnosis").fill(`${diagnosis} (confirmed)`);
        await dialog.getByRole("button", { name: "Save Consultation" }).click();
        await expect(page.getByText("Consultation record updated")).toBeVisible();
        await expect(page.getByText(`${diagnosis} (confirmed)`)).toBeVisible();
      });

      await test.step("Export PDF opens the print-ready page", async () => {
        await page.getByRole("link", { name: `Export PDF of the record of ${patient.username}` }).click();
        await expect(page.getByText("choose 'Save as PDF'")).toBeVisible();
        await expect(page.getByText(`${diagnosis} (confirmed)`)).toBeVisible();
        await expect(page.getByText("Artemether 80 mg")).toBeVisible();
        // Read later and elsewhere, the record's time names the clinic zone.
        await expect(page.getByText(/ · \d\d:\d\d \(West Africa Time \(UTC\+1\)\)$/)).toBeVisible();
        await checkA11y(page);
      });
    });
  });
}
