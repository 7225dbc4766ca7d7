// A patient posts an open request, a doctor proposes (through the API), the patient accepts
// the proposal in the details dialog and finds the appointment assigned, confirmed and payable.
import { checkA11y } from "./support.ts";
import { api, futureSlot, signIn } from "./doctor-helpers.ts";
import { expect, test } from "./fixtures.ts";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`open requests (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("request an appointment, accept a doctor's proposal, see it assigned", async ({ page, patient, doctor }) => {
      await signIn(page, patient.email, "patient");
      const request = "Request: General practice";

      await test.step("post an open request from the request dialog", async () => {
        await page.getByRole("link", { name: "Request new appointment" }).click();
        const dialog = page.getByRole("dialog");
        await expect(dialog.getByRole("heading", { name: "Request new appointment" })).toBeVisible();
        await checkA11y(page);
        await dialog.getByLabel("Specialty").selectOption({ label: "General practice" });
        await dialog.getByRole("radio", { name: "Online" }).check();
        await dialog.getByLabel("Preferred date").fill(futureSlot().date);
        await dialog.getByLabel("Preferred time").selectOption("10:00");
        await dialog.getByLabel("Device type").selectOption("phone");
        await dialog.getByRole("button", { name: "Submit request" }).click();
        await expect(page.getByText("Appointment request submitted")).toBeVisible();
        await expect(page).toHaveURL(/tab=open/);
        await expect(page.getByRole("listitem").filter({ hasText: request })).toHaveCount(1);
        await checkA11y(page);
      });

      await test.step("no proposal yet", async () => {
        await page.getByRole("link", { name: `Doctor Proposals (0) for ${request}` }).click();
        const dialog = page.getByRole("dialog");
        await expect(dialog.getByText("No proposals yet")).toBeVisible();
        await expect(dialog.getByRole("link", { name: "Doctor Proposals (0)" })).toBeVisible();
        await dialog.getByRole("link", { name: "Close", exact: true }).last().click();
        await expect(page.getByRole("dialog")).toHaveCount(0);
      });

      await test.step("a doctor proposes", async () => {
        const mine = await api("GET", "/appointment?assigned=false", { token: patient.token });
        const appointmentId = mine.body.appointments[0].id;
        const proposed = await api("POST", "/appointment-proposal", {
          token: doctor.token,
          body: { doctorId: doctor.id, appointmentId },
        });
        expect(proposed.status, JSON.stringify(proposed.body)).toBeLessThan(300);
      });

      await test.step("accept the proposal: the dialog closes and the appointment is assigned", async () => {
        await page.getByRole("link", { name: "Refresh" }).click();
        const item = page.getByRole("listitem").filter({ hasText: request });
        await expect(item.getByText("Proposed")).toBeVisible();
        await page.getByRole("link", { name: `Doctor Proposals (1) for ${request}` }).click();
        const dialog = page.getByRole("dialog");
        await expect(dialog.getByRole("link", { name: "Doctor Proposals (1)" })).toBeVisible();
        await expect(dialog.getByText(`Dr. ${doctor.username}`)).toBeVisible();
        await checkA11y(page);
        await dialog.getByRole("button", { name: "Accept" }).click();
        await expect(page.getByText("Proposal accepted: your appointment is confirmed")).toBeVisible();
        await expect(page.getByRole("dialog")).toHaveCount(0);
        await expect(page).toHaveURL(/tab=assigned/);
        const assigned = page.getByRole("listitem").filter({ hasText: `Dr. ${doctor.username}` });
        await expect(assigned.getByText("Confirmed")).toBeVisible();
      });

      await test.step("Buy shows the amount due and how to pay", async () => {
        await page.getByRole("link", { name: `Buy: Dr. ${doctor.username}` }).click();
        await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
        await expect(page.getByText(/FCFA\s\d,000/)).toBeVisible();
        await expect(page.getByText(/clinic reception/)).toBeVisible();
        await checkA11y(page);
      });
    });
  });
}
