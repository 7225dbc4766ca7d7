// A patient confirms a cancellation the doctor has just made themselves: the refusal is said in
// words inside the dialog the patient acted in, and stays; no 'Failed to cancel appointment' toast.
import { expect, test } from "./support.ts";
import { api, apiLogin, book, DEMO_DOCTOR, doctorId, generalPractice, signIn } from "./doctor-helpers.ts";
import { freshPatient } from "./patient-helpers.ts";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`a refused cancellation (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled, viewport: { width: 360, height: 740 } });

    test("says what happened where the patient acted", async ({ page }) => {
      const patient = await freshPatient();
      const booked = await book(patient, await doctorId(DEMO_DOCTOR), await generalPractice());
      await signIn(page, patient.email, "patient");
      await page.goto(`/health/doctors/my-appointments?tab=assigned&cancel=${booked.id}`);
      const dialog = page.getByRole("dialog", { name: "Cancel appointment?" });
      await expect(dialog).toBeVisible();

      // The doctor cancels it first.
      const doctor = await apiLogin(DEMO_DOCTOR, "doctor");
      expect((await api("PUT", `/appointment/${booked.id}`, { token: doctor.token, body: { status: "cancelled" } })).status).toBe(200);
      await dialog.getByRole("button", { name: "Cancel Appointment" }).click();

      await expect(dialog.getByRole("alert")).toHaveText(
        "This appointment changed before your cancellation reached it (the doctor may have cancelled or completed it). Nothing was done; its card shows its status now.",
      );
      await expect(dialog.getByRole("button", { name: "Cancel Appointment" })).toHaveCount(0);
      await expect(page.getByText("Failed to cancel appointment")).toHaveCount(0);
    });
  });
}
