// A patient edits the profile (country, then one of its cities), downloads their data, and deletes
// the account, after which logging in fails.
import { checkA11y } from "./support.ts";
import { PASSWORD, signIn } from "./doctor-helpers.ts";
import { expect, test } from "./fixtures.ts";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`patient profile (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("edit the profile with a country then a city, and download my data", async ({ page, patient }) => {
      await signIn(page, patient.email, "patient");
      await page.goto("/patient/profile");
      await expect(page.getByRole("heading", { level: 1, name: "My profile" })).toBeVisible();
      await expect(page.getByText("Patient", { exact: true })).toBeVisible();
      await expect(page.getByText("Not provided").first()).toBeVisible();
      await checkA11y(page);

      await test.step("download my data", async () => {
        const download = page.waitForEvent("download");
        await page.getByRole("link", { name: "Download my data" }).click();
        expect((await download).suggestedFilename()).toMatch(/^my-health-data-.*\.json$/);
      });

      await test.step("edit: the city waits for a country", async () => {
        await page.getByRole("link", { name: "Edit" }).click();
        await expect(page.getByLabel("City")).toBeDisabled();
        await expect(page.getByLabel("City")).toContainText("Select country first");
        await page.getByLabel("Profession").fill("Teacher");
        await page.getByLabel("Address").fill("12 rue de la Joie\nAkwa");
        await page.getByLabel("Country").selectOption({ label: "Cameroon" });
        // Without JavaScript 'Update cities' reloads the list, keeping what was typed.
        const update = page.getByRole("button", { name: "Update cities" });
        if (await update.count()) await update.click();
        await expect(page.getByLabel("Profession")).toHaveValue("Teacher");
        await expect(page.getByLabel("City")).toBeEnabled();
        await page.getByLabel("City").selectOption({ label: "Douala" });
        await checkA11y(page);
        await page.getByRole("button", { name: "Save" }).click();
        await expect(page.getByText("Profile updated successfully")).toBeVisible();
      });

      await test.step("the view shows the saved values", async () => {
        await expect(page.getByRole("link", { name: "Edit" })).toBeVisible();
        const details = page.locator("dl");
        await expect(details.getByText("Teacher")).toBeVisible();
        await expect(details.getByText("Douala")).toBeVisible();
        await expect(details.getByText("Cameroon")).toBeVisible();
        await checkA11y(page);
      });
    });

    test("delete the account, then logging in fails", async ({ page, patient }) => {
      await signIn(page, patient.email, "patient");
      await page.goto("/patient/profile");
      await page.getByRole("link", { name: "Delete account" }).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog.getByText(/Deletion is permanent/)).toBeVisible();
      await checkA11y(page);
      await dialog.getByRole("button", { name: "Delete my account" }).click();
      await page.waitForURL(/\/login/);
      await expect(page.getByText("Account deleted successfully")).toBeVisible();
      await checkA11y(page);

      await page.getByRole("radio", { name: "Patient" }).check();
      await page.getByLabel("Email").fill(patient.email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      await expect(page.getByText("Login failed")).toBeVisible();
      await expect(page).toHaveURL(/\/login/);
    });
  });
}
