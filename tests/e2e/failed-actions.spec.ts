// A failed action says what happened and what to do next, where the user acted, and stays until
// read: a proposal the patient rejects after it was already answered is told beside that proposal
// (not in a toast), and an error toast stays until dismissed while a success toast still closes by
// itself. Neither takes the clicks meant for what is under it. JavaScript off and on.
import type { Page } from "@playwright/test";
import { expect, test } from "./support.ts";
import { api, generalPractice, openRequest, signIn } from "./doctor-helpers.ts";
import { newPatient, newVerifiedDoctor } from "./fixtures.ts";

/**
 * Runs the page's clock and its CSS animations 10 seconds ahead: what a toast that closes after 5
 * seconds would have done by then (timers with JavaScript, the CSS fade-out without).
 */
async function tenSecondsLater(page: Page, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) await page.clock.runFor(10_000);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Animation.enable");
  await cdp.send("Animation.setPlaybackRate", { playbackRate: 1000 });
  // 10 s of animation at 1000x is 10 ms of the browser's time; then back to normal speed, so that
  // what comes after runs as a user sees it.
  await page.waitForTimeout(100);
  await cdp.send("Animation.setPlaybackRate", { playbackRate: 1 });
  await cdp.detach();
}

/** Whether a click at the centre of the first toast of `role` would reach the toast instead of what is under it. */
async function takesClicks(page: Page, role: "alert" | "status") {
  return page
    .getByRole(role)
    .first()
    .evaluate((el, r) => {
      const box = el.querySelector("p")!.getBoundingClientRect();
      return !!document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2)?.closest(`[role="${r}"]`);
    }, role);
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`failed actions (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("rejecting a proposal that was answered meanwhile says so beside it, and stays", async ({ page }) => {
      if (javaScriptEnabled) await page.clock.install();
      const patient = await newPatient();
      const request = await openRequest(patient, await generalPractice());
      const doctor = await newVerifiedDoctor(await generalPractice());
      const proposed = await api("POST", "/appointment-proposal", {
        token: doctor.token,
        body: { doctorId: doctor.id, appointmentId: request.id },
      });
      expect(proposed.status, JSON.stringify(proposed.body)).toBeLessThan(300);

      await signIn(page, patient.email, "patient");
      await page.goto(`/health/doctors/my-appointments?tab=open&appointment=${request.id}`);
      const proposal = page
        .getByRole("dialog")
        .getByRole("listitem")
        .filter({ hasText: `Dr. ${doctor.username}` });
      await expect(proposal.getByText("Awaiting your answer")).toBeVisible();
      // The patient already refused it from another tab.
      expect(
        (await api("PATCH", `/appointment-proposal/${proposed.body.id}/reject`, { token: patient.token })).status,
      ).toBe(200);

      await proposal.getByRole("button", { name: "Reject" }).click();
      const alert = proposal.getByRole("alert");
      await expect(alert).toHaveText(
        "This proposal was answered before yours reached it (another proposal accepted, or this one already refused). Nothing was done; its status is shown above.",
      );
      await expect(proposal).toContainText("Rejected");
      await expect(proposal.getByRole("button", { name: "Reject" })).toHaveCount(0);
      await expect(page.getByText("The proposal could not be rejected", { exact: false })).toHaveCount(0);
      await tenSecondsLater(page, javaScriptEnabled);
      await expect(alert).toBeVisible();
    });

    test("an error toast stays until dismissed, a success toast closes by itself, and neither takes clicks", async ({
      page,
    }) => {
      if (javaScriptEnabled) await page.clock.install();
      // Verification without an account to verify: back to the registration form, with an error toast.
      await page.goto("/verification");
      await expect(page).toHaveURL(/\/register$/);
      const error = page
        .getByRole("alert")
        .filter({ hasText: "We could not tell which account to verify: start again from the registration form." });
      await expect(error).toBeVisible();
      expect(await takesClicks(page, "alert"), "the error toast takes the click at its centre").toBe(false);
      await tenSecondsLater(page, javaScriptEnabled);
      await expect(error).toBeVisible();
      await error.getByRole("link", { name: "Dismiss" }).click();
      await expect(error).toHaveCount(0);
      await expect(page).toHaveURL(/\/register$/);

      // The control: a success toast, under the same clock, is gone.
      const patient = await newPatient();
      await signIn(page, patient.email, "patient");
      await page.goto("/settings");
      await page.getByRole("button", { name: "Turn lite mode on" }).click();
      const success = page.getByRole("status").filter({ hasText: /lite mode/i });
      await expect(success).toBeVisible();
      expect(await takesClicks(page, "status"), "the success toast takes the click at its centre").toBe(false);
      await tenSecondsLater(page, javaScriptEnabled);
      await expect(success).toBeHidden();
    });
  });
}
