// Open requests follow the rules of bookings: the request form offers the six slots only, the doctor
// reads everything the patient wrote, a doctor cannot propose on a slot they hold, and a proposal
// whose doctor got booked meanwhile says so instead of failing on every accept. A doctor browsing
// requests is not told a stranger's no-shows (docs/product.md, No-shows).
import { expect, test } from "./support.ts";
import { api, futureSlot, generalPractice, openRequest, signIn, SLOTS } from "./doctor-helpers.ts";
import { createPatient, newVerifiedDoctor, pastAppointments } from "./fixtures.ts";

/** A direct booking of `doctor` at exactly the request's slot, by another patient. */
async function bookSameSlot(doctor: { id: string }, slot: { date: string; time: string }, speciality: number) {
  const other = await createPatient();
  const booked = await api("POST", "/appointment", {
    token: other.token,
    body: {
      doctorId: doctor.id,
      specialityId: speciality,
      type: "online",
      category: "direct",
      date: slot.date,
      time: slot.time,
    },
  });
  expect(booked.status, JSON.stringify(booked.body)).toBe(201);
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`open request rules (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("the patient picks one of the six slots and the doctor reads all they wrote", async ({ page, a11y }) => {
      const speciality = await generalPractice();
      const patient = await createPatient();
      const doctor = await newVerifiedDoctor(speciality);
      const { date } = futureSlot();

      await test.step("the request form offers the six slots, nothing else", async () => {
        await signIn(page, patient.email, "patient");
        await page.goto("/health/doctors?request=1");
        const dialog = page.getByRole("dialog");
        const time = dialog.getByLabel("Preferred time");
        await expect(time.locator("option:not([value=''])")).toHaveText([...SLOTS]);
        await dialog.getByLabel("Specialty").selectOption({ label: "General practice" });
        await dialog.getByRole("radio", { name: "In person" }).check();
        await dialog.getByLabel("Preferred date").fill(date);
        await time.selectOption("15:00");
        await dialog.getByLabel("Your address").fill("Rue Joss, Bonanjo, Douala");
        await dialog.getByLabel("Reason for the visit").fill("Persistent cough for two weeks");
        await a11y();
        await dialog.getByRole("button", { name: "Submit request" }).click();
        await expect(page.getByText("Appointment request submitted")).toBeVisible();
      });

      await test.step("an online request keeps the device, connection and platform", async () => {
        await page.goto("/health/doctors?request=1");
        const dialog = page.getByRole("dialog");
        await dialog.getByLabel("Specialty").selectOption({ label: "General practice" });
        await dialog.getByRole("radio", { name: "Online" }).check();
        await dialog.getByLabel("Preferred date").fill(date);
        await dialog.getByLabel("Preferred time").selectOption("09:00");
        await dialog.getByLabel("Device type").selectOption("tablet");
        await dialog.getByLabel("Connection quality").selectOption("fair");
        await dialog.getByLabel("Video platform").selectOption("meet");
        await dialog.getByLabel("Reason for the visit").fill("Follow-up of my blood pressure");
        await dialog.getByRole("button", { name: "Submit request" }).click();
        await expect(page.getByText("Appointment request submitted")).toBeVisible();
      });

      await test.step("the doctor sees the reason, the address and the online details", async () => {
        await page.context().clearCookies();
        await signIn(page, doctor.email, "doctor");
        await page.goto(`/doctor/appointments?tab=open&search=${encodeURIComponent(patient.username)}`);
        const cards = page.getByRole("listitem").filter({ hasText: patient.username });
        await expect(cards).toHaveCount(2);
        await cards
          .filter({ hasText: "15:00" })
          .getByRole("link", { name: `Details of the appointment with ${patient.username}` })
          .click();
        let dialog = page.getByRole("dialog");
        await expect(dialog.getByText("Persistent cough for two weeks")).toBeVisible();
        await expect(dialog.getByText("Rue Joss, Bonanjo, Douala")).toBeVisible();
        await a11y();
        await dialog.getByRole("link", { name: "Close", exact: true }).last().click();
        await cards
          .filter({ hasText: "09:00" })
          .getByRole("link", { name: `Details of the appointment with ${patient.username}` })
          .click();
        dialog = page.getByRole("dialog");
        await expect(dialog.getByText("Follow-up of my blood pressure")).toBeVisible();
        await expect(dialog.getByText("Tablet", { exact: true })).toBeVisible();
        await expect(dialog.getByText("Fair", { exact: true })).toBeVisible();
        await expect(dialog.getByText("Google Meet")).toBeVisible();
      });
    });

    test("a stranger's open request says nothing of the patient's no-shows", async ({ page }) => {
      const speciality = await generalPractice();
      const patient = await createPatient();
      const [theirs, stranger] = await Promise.all([newVerifiedDoctor(speciality), newVerifiedDoctor(speciality)]);
      const [past] = await pastAppointments(theirs, patient, 1);
      const marked = await api("PUT", `/appointment/${past}`, { token: theirs.token, body: { status: "missed" } });
      expect(marked.status, JSON.stringify(marked.body)).toBe(200);
      await openRequest(patient, speciality);

      await signIn(page, stranger.email, "doctor");
      await page.goto(`/doctor/appointments?tab=open&search=${encodeURIComponent(patient.username)}`);
      const card = page.getByRole("listitem").filter({ hasText: patient.username });
      await expect(card).toHaveCount(1);
      // "No missed appointments…", "1 missed appointment…": none of the forms, on the card or in the dialog.
      const missedCount = /in the last 12 months/;
      await expect(card.getByText(missedCount)).toHaveCount(0);
      await card.getByRole("link", { name: `Details of the appointment with ${patient.username}` }).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog.getByText(patient.username, { exact: true })).toBeVisible();
      await expect(dialog.getByText(missedCount)).toHaveCount(0);
    });

    test("no proposal on a slot the doctor holds; a proposal whose doctor got booked says so", async ({
      page,
      a11y,
    }) => {
      const speciality = await generalPractice();
      const patient = await createPatient();
      const busy = await newVerifiedDoctor(speciality);
      const late = await newVerifiedDoctor(speciality);
      const request = await openRequest(patient, speciality);

      await test.step("a doctor already booked at that time is told so instead of a Propose button", async () => {
        await bookSameSlot(busy, request, speciality);
        await signIn(page, busy.email, "doctor");
        await page.goto(`/doctor/appointments?tab=open&search=${encodeURIComponent(patient.username)}`);
        const card = page.getByRole("listitem").filter({ hasText: patient.username });
        await expect(card.getByText("You already have an appointment at this time")).toBeVisible();
        await expect(card.getByRole("button", { name: "Propose" })).toHaveCount(0);
        const refused = await api("POST", "/appointment-proposal", {
          token: busy.token,
          body: { doctorId: busy.id, appointmentId: request.id },
        });
        expect(refused.status).toBe(409);
      });

      await test.step("another doctor proposes, then gets booked at that time before the patient accepts", async () => {
        const proposed = await api("POST", "/appointment-proposal", {
          token: late.token,
          body: { doctorId: late.id, appointmentId: request.id },
        });
        expect(proposed.status, JSON.stringify(proposed.body)).toBe(201);
        await page.context().clearCookies();
        await signIn(page, patient.email, "patient");
        await page.goto(`/health/doctors/my-appointments?tab=open&appointment=${request.id}`);
        await expect(page.getByRole("dialog").getByText("Awaiting your answer")).toBeVisible();
        await bookSameSlot(late, request, speciality);
      });

      await test.step("accepting says why it cannot be done, beside the proposal, which is marked unavailable", async () => {
        const dialog = page.getByRole("dialog");
        await dialog.getByRole("button", { name: "Accept" }).click();
        const proposal = dialog.getByRole("listitem").filter({ hasText: late.username });
        await expect(proposal.getByRole("alert")).toHaveText(
          "This doctor is no longer free at this time, so the proposal cannot be accepted. Choose another proposal or wait for new ones.",
        );
        await expect(
          proposal.getByText("No longer available: the doctor now has another appointment at this time"),
        ).toBeVisible();
        await expect(proposal.getByText("Awaiting your answer")).toHaveCount(0);
        await expect(proposal.getByRole("button", { name: "Accept" })).toHaveCount(0);
        await expect(proposal.getByRole("button", { name: "Reject" })).toBeVisible();
        await a11y();
      });

      await test.step("in French too", async () => {
        await page.context().addCookies([{ name: "i18nextLng", value: "fr", url: page.url() }]);
        await page.goto(page.url());
        await expect(
          page
            .getByRole("dialog")
            .getByText("Plus disponible : le médecin a désormais un autre rendez-vous à cette heure"),
        ).toBeVisible();
      });
    });
  });
}
