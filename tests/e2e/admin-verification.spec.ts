// The admin rejects a registration with a reason; only the admin reaches /admin.
import { checkA11y } from "./support.ts";
import { api, apiLogin, signIn } from "./doctor-helpers.ts";
import { createUnapprovedDoctor, expect, queueCard, test } from "./fixtures.ts";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`admin verification (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("the admin rejects a registration, and the doctor sees it", async ({ page, admin }) => {
      const { email, username: name } = await createUnapprovedDoctor();

      await signIn(page, admin.email, "admin");
      const card = await queueCard(page, admin, name);
      const reject = card.getByRole("form", { name: `Reject ${name}` });
      await expect(reject).toBeVisible();
      await checkA11y(page);
      await reject.getByLabel("Reason (optional)").fill("Serial number not found in the register");
      await reject.getByRole("button", { name: "Reject" }).click();
      await expect(page.getByText(`The registration of ${name} has been rejected`)).toBeVisible();
      await expect(page.getByRole("heading", { name })).toHaveCount(0);

      const doctor = await apiLogin(email, "doctor");
      const info = await api("GET", "/doctor/doctor-info", { token: doctor.token });
      expect(info.body.verification).toBe("rejected");

      await test.step("the doctor is told the admin's reason on their pages, in English and French", async () => {
        await page.context().clearCookies();
        await signIn(page, email, "doctor");
        await expect(page.getByText("Your registration was not approved.")).toBeVisible();
        await expect(
          page.getByText("The administrator's reason: Serial number not found in the register"),
        ).toBeVisible();
        await page.goto("/doctor/consultations");
        await expect(
          page.getByText("The administrator's reason: Serial number not found in the register"),
        ).toBeVisible();
        await page.context().addCookies([{ name: "i18nextLng", value: "fr", url: page.url() }]);
        await page.goto("/doctor/appointments");
        await expect(
          page.getByText("Motif donné par l'administrateur : Serial number not found in the register"),
        ).toBeVisible();
        await checkA11y(page);
      });
    });

    test("a doctor cannot open the admin screen", async ({ page, doctor }) => {
      await signIn(page, doctor.email, "doctor");
      await page.goto("/admin");
      await expect(page).toHaveURL(/\/doctor\/appointments/);
    });
  });
}
