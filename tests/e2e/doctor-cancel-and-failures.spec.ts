// A doctor's destructive and failed actions: Cancel asks first (a dialog, addressable so it works
// without JavaScript), on a desktop and on a 360 px phone (the two projects); an action that fails
// because the patient changed the appointment meanwhile says so in words, on that appointment's
// card, and stays there.
import type { Page } from "@playwright/test";
import { checkA11y } from "./support.ts";
import { api, book, patientSees } from "./doctor-helpers.ts";
import { expect, test } from "./fixtures.ts";

async function cardOf(page: Page, username: string) {
  await page.goto(`/doctor/appointments?tab=assigned&search=${encodeURIComponent(username)}`);
  const card = page.getByRole("listitem").filter({ hasText: username });
  await expect(card).toHaveCount(1);
  return card;
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`a doctor cancels (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("Cancel asks for confirmation before anything happens", async ({
      page,
      patient,
      doctor,
      generalPractice,
      signIn,
    }) => {
      const booked = await book(patient, doctor.id, generalPractice);
      await signIn(doctor);
      const card = await cardOf(page, patient.username);

      await test.step("Cancel opens a confirmation; keeping the appointment changes nothing", async () => {
        await card.getByRole("link", { name: `Cancel appointment with ${patient.username}` }).click();
        const dialog = page.getByRole("dialog", { name: "Cancel this appointment?" });
        await expect(dialog.getByText("The patient is told at once.")).toBeVisible();
        expect((await patientSees(patient, booked.id)).status).toBe("pending");
        await checkA11y(page);
        await dialog.getByRole("link", { name: "Keep the appointment" }).click();
        await expect(page.getByRole("dialog")).toHaveCount(0);
        expect((await patientSees(patient, booked.id)).status).toBe("pending");
      });

      await test.step("confirming cancels it", async () => {
        await card.getByRole("link", { name: `Cancel appointment with ${patient.username}` }).click();
        await page
          .getByRole("dialog", { name: "Cancel this appointment?" })
          .getByRole("button", { name: "Cancel the appointment" })
          .click();
        await expect(page.getByText("Appointment cancelled")).toBeVisible();
        expect((await patientSees(patient, booked.id)).status).toBe("cancelled");
      });
    });
  });
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`a doctor's action that fails (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("confirming an appointment the patient just cancelled says so on its card, and stays", async ({
      page,
      patient,
      doctor,
      generalPractice,
      signIn,
    }) => {
      if (javaScriptEnabled) await page.clock.install();
      const booked = await book(patient, doctor.id, generalPractice);
      await signIn(doctor);
      const card = await cardOf(page, patient.username);

      // The patient cancels while the doctor's page is open.
      const cancelled = await api("PATCH", `/appointment/${booked.id}`, {
        token: patient.token,
        body: { status: "cancelled" },
      });
      expect(cancelled.status).toBe(200);
      await card.getByRole("button", { name: "Confirm" }).click();

      const alert = card.getByRole("alert");
      await expect(alert).toHaveText(
        "This appointment changed before your action reached it: its status is now “Cancelled”. Nothing was done; check where it stands before acting again.",
      );
      await expect(card.getByText("Cancelled", { exact: true })).toBeVisible();
      await expect(card.getByRole("button", { name: "Confirm" })).toHaveCount(0);
      // Not a toast that goes away: still there once a toast would have closed.
      if (javaScriptEnabled) await page.clock.runFor(10_000);
      await expect(alert).toBeVisible();
      await checkA11y(page);
    });
  });
}
