// A patient looks back at appointments whose time has passed: they offer neither Cancel nor Buy,
// not on the list, not by the cancel dialog's address, not on the payment page. The demo seed gives
// the demo patient past confirmed appointments (the API never books in the past); read only here.
import { expect, test } from "./support.ts";
import { apiLogin, api, signIn } from "./doctor-helpers.ts";

const DEMO_PATIENT = "patient@example.com";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`past appointments (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("a past confirmed appointment offers no Cancel and no Buy", async ({ page }) => {
      const demo = await apiLogin(DEMO_PATIENT, "patient");
      const confirmed = await api("GET", "/appointment?status=confirmed&limit=100", { token: demo.token });
      const past = (confirmed.body.appointments as { id: string; time: string }[]).filter((a) => Date.parse(a.time) < Date.now());
      expect(past.length, "the demo seed's past confirmed appointments").toBeGreaterThan(0);
      await signIn(page, DEMO_PATIENT, "patient");

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
