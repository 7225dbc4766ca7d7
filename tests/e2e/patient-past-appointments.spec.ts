// A patient looks back at appointments whose time has passed: they offer neither Cancel nor Buy,
// not on the list, not by the cancel dialog's address, not on the payment page. The test's own
// patient has past confirmed appointments with its own doctor (the operator's demo command: the API
// never books in the past) and one confirmed appointment still to come, which offers both.
import { api, book, signIn } from "./doctor-helpers.ts";
import { expect, pastAppointments, test } from "./fixtures.ts";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`past appointments (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("a past confirmed appointment offers no Cancel and no Buy", async ({
      page,
      patient,
      doctor,
      generalPractice,
    }) => {
      await pastAppointments(doctor, patient);
      const coming = await book(patient, doctor.id, generalPractice);
      expect(
        (await api("PUT", `/appointment/${coming.id}`, { token: doctor.token, body: { status: "confirmed" } })).status,
      ).toBe(200);
      const confirmed = await api("GET", "/appointment?status=confirmed&limit=100", { token: patient.token });
      const past = (confirmed.body.appointments as { id: string; time: string }[]).filter(
        (a) => Date.parse(a.time) < Date.now(),
      );
      expect(past).toHaveLength(2);
      await signIn(page, patient.email, "patient");

      await test.step("the list of confirmed appointments offers neither Cancel nor Buy on past ones", async () => {
        await page.goto("/health/doctors/my-appointments?tab=assigned&status=confirmed");
        const items = page.getByRole("list", { name: "Assigned to me" }).getByRole("listitem");
        await expect(items.first()).toBeVisible();
        const upcoming = confirmed.body.appointments.length - past.length;
        await expect(items.getByRole("link", { name: /^Cancel/ })).toHaveCount(upcoming);
        await expect(items.getByRole("link", { name: /^Buy/ })).toHaveCount(upcoming);
      });

      await test.step("the cancel dialog's address does not open for a past appointment", async () => {
        await page.goto(`/health/doctors/my-appointments?tab=assigned&cancel=${past[0]!.id}`);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        await expect(page.getByRole("dialog")).toHaveCount(0);
        await expect(page.getByRole("button", { name: "Cancel Appointment" })).toHaveCount(0);
      });

      await test.step("the payment page asks for nothing", async () => {
        await page.goto(`/health/payment/${past[0]!.id}`);
        await expect(page.getByText("Only confirmed appointments still to come can be paid.")).toBeVisible();
        await expect(page.getByText("Amount due")).toHaveCount(0);
      });
    });
  });
}
