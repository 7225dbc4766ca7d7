// A patient confirms a cancellation the doctor has just made themselves: the refusal is said in
// words inside the dialog the patient acted in, and stays; no 'Failed to cancel appointment' toast.
import { api, book } from "./doctor-helpers.ts";
import { expect, test } from "./fixtures.ts";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`a refused cancellation (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("says what happened where the patient acted", async ({ page, patient, doctor, generalPractice, signIn }) => {
      const booked = await book(patient, doctor.id, generalPractice);
      await signIn(patient);
      await page.goto(`/health/doctors/my-appointments?tab=assigned&cancel=${booked.id}`);
      const dialog = page.getByRole("dialog", { name: "Cancel appointment?" });
      await expect(dialog).toBeVisible();

      // The doctor cancels it first.
      expect(
        (await api("PUT", `/appointment/${booked.id}`, { token: doctor.token, body: { status: "cancelled" } })).status,
      ).toBe(200);
      await dialog.getByRole("button", { name: "Cancel Appointment" }).click();

      await expect(dialog.getByRole("alert")).toHaveText(
        "This appointment changed before your cancellation reached it (the doctor may have cancelled or completed it). Nothing was done; its card shows its status now.",
      );
      await expect(dialog.getByRole("button", { name: "Cancel Appointment" })).toHaveCount(0);
      await expect(page.getByText("Failed to cancel appointment")).toHaveCount(0);
    });
  });
}
