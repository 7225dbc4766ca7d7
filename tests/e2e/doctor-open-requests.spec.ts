// An open request: two doctors of the speciality propose, the patient accepts one, and the other
// doctor no longer sees the request among open requests.
import { checkA11y } from "./support.ts";
import { api, openRequest, patientSees, signIn } from "./doctor-helpers.ts";
import { expect, newVerifiedDoctor, test } from "./fixtures.ts";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`open requests (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("two doctors propose, the patient accepts the other one", async ({
      page,
      patient,
      doctor,
      generalPractice,
    }) => {
      const request = await openRequest(patient, generalPractice);
      const rival = await newVerifiedDoctor(generalPractice);
      const openList = `/doctor/appointments?tab=open&search=${encodeURIComponent(patient.username)}`;

      await test.step("the doctor proposes from the open requests tab", async () => {
        await signIn(page, doctor.email, "doctor");
        await page.goto(openList);
        const card = page.getByRole("listitem").filter({ hasText: patient.username });
        await expect(card).toHaveCount(1);
        await checkA11y(page);
        await card.getByRole("button", { name: "Propose" }).click();
        await expect(page.getByText("Proposal sent to the patient")).toBeVisible();
        const after = page.getByRole("listitem").filter({ hasText: patient.username });
        await expect(after.getByText("Proposed", { exact: true }).first()).toBeVisible();
        await expect(after.getByRole("button", { name: "Propose" })).toHaveCount(0);
      });

      await test.step("a second doctor of the speciality proposes too", async () => {
        const proposed = await api("POST", "/appointment-proposal", {
          token: rival.token,
          body: { doctorId: rival.id, appointmentId: request.id },
        });
        expect(proposed.status, JSON.stringify(proposed.body)).toBeLessThan(300);
      });

      await test.step("the patient accepts the second doctor's proposal", async () => {
        const list = await api("GET", `/appointment-proposal?appointmentId=${request.id}`, { token: patient.token });
        const proposals: any[] = Array.isArray(list.body) ? list.body : (list.body?.proposals ?? []);
        expect(proposals).toHaveLength(2);
        const chosen = proposals.find((p) => (p.Doctor?.id ?? p.doctorId) === rival.id);
        const accepted = await api("PATCH", `/appointment-proposal/${chosen.id}/accept`, { token: patient.token });
        expect(accepted.status, JSON.stringify(accepted.body)).toBeLessThan(300);
        const seen = await patientSees(patient, request.id);
        expect(seen.status).toBe("confirmed");
        expect(seen.doctorId).toBe(rival.id);
      });

      await test.step("the first doctor no longer sees the request", async () => {
        await page.goto(openList);
        await expect(page.getByText("No open appointment requests found matching your criteria.")).toBeVisible();
      });
    });
  });
}
