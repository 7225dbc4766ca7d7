// Phone numbers are taken as people write them and shown in one international format: a patient
// registers with '6.70…' (no country code, dots), then writes '+237 6…' with spaces in the profile.
import { expect, test } from "./support.ts";
import { PASSWORD, signIn } from "./doctor-helpers.ts";
import { latestCode, uniqueEmail } from "./support.ts";
import { enterCode } from "./doctor-helpers.ts";

/** Seven random digits, so runs do not collide. */
const digits = () => String(Math.floor(Math.random() * 10_000_000)).padStart(7, "0");

for (const javaScriptEnabled of [false, true]) {
  test.describe(`phone numbers (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("register with a national number, then change it to an international one with spaces", async ({
      page,
      a11y,
    }) => {
      const email = uniqueEmail("phone");
      const d = digits();
      await test.step("register with 6.7x.xx.xx.xx (nine digits, dots, no +237)", async () => {
        await page.goto("/register");
        await page.getByLabel("Username").fill("Phone Person");
        await page.getByLabel("Email").fill(email);
        await page.getByLabel("Phone").fill(`6.7${d[0]}.${d.slice(1, 3)}.${d.slice(3, 5)}.${d.slice(5)}`);
        await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
        await page.getByLabel("Confirm password").fill(PASSWORD);
        await page.getByRole("button", { name: "Register as patient" }).click();
        await page.waitForURL(/\/verification/);
        await enterCode(page, await latestCode(email));
        await page.getByRole("button", { name: /validate|verify/i }).click();
        await page.waitForURL(/\/login/);
      });

      await test.step("the profile shows it in international format", async () => {
        await signIn(page, email, "patient");
        await page.goto("/patient/profile");
        await expect(
          page.getByText(`+237 6 7${d[0]} ${d.slice(1, 3)} ${d.slice(3, 5)} ${d.slice(5)}`).first(),
        ).toBeVisible();
      });

      await test.step("save '+237 650 000 001' in the profile", async () => {
        await page.getByRole("link", { name: "Edit" }).click();
        await page.getByLabel("Phone Number").fill(`+237 650 ${d.slice(0, 3)} ${d.slice(3, 6)}`);
        await page.getByRole("button", { name: "Save" }).click();
        await expect(page.getByText("Profile updated successfully")).toBeVisible();
        await expect(
          page.getByText(`+237 6 50 ${d.slice(0, 2)} ${d.slice(2, 4)} ${d.slice(4, 6)}`).first(),
        ).toBeVisible();
        await a11y();
      });

      await test.step("a number that is none is refused with a clear message", async () => {
        await page.getByRole("link", { name: "Edit" }).click();
        await page.getByLabel("Phone Number").fill("0612345678");
        await page.getByRole("button", { name: "Save" }).click();
        await expect(page.getByText("Please enter a valid phone number")).toBeVisible();
      });
    });
  });
}
