// Logging in with the right password but the other role says which role to choose, in English and
// French; a wrong password says nothing about the account.
import { expect, test } from "./support.ts";
import { generalPractice, PASSWORD } from "./doctor-helpers.ts";
import { newVerifiedDoctor } from "./fixtures.ts";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`login role (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("a doctor who keeps the default role 'Patient' is told to choose 'Doctor'", async ({ page, a11y }) => {
      const doctor = await newVerifiedDoctor(await generalPractice());
      await page.goto("/login");
      await page.getByLabel("Email").fill(doctor.email);
      await page.getByLabel("Password").fill("Wrong-password-1");
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      await expect(page.getByText("Login failed")).toBeVisible();
      await expect(page.getByText(/doctor account/)).toHaveCount(0);

      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      await expect(page.getByText("This is a doctor account: choose 'Doctor' and log in again.")).toBeVisible();
      await a11y();

      await page.getByRole("radio", { name: "Doctor" }).check();
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      await page.waitForURL(/\/doctor\//);
    });

    test("in French", async ({ page }) => {
      await page.context().addCookies([{ name: "i18nextLng", value: "fr", url: "http://127.0.0.1" }]);
      const doctor = await newVerifiedDoctor(await generalPractice());
      await page.goto("/login");
      await page.getByLabel("E-mail").fill(doctor.email);
      await page.getByLabel("Mot de passe").fill(PASSWORD);
      await page.getByRole("button", { name: "Se connecter", exact: true }).click();
      await expect(
        page.getByText("Ce compte est un compte médecin : choisissez « Médecin » et reconnectez-vous."),
      ).toBeVisible();
    });
  });
}
