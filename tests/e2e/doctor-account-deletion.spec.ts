// A doctor's account deletion that cannot go through says why where the doctor now stands, and
// stays: the profile gate closed after the delete dialog opened (the doctor signed out and in again
// in another tab; the gate also closes after 30 minutes), so the deletion meets the gate again. The
// account is not deleted. JavaScript off and on.
import { apiLogin, enterCode, mailCount, newCode, signInContext } from "./doctor-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { checkA11y } from "./support.ts";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`a doctor deletes the account (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("a deletion sent after the profile gate closed says so on the gate, and the account stays", async ({
      page,
      doctor,
      signIn,
    }) => {
      if (javaScriptEnabled) await page.clock.install();
      await signIn(doctor);
      const gate = page.getByRole("dialog", { name: "Verify your identity" });

      await test.step("the doctor passes the gate and opens the delete dialog", async () => {
        const before = await mailCount(doctor.email);
        await page.goto("/doctor/profile");
        await expect(gate).toBeVisible();
        await enterCode(page, await newCode(doctor.email, before));
        await gate.getByRole("button", { name: "Verify" }).click();
        await expect(page.getByText("Profile access verified successfully")).toBeVisible();
        await page.goto("/doctor/profile?delete=1");
        await expect(page.getByRole("dialog", { name: "Delete your account?" })).toBeVisible();
      });

      // In another tab the doctor signs out and in again: a new session, whose gate is closed.
      expect((await page.context().request.post("/logout", { maxRedirects: 0 })).status()).toBe(302);
      await signInContext(page.context(), doctor);

      await test.step("Delete my account meets the gate again and says why", async () => {
        await page
          .getByRole("dialog", { name: "Delete your account?" })
          .getByRole("button", { name: "Delete my account" })
          .click();
        const alert = gate.getByRole("alert");
        await expect(alert).toHaveText(
          "Your account was not deleted: your access to the profile had ended (it lasts 30 minutes, and signing out ends it). Enter the code we have just mailed you, then choose Delete account again.",
        );
        if (javaScriptEnabled) await page.clock.runFor(10_000);
        await expect(alert).toBeVisible();
        await checkA11y(page);
        // The account is still there.
        await apiLogin(doctor.email, "doctor");
      });
    });
  });
}
