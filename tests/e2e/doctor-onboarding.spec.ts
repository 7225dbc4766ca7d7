// A doctor registers, verifies the account, waits for the admin's approval (banner, no actions),
// is approved at /admin, then passes the profile code gate and edits the profile.
import { checkA11y } from "./support.ts";
import { expect, queueCard, test } from "./fixtures.ts";
import { enterCode, mailCount, newCode, PASSWORD, signIn, signOut, uniqueEmail, uniqueName } from "./doctor-helpers.ts";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`doctor onboarding (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("register, get approved, pass the profile gate and edit the profile", async ({ page, admin }) => {
      const email = uniqueEmail("newdoc");
      const name = uniqueName("Doctor");

      await test.step("the doctor registers with a serial number", async () => {
        await page.goto("/register?role=doctor");
        await checkA11y(page);
        await page.getByLabel("Medical serial number").fill("MD-" + Date.now());
        await page.getByLabel("Doctor name").fill(name);
        await page.getByLabel("Email").fill(email);
        await page.getByLabel("Contact (phone)").fill("+237 650 11 22 33");
        await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
        await page.getByLabel("Confirm password").fill(PASSWORD);
        await page.getByRole("button", { name: "Register as doctor" }).click();
        await page.waitForURL(/\/verification/);
      });

      let code = "";
      await test.step("the doctor verifies the account with the e-mailed code", async () => {
        code = await newCode(email);
        await enterCode(page, code);
        await page.getByRole("button", { name: "Validate" }).click();
        await page.waitForURL(/\/login/);
      });

      await test.step("before approval: a banner and no action buttons", async () => {
        await signIn(page, email, "doctor");
        await page.goto("/doctor/appointments");
        await expect(page.getByText("Your account is awaiting verification")).toBeVisible();
        await expect(page.getByRole("button", { name: /^(Confirm|Propose|Cancel appointment)$/ })).toHaveCount(0);
        await page.goto("/doctor/appointments?tab=open");
        await expect(page.getByRole("button", { name: "Propose" })).toHaveCount(0);
        await checkA11y(page);
        await signOut(page);
      });

      await test.step("the admin approves the doctor with General practice", async () => {
        await signIn(page, admin.email, "admin");
        const card = await queueCard(page, admin, name);
        await expect(page.getByRole("heading", { level: 1, name: "Doctor verification" })).toBeVisible();
        await checkA11y(page);
        const approve = card.getByRole("form", { name: `Approve ${name}` });
        await approve.getByRole("checkbox", { name: "General practice" }).check();
        await approve.getByRole("button", { name: "Approve" }).click();
        await expect(page.getByText(`Dr. ${name} has been approved`)).toBeVisible();
        await expect(page.getByRole("heading", { name })).toHaveCount(0);
        await signOut(page);
      });

      await test.step("once approved, the banner is gone", async () => {
        await signIn(page, email, "doctor");
        await page.goto("/doctor/appointments");
        await expect(page.getByText("Your account is awaiting verification")).toHaveCount(0);
      });

      let mailsBeforeGate = 0;
      await test.step("the profile asks for a code; a wrong code is refused", async () => {
        mailsBeforeGate = await mailCount(email);
        await page.goto("/doctor/profile");
        await expect(page.getByRole("dialog", { name: "Verify your identity" })).toBeVisible();
        await checkA11y(page);
        const wrong = code === "000000" ? "111111" : "000000";
        await enterCode(page, wrong);
        await page.getByRole("button", { name: "Verify" }).click();
        await expect(page.getByText("Invalid verification code. Please try again.")).toBeVisible();
        await expect(page.locator('input[name="code0"]')).toHaveValue("");
      });

      await test.step("the e-mailed code opens the profile", async () => {
        const profileCode = await newCode(email, mailsBeforeGate);
        await enterCode(page, profileCode);
        await page.getByRole("button", { name: "Verify" }).click();
        await expect(page.getByText("Profile access verified successfully")).toBeVisible();
        await expect(page.getByRole("heading", { name: `Dr. ${name}` })).toBeVisible();
        await expect(page.getByText("General practice")).toBeVisible();
        await checkA11y(page);
      });

      await test.step("the doctor edits the profile", async () => {
        await page.getByRole("link", { name: "Edit" }).click();
        await expect(page.getByLabel("City")).toBeDisabled();
        await page.getByLabel("Duty Hospital").fill("Laquintinie Hospital");
        await page.getByLabel("Gender").selectOption("female");
        await page.getByLabel("Country").selectOption({ label: "Cameroon" });
        if (!javaScriptEnabled) await page.getByRole("button", { name: "Update cities" }).click();
        await expect(page.getByLabel("City")).toBeEnabled();
        await expect(page.getByLabel("Duty Hospital")).toHaveValue("Laquintinie Hospital");
        await page.getByLabel("City").selectOption({ label: "Douala" });
        await checkA11y(page);
        await page.getByRole("button", { name: "Save" }).click();
        await expect(page.getByText("Profile updated successfully")).toBeVisible();
        await expect(page.getByText("Laquintinie Hospital").first()).toBeVisible();
        await expect(page.getByText("Douala")).toBeVisible();
        await expect(page.getByText("Female")).toBeVisible();
      });
    });
  });
}
