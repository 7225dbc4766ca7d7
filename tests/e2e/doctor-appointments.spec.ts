// A doctor confirms, reschedules and cancels a patient's appointments, and completes a past one; the
// patient sees each change through the API. Every test makes its own doctor and patient.
import { checkA11y } from "./support.ts";
import { book, futureSlot, patientSees, signIn } from "./doctor-helpers.ts";
import { expect, pastAppointments, test } from "./fixtures.ts";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`doctor appointments (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("confirm, then reschedule a booking; cancel another", async ({ page, patient, doctor, generalPractice }) => {
      const first = await book(patient, doctor.id, generalPractice);
      const second = await book(patient, doctor.id, generalPractice);

      await signIn(page, doctor.email, "doctor");

      await test.step("the search and the status filter find the pending booking", async () => {
        await page.goto("/doctor/appointments");
        await page.getByRole("searchbox", { name: "Search" }).fill(patient.username);
        await page.getByLabel("Status").selectOption("pending");
        await page.getByRole("button", { name: "Search" }).click();
        await expect(page.getByRole("listitem").filter({ hasText: patient.username })).toHaveCount(2);
        await checkA11y(page);
        await page.getByRole("link", { name: "Clear filters" }).click();
        await expect(page.getByRole("searchbox", { name: "Search" })).toHaveValue("");
      });

      await test.step("an unknown name gives the empty state", async () => {
        await page.goto("/doctor/appointments?search=nobody-has-this-name");
        await expect(page.getByText("No assigned appointments found matching your criteria.")).toBeVisible();
      });

      await test.step("the doctor confirms the first booking", async () => {
        await page.goto(`/doctor/appointments?search=${encodeURIComponent(patient.username)}`);
        await page
          .getByRole("link", { name: `Details of the appointment with ${patient.username}` })
          .first()
          .click();
        await expect(page.getByRole("dialog", { name: "Appointment details" })).toBeVisible();
        await checkA11y(page);
        await page.getByRole("dialog").getByRole("link", { name: "Close" }).last().click();
        await expect(page.getByRole("dialog")).toHaveCount(0);
        // Two pending bookings: confirm the first one, addressed by its URL.
        await page.goto(`/doctor/appointments?tab=assigned&appointment=${first.id}`);
        await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click();
        await expect(page.getByText("Appointment confirmed")).toBeVisible();
        expect((await patientSees(patient, first.id)).status).toBe("confirmed");
      });

      await test.step("a future confirmed appointment cannot be marked completed", async () => {
        await page.goto(`/doctor/appointments?tab=assigned&appointment=${first.id}`);
        const dialog = page.getByRole("dialog", { name: "Appointment details" });
        await expect(dialog.getByText("Confirmed")).toBeVisible();
        await expect(dialog.getByRole("button", { name: "Mark completed" })).toHaveCount(0);
        await expect(dialog.getByRole("link", { name: "Reschedule" })).toBeVisible();
      });

      await test.step("an unchanged reschedule is refused", async () => {
        await page.getByRole("dialog").getByRole("link", { name: "Reschedule" }).click();
        const dialog = page.getByRole("dialog", { name: "Reschedule appointment" });
        await expect(dialog.getByLabel("New date")).toHaveValue(first.date);
        await expect(dialog.getByLabel("New time")).toHaveValue(first.time);
        await checkA11y(page);
        const save = dialog.getByRole("button", { name: "Save changes" });
        if (javaScriptEnabled) {
          await expect(save).toBeDisabled();
        } else {
          await save.click();
          await expect(page.getByText("Choose a date or time different from the current one").first()).toBeVisible();
        }
      });

      await test.step("the doctor reschedules to another slot", async () => {
        const dialog = page.getByRole("dialog", { name: "Reschedule appointment" });
        // Another day than the first booking's, and not the second booking's day (its time is taken).
        let target = futureSlot();
        while (target.date === first.date || target.date === second.date) target = futureSlot();
        await dialog.getByLabel("New date").fill(target.date);
        await dialog.getByLabel("New time").selectOption(target.time);
        await dialog.getByRole("button", { name: "Save changes" }).click();
        await expect(page.getByText("Appointment rescheduled")).toBeVisible();
        const seen = await patientSees(patient, first.id);
        expect(seen.date).toBe(target.date);
        expect(String(seen.time)).toContain(`T${target.time}`);
      });

      await test.step("the doctor cancels the second booking", async () => {
        await page.goto(`/doctor/appointments?tab=assigned&appointment=${second.id}`);
        await page
          .getByRole("dialog")
          .getByRole("link", { name: /^Cancel appointment/ })
          .click();
        await page
          .getByRole("dialog", { name: "Cancel this appointment?" })
          .getByRole("button", { name: "Cancel the appointment" })
          .click();
        await expect(page.getByText("Appointment cancelled")).toBeVisible();
        expect((await patientSees(patient, second.id)).status).toBe("cancelled");
        await page.goto(`/doctor/appointments?tab=assigned&appointment=${second.id}`);
        await expect(page.getByRole("dialog").getByRole("link", { name: "Reschedule" })).toHaveCount(0);
      });
    });

    // Completion needs a past start time, which the API never books: the test's own doctor and
    // patient are given two past confirmed appointments by the operator's demo command.
    test("the doctor marks a past confirmed appointment completed", async ({ page, patient, doctor }) => {
      const [past] = await pastAppointments(doctor, patient);
      await signIn(page, doctor.email, "doctor");
      await page.goto(`/doctor/appointments?tab=assigned&appointment=${past}`);
      const dialog = page.getByRole("dialog", { name: "Appointment details" });
      await expect(dialog.getByRole("link", { name: "Reschedule" })).toBeVisible();
      await checkA11y(page);
      await dialog.getByRole("button", { name: "Mark completed" }).click();
      await expect(page.getByText("Appointment marked as completed")).toBeVisible();
      expect((await patientSees(patient, past!)).status).toBe("completed");
      await page.goto(`/doctor/appointments?tab=assigned&appointment=${past}`);
      await expect(page.getByRole("dialog").getByRole("button", { name: "Mark completed" })).toHaveCount(0);
    });
  });
}

test.describe("doctor appointments in French", () => {
  test.use({ language: "fr" });

  test("the appointments page reads in French", async ({ page, doctor }) => {
    await signIn(page, doctor.email, "doctor");
    await expect(page.getByRole("heading", { level: 1, name: "Rendez-vous" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Demandes ouvertes" })).toBeVisible();
    await page.goto("/doctor/appointments?search=personne-ne-porte-ce-nom");
    await expect(page.getByText("Aucun rendez-vous attribué ne correspond à vos critères.")).toBeVisible();
    await page.goto("/doctor/appointments?tab=open&search=personne-ne-porte-ce-nom");
    await expect(page.getByText("Aucune demande de rendez-vous ouverte ne correspond à vos critères.")).toBeVisible();
    await checkA11y(page);
  });
});
